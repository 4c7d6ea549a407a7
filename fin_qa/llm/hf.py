"""The transformers (+ torch) backend: a local model folder, or a GGUF file converted once to a folder.

How a model is prompted comes from rules/llm.yaml by its config.model_type: its own .chat (ChatGLM,
trust_remote_code), the tokenizer's chat template, or plain 问：…\\n答：… turns. Greedy decoding; the
reply is cut at the family's stop strings. CUDA when present (fp16/bf16), else the CPU in float32
with 1 thread by default (FIN_QA_LLM_THREADS). Requests are generated `batch_size` at a time with
left padding (on a GPU; 1 on a CPU unless asked).
"""
from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
from pathlib import Path
from types import ModuleType
from typing import Any, Iterator, Sequence, cast

from ..catalog.llm_config import LLMConfig
from .base import INSTALL_HINT, History, LLMError
from ..config import cache_dir


@contextlib.contextmanager
def _no_library_bars() -> Iterator[None]:
    """tqdm bars the libraries draw themselves (transformers' GGUF conversion imports tqdm.auto.tqdm into
    its module) left out while a model loads, unless FIN_QA_LIBRARY_PROGRESS=1."""
    if os.environ.get("FIN_QA_LIBRARY_PROGRESS") == "1":
        yield
        return
    import functools

    try:
        from transformers import modeling_gguf_pytorch_utils as gguf_utils
    except ImportError:   # pragma: no cover - an older transformers
        yield
        return
    bar = getattr(gguf_utils, "tqdm", None)
    if bar is None:
        yield
        return
    gguf_utils.tqdm = functools.partial(bar, disable=True)
    try:
        yield
    finally:
        gguf_utils.tqdm = bar


def _quiet_libraries() -> None:
    """The libraries' own progress bars ("Loading weights", "Converting and de-quantizing GGUF tensors")
    are not printed on every run: only when FIN_QA_LIBRARY_PROGRESS=1 asks for them."""
    if os.environ.get("FIN_QA_LIBRARY_PROGRESS") == "1":
        return
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    try:
        from transformers.utils import logging as hf_logging

        hf_logging.disable_progress_bar()
    except ImportError:   # pragma: no cover - an older transformers
        pass


def _torch() -> ModuleType:
    try:
        import torch
        import transformers  # noqa: F401
        _quiet_libraries()
    except ImportError:
        raise LLMError(f"the chat model needs torch and transformers: {INSTALL_HINT}") from None
    return torch


def gguf_cache_dir(gguf: Path, cache: Path) -> Path:
    st = gguf.stat()
    key = hashlib.sha256(f"{gguf.resolve()}|{st.st_size}|{st.st_mtime_ns}".encode()).hexdigest()[:16]
    return cache / f"{gguf.stem}-{key}"


def convert_gguf(gguf: Path, target: Path) -> Path:
    """Load a GGUF file with transformers (de-quantised to float32) and save it as a model folder, once."""
    if (target / "config.json").is_file():
        return target
    torch = _torch()
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tmp = target.with_name(target.name + f".tmp{os.getpid()}")
    shutil.rmtree(tmp, ignore_errors=True)
    try:
        tok = AutoTokenizer.from_pretrained(gguf.parent, gguf_file=gguf.name)
        with _no_library_bars():
            model = AutoModelForCausalLM.from_pretrained(gguf.parent, gguf_file=gguf.name, dtype=torch.float32)
        # the weights are plain float32 tensors now; the loader still marks the model as GGUF-quantised
        setattr(model, "hf_quantizer", None)   # not a declared attribute of the model class
        if hasattr(model.config, "quantization_config"):
            del model.config.quantization_config
        model.save_pretrained(tmp)
        tok.save_pretrained(tmp)
    except (OSError, ValueError, RuntimeError, KeyError) as exc:
        shutil.rmtree(tmp, ignore_errors=True)
        raise LLMError(f"cannot convert the GGUF file {gguf}: {exc}") from None
    target.parent.mkdir(parents=True, exist_ok=True)
    if target.exists():  # another process won the race
        shutil.rmtree(tmp, ignore_errors=True)
    else:
        tmp.rename(target)
    return target


class TransformersChat:
    def __init__(self, path: str | os.PathLike[str], config: LLMConfig, device: str = "auto",
                 batch_size: int | None = None, threads: int | None = None, cache: Path | None = None) -> None:
        torch = _torch()
        from transformers import AutoConfig, AutoModelForCausalLM, AutoTokenizer

        self.config = config  # rules/llm.yaml, from the catalog
        path = Path(path)
        if path.is_file() and path.suffix.lower() == ".gguf":
            path = convert_gguf(path, gguf_cache_dir(path, cache or cache_dir() / "models"))
        if not (path / "config.json").is_file():
            raise LLMError(f"no model at {path}: give a folder with config.json (transformers) or a .gguf file")
        if device == "auto":
            device = "cuda" if torch.cuda.is_available() else "cpu"
        self.device = device
        if device == "cpu":
            torch.set_num_threads(threads or self.config.cpu_threads)
            dtype = getattr(torch, self.config.cpu_dtype)
        else:
            name = self.config.gpu_dtype
            if name == "float16" and torch.cuda.is_bf16_supported():
                name = "bfloat16"
            dtype = getattr(torch, name)
        try:
            model_type = getattr(AutoConfig.from_pretrained(path, trust_remote_code=False), "model_type", None)
        except (OSError, ValueError, KeyError):
            model_type = None  # a remote-code config: the family decides
        self.family = self.config.family(model_type)
        trust = self.family.trust_remote_code
        try:
            self.tokenizer = AutoTokenizer.from_pretrained(path, trust_remote_code=trust)
            with _no_library_bars():
                model = AutoModelForCausalLM.from_pretrained(path, dtype=dtype, trust_remote_code=trust)
            # PreTrainedModel.to is wrapped by a decorator whose stub does not bind self
            self.model = model.to(device)  # type: ignore[arg-type]
        except (OSError, ValueError, RuntimeError) as exc:
            raise LLMError(f"cannot load the chat model at {path}: {exc}") from None
        self.model.eval()
        self.format = self.family.format
        if self.format == "chat_template" and not getattr(self.tokenizer, "chat_template", None):
            self.format = "plain"
        if self.format == "model_chat" and not hasattr(self.model, "chat"):
            raise LLMError(f"{path}: family {self.family.name} wants the model's own .chat, which it lacks")
        if self.tokenizer.pad_token is None:
            self.tokenizer.pad_token = self.tokenizer.eos_token
        self.tokenizer.padding_side = "left"
        self.tokenizer.truncation_side = "left"  # an over-long prompt loses its start, keeps the question
        self.batch_size = batch_size or (8 if device != "cpu" else 1)
        self.name = f"{path.name} ({self.family.name}, {self.format}, {device})"
        self.path = path
        self.generated_tokens = 0

    # ------------------------------------------------------------------------------------------ prompts

    def render(self, prompt: str, history: History = ()) -> str:
        """The text the model is given (chat template or plain turns)."""
        if self.format == "chat_template":
            messages: list[dict[str, str]] = []
            for u, a in history:
                messages += [{"role": "user", "content": u}, {"role": "assistant", "content": a}]
            messages.append({"role": "user", "content": prompt})
            # tokenize=False: the rendered text
            return cast(str, self.tokenizer.apply_chat_template(messages, tokenize=False, add_generation_prompt=True))
        return self.config.plain_text(prompt, history)

    def _cut(self, text: str) -> str:
        stops = list(self.config.stop) if self.format == "plain" else []
        for s in stops:
            i = text.find(s)
            if i >= 0:
                text = text[:i]
        return text.strip()

    # ------------------------------------------------------------------------------------------ generation

    def chat(self, prompt: str, history: History = (), max_new_tokens: int | None = None) -> str:
        if self.format == "model_chat":
            response, _ = self.model.chat(self.tokenizer, prompt, history=list(history),
                                          max_length=self.config.max_input_tokens + (max_new_tokens or self.config.max_new_tokens),
                                          do_sample=False)
            return str(response).strip()
        return self.chat_batch([(prompt, history)], max_new_tokens)[0]

    def chat_batch(self, requests: Sequence[tuple[str, History]], max_new_tokens: int | None = None) -> list[str]:
        torch = _torch()
        if self.format == "model_chat":
            return [self.chat(p, h, max_new_tokens) for p, h in requests]
        new = max_new_tokens or self.config.max_new_tokens
        out: list[str] = []
        for i in range(0, len(requests), self.batch_size):
            texts = [self.render(p, h) for p, h in requests[i:i + self.batch_size]]
            enc = self.tokenizer(texts, return_tensors="pt", padding=True, truncation=True,
                                 max_length=self.config.max_input_tokens, add_special_tokens=self.format == "plain")
            enc = {k: v.to(self.device) for k, v in enc.items()}
            kwargs: dict[str, Any] = {}
            if self.format == "plain" and self.config.stop:
                kwargs = {"stop_strings": list(self.config.stop), "tokenizer": self.tokenizer}
            try:
                with torch.inference_mode():
                    gen = self.model.generate(**enc, max_new_tokens=new, do_sample=False,
                                              repetition_penalty=self.config.repetition_penalty,
                                              pad_token_id=self.tokenizer.pad_token_id, **kwargs)
            except (RuntimeError, ValueError) as exc:
                raise LLMError(f"the chat model failed to generate: {exc}") from None
            width = enc["input_ids"].shape[1]
            for row in gen:
                tail = row[width:]
                self.generated_tokens += int((tail != self.tokenizer.pad_token_id).sum())
                text = cast(str, self.tokenizer.decode(tail, skip_special_tokens=True))   # one sequence: a str
                out.append(self._cut(text))
        return out
