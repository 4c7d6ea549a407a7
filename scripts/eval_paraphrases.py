"""Score fin-qa on paraphrase corpora (made by scripts/paraphrase_corpus.py).

    python scripts/eval_paraphrases.py --store STORE [--tables-store TSTORE] FILE... \\
        [--style human|finglm] [--show-wrong N] [--json OUT]

e.g. python scripts/eval_paraphrases.py --store /tmp/s11 --tables-store /tmp/t11 tests/data/paraphrases.jsonl

Runs `fin-qa batch` (the fin-qa next to this Python, else the one on PATH) on each file's questions: the
filter-slot questions against the tables store, the rest against STORE. Each answer is then
- declined: method not_found / declined / bad_input (the engine said it cannot answer);
- right: not declined and every expected number (one of its alternatives), name and text appears in the answer
  (commas and spaces removed; numbers compare by value, so 1,234.50元 matches 1234.5, a "%" must match
  a "%"); for {"decline": true}: right when declined;
- partly: a compound question some of whose asks the engine said it could not answer (the record's
  `partial`), with at least one expected value in what it did answer;
- wrong: everything else.
Prints a table per file and slot, then the totals. Always exits 0: it is a measurement, not a test.
"""
from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
from collections import defaultdict
from decimal import Decimal
from pathlib import Path

DECLINED = {"not_found", "declined", "bad_input"}
ASKED_BACK = {"ask_period", "ask_year", "ask_which"}   # a question back: right for {"clarify": true}
NUMBER = re.compile(r"-?\d+(?:\.\d+)?%?")
THOUSANDS = re.compile(r"(?<![\d.])\d{1,3}(?:[,\s'’]\d{3})+(?!\d)")


def fin_qa() -> str:
    here = Path(sys.executable).with_name("fin-qa")
    return str(here) if here.exists() else (shutil.which("fin-qa") or "fin-qa")


def run_batch(questions: list[dict], store: Path, style: str, tmp: Path, tag: str) -> dict[str, dict]:
    """Answer the questions with `fin-qa batch`; {id: answer line}."""
    if not questions:
        return {}
    qfile, out = tmp / f"{tag}.questions.jsonl", tmp / f"{tag}.answers.jsonl"
    qfile.write_text("".join(json.dumps({"id": q["id"], "question": q["question"]}, ensure_ascii=False) + "\n"
                             for q in questions), encoding="utf-8")
    cmd = [fin_qa(), "batch", str(qfile), "-o", str(out), "--store", str(store), "--style", style, "-q"]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        print(f"fin-qa batch failed ({done.returncode}): {done.stderr.strip()[-2000:]}", file=sys.stderr)
    if not out.exists():
        return {}
    lines = out.read_text(encoding="utf-8").splitlines()
    return {a["id"]: a for a in map(json.loads, filter(str.strip, lines))}


def clean(text: str) -> str:
    """Thousands separators (1,234,567.8 or 1 234 567.8) and then all spaces removed; minus and % normalised."""
    text = (text or "").replace("−", "-").replace("－", "-").replace("％", "%")
    text = THOUSANDS.sub(lambda m: re.sub(r"[,\s'’]", "", m.group()), text)
    return re.sub(r"\s", "", text)


def has_number(answer: str, expected: str) -> bool:
    want = Decimal(expected.rstrip("%"))
    pct = expected.endswith("%")
    return any(Decimal(tok.rstrip("%")) == want and tok.endswith("%") == pct for tok in NUMBER.findall(answer))


def has(answer: str, expected, is_number: bool) -> bool:
    alts = expected if isinstance(expected, list) else [expected]
    return any(has_number(answer, a) if is_number else clean(a) in answer for a in alts)


# what an expectation may say: values the answer holds (numbers: one of each list's forms; names, text and
# contains: strings), a decline, a question asked back, and (unanswerable) an ask of a compound question the
# answer says unanswered, noted for a reader (the answer's other asks scored). Any other key is a set's mistake:
# an error, never a verdict that checks nothing.
EXPECT_KEYS = {"numbers", "names", "text", "contains", "decline", "clarify", "unanswerable"}


def verdict(q: dict, a: dict | None) -> str:
    declined = a is None or a.get("method") in DECLINED
    expect = q["expect"]
    unknown = set(expect) - EXPECT_KEYS
    if unknown or not expect.keys() & (EXPECT_KEYS - {"unanswerable"}):
        raise SystemExit(f"{q.get('id', q['question'])}: an expectation to check nothing by "
                         f"({', '.join(sorted(unknown)) or 'no value, decline or question back'})")
    if expect.get("decline"):
        return "right" if declined else "wrong"
    if expect.get("clarify"):   # a question naming no period of a company with several: asked back which
        return "right" if a is not None and a.get("method") in ASKED_BACK else ("declined" if declined else "wrong")
    if declined or (a is not None and a.get("method") in ASKED_BACK):   # (a question back gives no value)
        return "declined"
    text = clean(a.get("answer", ""))
    hits = [has(text, e, True) for e in expect.get("numbers", [])] + \
        [has(text, e, False) for e in expect.get("names", []) + expect.get("text", []) + expect.get("contains", [])]
    if all(hits):
        return "right"
    # a compound question some of whose asks were said unanswered: the answered ones hold expected values
    return "partly" if a.get("partial") and any(hits) else "wrong"


def table(title: str, rows: dict[str, dict[str, int]]) -> None:
    print(f"\n{title}\n{'slot':30} {'total':>6} {'right':>6} {'partly':>6} {'declined':>9} {'wrong':>6} {'% right':>8}")
    total = defaultdict(int)
    for slot in sorted(rows):
        r = rows[slot]
        n = sum(r.values())
        print(f"{slot:30} {n:6} {r['right']:6} {r['partly']:6} {r['declined']:9} {r['wrong']:6} {100 * r['right'] / n:7.1f}%")
        for k, v in r.items():
            total[k] += v
    n = sum(total.values())
    if n:
        print(f"{'total':30} {n:6} {total['right']:6} {total['partly']:6} {total['declined']:9} {total['wrong']:6} "
              f"{100 * total['right'] / n:7.1f}%")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="Score fin-qa on paraphrase corpora.")
    ap.add_argument("files", nargs="+", type=Path)
    ap.add_argument("--store", required=True, type=Path)
    ap.add_argument("--tables-store", type=Path, help="store for the filter-slot questions (else they are skipped)")
    ap.add_argument("--style", choices=["human", "finglm"], default="human")
    ap.add_argument("--show-wrong", type=int, default=0, metavar="N")
    ap.add_argument("--json", type=Path, metavar="OUT", help="write every question with its answer and verdict")
    args = ap.parse_args(argv)

    results = []
    with tempfile.TemporaryDirectory(prefix="eval_paraphrases_") as tmp:
        for i, path in enumerate(args.files):
            questions = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
            for q in questions:  # a table/disclosure set (tests/data/table_questions.jsonl): kind and split
                q.setdefault("slot", f"{q.get('kind', 'all')}/{q.get('split', 'all')}")
            is_filter = [q["slot"].split("/")[0] == "filter" for q in questions]
            if not args.tables_store and any(is_filter):
                print(f"{path}: {sum(is_filter)} filter questions skipped (no --tables-store)", file=sys.stderr)
            answers = run_batch([q for q, f in zip(questions, is_filter) if not f], args.store, args.style, Path(tmp), f"{i}")
            if args.tables_store:
                answers.update(run_batch([q for q, f in zip(questions, is_filter) if f],
                                         args.tables_store, args.style, Path(tmp), f"{i}t"))
            for q, f in zip(questions, is_filter):
                if f and not args.tables_store:
                    continue
                a = answers.get(q["id"])
                results.append({**q, "file": str(path), "answer": a and a.get("answer"),
                                "method": a and a.get("method"), "asks": a and a.get("asks"),
                                "verdict": verdict(q, a)})

    overall: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for path in dict.fromkeys(r["file"] for r in results):
        rows: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
        for r in results:
            if r["file"] == path:
                rows[r["slot"]][r["verdict"]] += 1
                overall[r["slot"].split("/")[0]][r["verdict"]] += 1
        table(path, rows)
    if len(overall):
        table("all files, by slot", overall)
    splits: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for r in results:
        if "split" in r:
            splits[r["split"]][r["verdict"]] += 1
    if splits:
        table("by split (heldout: never tuned on)", splits)

    wrong = [r for r in results if r["verdict"] == "wrong"][:args.show_wrong]
    if wrong:
        print(f"\nwrong (first {len(wrong)}):")
    for r in wrong:
        print(f"- {r['id']} [{r['slot']}] {r['question']}\n    answer ({r['method']}): {r['answer']}\n"
              f"    expect: {json.dumps(r['expect'], ensure_ascii=False)}  ({r['note']})")
    if args.json:
        args.json.write_text(json.dumps(results, ensure_ascii=False, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
