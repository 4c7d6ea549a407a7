"""rules/llm.yaml: model families (how each is prompted), the plain 问/答 template, generation settings."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .yamlfile import RuleError, line_of, load_rules_yaml

FORMATS = ("model_chat", "chat_template", "plain")


@dataclass(frozen=True)
class Family:
    name: str
    model_types: tuple[str, ...]
    format: str
    trust_remote_code: bool = False


@dataclass
class LLMConfig:
    families: list[Family]
    turn: str = "问：{user}\n答：{assistant}\n\n"
    prompt: str = "问：{user}\n答："
    stop: list[str] = field(default_factory=list)
    max_new_tokens: int = 160
    repetition_penalty: float = 1.1
    max_input_tokens: int = 1536
    cpu_dtype: str = "float32"
    cpu_threads: int = 1
    gpu_dtype: str = "float16"

    def family(self, model_type: str | None) -> Family:
        for f in self.families:
            if model_type in f.model_types:
                return f
        return next((f for f in self.families if f.name == "default"), Family("default", (), "chat_template"))

    def plain_text(self, prompt: str, history: Sequence[tuple[str, str]]) -> str:
        out = "".join(self.turn.format(user=u, assistant=a) for u, a in history)
        return out + self.prompt.format(user=prompt)


def load_llm_config(path: Path) -> LLMConfig:
    """rules/llm.yaml: families, the plain 问/答 turn, generation and device settings."""
    data = load_rules_yaml(path)
    if not isinstance(data, dict) or not isinstance(data.get("families"), dict):
        raise RuleError(path, 1, "expected `families:` mapping family names to {model_types, format}")
    fams = []
    lines = data["families"].key_lines
    for name, body in data["families"].items():
        line = lines.get(name, line_of(body))
        if not isinstance(body, dict) or body.get("format") not in FORMATS:
            raise RuleError(path, line, f"family {name!r}: format must be one of {', '.join(FORMATS)}")
        types = body.get("model_types") or []
        if not isinstance(types, list):
            raise RuleError(path, line, f"family {name!r}: model_types must be a list")
        fams.append(Family(str(name), tuple(map(str, types)), body["format"], bool(body.get("trust_remote_code"))))
    cfg = LLMConfig(fams)
    plain = data.get("plain") or {}
    for key in ("turn", "prompt"):
        if key in plain:
            text = str(plain[key])
            want = {"{user}", "{assistant}"} if key == "turn" else {"{user}"}
            if not all(w in text for w in want):
                raise RuleError(path, line_of(plain), f"plain.{key} needs {' and '.join(sorted(want))}")
            setattr(cfg, key, text)
    cfg.stop = [str(s) for s in plain.get("stop") or []]
    gen = data.get("generation") or {}
    for key in ("max_new_tokens", "repetition_penalty", "max_input_tokens"):
        if key in gen:
            try:
                setattr(cfg, key, type(getattr(cfg, key))(gen[key]))
            except (TypeError, ValueError):
                raise RuleError(path, line_of(gen), f"generation.{key} must be a number") from None
    cpu, gpu = data.get("cpu") or {}, data.get("gpu") or {}
    cfg.cpu_dtype = str(cpu.get("dtype", cfg.cpu_dtype))
    cfg.cpu_threads = int(cpu.get("threads", cfg.cpu_threads))
    cfg.gpu_dtype = str(gpu.get("dtype", cfg.gpu_dtype))
    return cfg
