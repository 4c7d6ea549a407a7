"""The fuzz campaign's strategies and checks (issue 14), shared by tests/test_fuzz.py (a few dozen inputs
each, in CI) and scripts/fuzz.py (the same strategies for N minutes, a table of inputs tried and
failures by kind).

Every target feeds fin-qa a generated or mutated input and holds it to the same bar: it ends in an
answer or in one FinQAError of one line — never another exception (a traceback at the command line),
never past its time bound, and never a changed store (answering writes nothing; an ingest or import that
fails writes nothing).

Targets:
- question: random and mutated questions (unicode, control characters, up to 10,000 characters, numbers
  in every form: full-width, Chinese, scientific, grouped, negative, percent) → Router.answer;
- question_file: question files of torn lines, mixed encodings (GBK, UTF-16, Latin-1, bare bytes) and
  wrong JSON types → run_batch, then the same run again (resumed: nothing redone, byte for byte);
- rules: one YAML value of one rules file replaced (another type, a broken regex, a long string) →
  Catalog.load, and when it loads, a few questions answered with it;
- formula: a formula's `expr` replaced by generated expressions → the same;
- table: CSV/XLSX tables with generated cells → import_table, then the number items hold numbers;
- pdf: the sample report's bytes truncated, bit-flipped, spliced, emptied → ingest.
"""
from __future__ import annotations

import json
import random
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import yaml
from hypothesis import strategies as st

from fin_qa import FinQAError
from fin_qa.catalog import Catalog
from fin_qa.config import RULE_FOLDERS, default_rules_root

# -------------------------------------------------------------------------------------------- outcomes


class Failure(Exception):
    """An input fin-qa did not hold to the bar: `kind` names how (traceback:TypeError, two-line message,
    slow, store changed, lost lines …)."""

    def __init__(self, kind: str, detail: str = ""):
        super().__init__(f"{kind}: {detail}")
        self.kind, self.detail = kind, detail


def guarded(fn: Callable[[], Any], bound_s: float, allow: tuple[type[BaseException], ...] = (FinQAError,)) -> Any:
    """fn() must return or raise one of `allow` with a one-line message, within bound_s seconds."""
    t0 = time.perf_counter()
    try:
        out = fn()
    except allow as exc:
        msg = str(exc)
        if "\n" in msg.strip() or not msg.strip():
            raise Failure("message not one line", repr(msg[:300])) from None
        if "Traceback" in msg:
            raise Failure("traceback in message", msg[:300]) from None
        out = exc
    except Failure:
        raise
    except RecursionError:
        raise Failure("traceback:RecursionError") from None
    except Exception as exc:  # every other exception is a traceback at the command line
        raise Failure(f"traceback:{type(exc).__name__}", str(exc)[:300]) from exc
    took = time.perf_counter() - t0
    if took > bound_s:
        raise Failure("slow", f"{took:.1f} s > {bound_s} s")
    return out


def store_state(store) -> tuple:
    """What a store holds (reports, facts, chunks, tables), to tell it changed."""
    db = store.db
    return tuple(db.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in ("reports", "facts", "chunks", "tables"))


# -------------------------------------------------------------------------------------------- context


@dataclass
class Context:
    """A store with the sample report, its router, a scratch folder, a copy of the rules to mutate."""
    work: Path
    store: Any
    router: Any
    catalog: Catalog
    sample_pdf: bytes
    rules: Path
    extra_pdfs: list[Path] = field(default_factory=list)   # real reports (scripts/fuzz.py, ../shared)
    counter: int = 0

    def scratch(self, name: str) -> Path:
        self.counter += 1
        d = self.work / f"{name}-{self.counter}"
        d.mkdir(parents=True, exist_ok=True)
        return d


def make_context(work: Path, extra_pdfs: list[Path] | None = None) -> Context:
    from fin_qa.answer.facts import FactSource
    from fin_qa.answer.router import Router
    from fin_qa.ingest.pipeline import ingest
    from fin_qa.sample import build_sample_pdf
    from fin_qa.store import Store

    work.mkdir(parents=True, exist_ok=True)
    catalog = Catalog.shipped()
    pdf = build_sample_pdf(work / "星河精密2021年度报告.pdf")
    with Store(work / "store") as s:
        summary = ingest([pdf], s, catalog)
        assert summary.count("ingested") == 1
    store = Store(work / "store", readonly=True)
    rules = work / "rules"
    for name in RULE_FOLDERS:
        shutil.copytree(default_rules_root() / name, rules / name)
    return Context(work, store, Router(FactSource(store), catalog), catalog, pdf.read_bytes(), rules,
                   list(extra_pdfs or []))


# -------------------------------------------------------------------------------------------- questions

COMPANIES = ["星河精密", "星河精密制造股份有限公司", "688999", "星河", "不存在公司", "ST星河", "星河精密A"]
ITEMS = ["营业收入", "净利润", "货币资金", "研发费用", "流动比率", "资产负债率", "营业收入增长率", "法定代表人",
         "注册地址", "研发人员", "前五名客户", "审计意见类型", "现金分红", "每股收益", "员工总数", "重大诉讼"]
ASKS = ["是多少", "是多少元", "是多少万元？", "为多少亿元", "是什么", "是谁", "有哪些", "同比增长多少", "期初是多少",
        "保留2位小数", "是否超过10亿元", "排名第几", "前五名是谁", "占比多少", "？", "", "吗"]
YEARS = ["2021年", "2021", "二〇二一年", "２０２１年", "21年", "2021年度", "上年", "2020年和2021年", "2019-2021年",
         "0年", "99999年", "-2021年", "2021.5年", "1e3年", "2,021年"]


def _number() -> st.SearchStrategy[str]:
    return st.one_of(
        st.integers(-10**30, 10**30).map(str),
        st.floats(allow_nan=True, allow_infinity=True).map(repr),
        st.integers(0, 10**12).map(lambda n: f"{n:,}"),
        st.integers(0, 10**9).map(lambda n: str(n).translate(str.maketrans("0123456789", "０１２３４５６７８９"))),
        st.integers(0, 10**6).map(lambda n: "".join("〇一二三四五六七八九"[int(d)] for d in str(n))),
        st.decimals(allow_nan=False, allow_infinity=False, places=4).map(str),
        st.sampled_from(["1e308", "-0", "0x1F", "1/0", "50%", "１２.５％", "三亿", "1.2万亿", "NaN", "∞", "½"]),
    )


def questions() -> st.SearchStrategy[str]:
    template = st.builds(lambda parts: "".join(parts), st.lists(st.one_of(
        st.sampled_from(COMPANIES), st.sampled_from(YEARS), st.sampled_from(ITEMS), st.sampled_from(ASKS),
        _number(), st.text(max_size=6)), min_size=1, max_size=8))
    mutated = st.builds(_mutate_text, template, st.randoms(use_true_random=False))
    long = st.builds(lambda s, n: (s * n)[:10_000], st.text(min_size=1, max_size=30), st.integers(300, 10_000))
    control = st.text(alphabet=st.characters(codec=None, categories=("Cc", "Cf", "Zs", "Zl", "Zp", "Co", "Cs")),
                      max_size=50)
    return st.one_of(st.text(max_size=300), template, mutated, long, control)


def _mutate_text(text: str, rnd: random.Random) -> str:
    chars = list(text)
    for _ in range(rnd.randint(1, 6)):
        op = rnd.randrange(4)
        i = rnd.randrange(len(chars) + 1)
        if op == 0 and chars:
            del chars[min(i, len(chars) - 1)]
        elif op == 1:
            chars.insert(i, chr(rnd.choice([0, 7, 0x1b, 0x200b, 0xfeff, 0x202e, 0xd7ff, 0x10ffff, rnd.randrange(0x110000)])))
        elif op == 2 and chars:
            j = rnd.randrange(len(chars))
            chars[j:j] = chars[j:j + rnd.randint(1, 5)] * rnd.randint(1, 20)
        else:
            chars.insert(i, rnd.choice(["\n", "\r\n", "\t", "　", "#", "{", "}", "%", "'", '"', "\\"]))
    # surrogates cannot be encoded: a question file could not hold them either
    return "".join(c for c in "".join(chars) if not 0xD800 <= ord(c) <= 0xDFFF)


def check_question(ctx: Context, q: str) -> None:
    before = store_state(ctx.store)
    ans = guarded(lambda: ctx.router.answer(q), 10.0)
    if isinstance(ans, FinQAError):
        return
    if not isinstance(ans.answer, str) or not ans.answer.strip():
        raise Failure("empty answer", repr(q[:80]))
    json.dumps(ans.record(1), ensure_ascii=False)   # the batch line can be written
    if store_state(ctx.store) != before:
        raise Failure("store changed", repr(q[:80]))


# -------------------------------------------------------------------------------------------- question files

def _json_value() -> st.SearchStrategy[Any]:
    return st.recursive(st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=20)),
                        lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=5), inner, max_size=3)),
                        max_leaves=6)


def _line() -> st.SearchStrategy[bytes]:
    good = st.builds(lambda i, q: json.dumps({"id": i, "question": q}, ensure_ascii=False).encode(),
                     st.integers(0, 50), st.sampled_from(["星河精密2021年营业收入是多少元？", "星河精密2021年法定代表人是谁？",
                                                          "请简要介绍星河精密2021年主要销售客户的客户集中度情况。"]))
    typed = st.builds(lambda i, q: json.dumps({"id": i, "question": q}, ensure_ascii=False).encode(), _json_value(), _json_value())
    torn = st.builds(lambda b, k: b[:k], good, st.integers(0, 60))
    encoded = st.builds(lambda i, q, enc: json.dumps({"id": i, "question": q}, ensure_ascii=False).encode(enc, errors="replace"),
                        st.integers(0, 50), st.sampled_from(["星河精密2021年营业收入是多少？", "净利润"]),
                        st.sampled_from(["gbk", "utf-16", "latin-1", "big5", "utf-8-sig"]))
    return st.one_of(good, good, typed, torn, encoded, st.binary(max_size=40), st.just(b""), st.just(b"["), st.just(b"]"))


def question_files() -> st.SearchStrategy[bytes]:
    return st.builds(lambda lines, sep: sep.join(lines), st.lists(_line(), max_size=12), st.sampled_from([b"\n", b"\r\n"]))


def batch_runs() -> st.SearchStrategy[tuple[bytes, bool, float]]:
    """(question file, --plain, where a first run was cut off: a fraction of its output's bytes)."""
    return st.tuples(question_files(), st.booleans(), st.floats(0, 1))


def check_question_file(ctx: Context, run: tuple[bytes, bool, float] | bytes) -> None:
    from fin_qa.answer.batch import run_batch

    data, plain, cut = run if isinstance(run, tuple) else (run, False, 1.0)
    d = ctx.scratch("qfile")
    qs, out = d / "q.jsonl", d / "a.jsonl"
    qs.write_bytes(data)
    before = store_state(ctx.store)
    res = guarded(lambda: run_batch(ctx.router, qs, out, extra_fields=not plain), 60.0)
    if store_state(ctx.store) != before:
        raise Failure("store changed")
    if isinstance(res, FinQAError):
        if not data.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"["):
            raise Failure("a JSON-lines file refused whole", str(res)[:200])
        return
    try:
        arr = json.loads(data.decode("utf-8-sig"))
    except (ValueError, UnicodeDecodeError, RecursionError):
        arr = None
    lines = arr if isinstance(arr, list) and data.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"[") else \
        [x for i, x in enumerate(data.split(b"\n"))
         if (x[3:] if i == 0 and x.startswith(b"\xef\xbb\xbf") else x).decode("utf-8", "replace").strip()]
    whole = out.read_bytes() if out.exists() else b""
    written = whole.splitlines()
    if len(written) != len(lines):
        raise Failure("lost lines", f"{len(lines)} question lines, {len(written)} answer lines")
    # the run cut off at any byte (a crash mid-line): resumed, the output is the uninterrupted run's
    out.write_bytes(whole[:int(len(whole) * cut)])
    again = guarded(lambda: run_batch(ctx.router, qs, out, extra_fields=not plain), 60.0)
    if isinstance(again, FinQAError) or out.read_bytes() != whole:
        raise Failure("resume not byte-identical", str(again)[:200])


# -------------------------------------------------------------------------------------------- rules, formulas

QUESTIONS_AFTER_RULES = ["星河精密2021年营业收入是多少元？", "星河精密2021年流动比率是多少？", "星河精密2021年法定代表人是谁？",
                         "请简要介绍星河精密2021年主要销售客户的客户集中度情况。", "2021年营业收入最高的公司是哪家？"]


def _leaves(obj: Any, path: tuple = ()) -> list[tuple]:
    if isinstance(obj, dict):
        return [path] + [p for k, v in obj.items() for p in _leaves(v, path + (k,))]
    if isinstance(obj, list):
        return [path] + [p for i, v in enumerate(obj) for p in _leaves(v, path + (i,))]
    return [path]


def _set(obj: Any, path: tuple, value: Any) -> Any:
    if not path:
        return value
    obj[path[0]] = _set(obj[path[0]], path[1:], value)
    return obj


def rule_values() -> st.SearchStrategy[Any]:
    return st.one_of(_json_value(), st.sampled_from(["(", "[", "*", "(?P<a>", "\\", "a{99999999}", "", " ", "{item",
                                                     "{}", "{0}", "%s", "null", "~", "- -", "&a", "!!python/object"]),
                     st.text(max_size=40), st.text(min_size=1, max_size=5).map(lambda s: s * 2000))


def _rule_files(ctx: Context, formulas: bool) -> list[Path]:
    files = sorted(p for p in ctx.rules.rglob("*") if p.suffix in (".yaml", ".yml", ".json"))
    return [p for p in files if (p.parent.name == "formulas") == formulas]


def check_rules(ctx: Context, data: st.DataObject, formulas: bool = False) -> None:
    from fin_qa.answer.facts import FactSource
    from fin_qa.answer.router import Router

    files = _rule_files(ctx, formulas)
    path = data.draw(st.sampled_from(files), label="file")
    original = path.read_text(encoding="utf-8")
    try:
        doc = json.loads(original) if path.suffix == ".json" else yaml.safe_load(original)
        if formulas:
            targets = [p for p in _leaves(doc) if p and p[-1] == "expr"]
            if not targets:
                return
            where = data.draw(st.sampled_from(targets), label="expr")
            value: Any = data.draw(expressions(), label="value")
        else:
            where = data.draw(st.sampled_from(_leaves(doc)), label="where")
            value = data.draw(rule_values(), label="value")
        doc = _set(doc, where, value)
        text = json.dumps(doc, ensure_ascii=False) if path.suffix == ".json" else \
            yaml.safe_dump(doc, allow_unicode=True, sort_keys=False)
        path.write_text(text, encoding="utf-8")
        catalog = guarded(lambda: Catalog.load(ctx.rules), 30.0)
        if isinstance(catalog, FinQAError):
            return
        router = guarded(lambda: Router(FactSource(ctx.store), catalog), 30.0)
        if isinstance(router, FinQAError):
            return
        for q in QUESTIONS_AFTER_RULES:
            guarded(lambda: router.answer(q), 20.0)
    finally:
        path.write_text(original, encoding="utf-8")


def expressions() -> st.SearchStrategy[str]:
    tokens = st.sampled_from(["营业收入", "营业成本", "净利润", "流动资产", "流动负债", "存货", "期初", "上年", "+", "-", "*",
                              "/", "**", "(", ")", "0", "1", "1e308", "-1", "100", "abs(", "max(", ",", "__import__('os')",
                              "lambda: 0", "[1]", "{}", "'a'", "x", "营业收入.real", "营业收入[0]", "not ", " and ", "==", "<"])
    return st.one_of(st.lists(tokens, max_size=12).map("".join), st.text(max_size=30),
                     st.just("(" * 200 + "1" + ")" * 200), st.just("+".join(["营业收入"] * 500)))


# -------------------------------------------------------------------------------------------- tables

def _cell() -> st.SearchStrategy[Any]:
    return st.one_of(st.none(), st.integers(-10**20, 10**20), st.floats(), _number(), st.text(max_size=12),
                     st.sampled_from(["-", "—", "不适用", "-1", "", "1,234.5元", "30%", "TRUE", "2021-12-31", "=1+1", "'001"]),
                     st.booleans())


def tables() -> st.SearchStrategy[tuple[str, list[str], list[list[Any]]]]:
    columns = st.lists(st.sampled_from(["净利润", "营业收入", "货币资金", "法定代表人", "研发人员", "员工总数", "每股收益",
                                        "资产负债率", "随便一列", ""]), min_size=1, max_size=5, unique=True)
    return st.builds(lambda suffix, cols, rows: (suffix, ["股票代码", "公司名称", "年份"] + cols, rows),
                     st.sampled_from([".csv", ".xlsx"]), columns,
                     st.lists(st.lists(_cell(), min_size=8, max_size=8), min_size=1, max_size=6))


def check_table(ctx: Context, table: tuple[str, list[str], list[list[Any]]]) -> None:
    import pandas as pd

    from fin_qa.ingest.tables_import import import_table
    from fin_qa.numbers import parse_number
    from fin_qa.store import Store

    suffix, cols, rows = table
    body = [[f"{600000 + i:06d}", f"模糊测试{i}股份有限公司", 2021] + r[:len(cols) - 3] for i, r in enumerate(rows)]
    df = pd.DataFrame(body, columns=cols)
    d = ctx.scratch("table")
    f = d / f"t{suffix}"
    try:
        df.to_csv(f, index=False) if suffix == ".csv" else df.to_excel(f, index=False)
    except Exception:   # a cell openpyxl cannot write (a control character): no such file can exist
        return
    with Store(d / "s") as store:
        res = guarded(lambda: import_table(f, store, ctx.catalog), 30.0)
        if isinstance(res, FinQAError):
            if store_state(store) != (0, 0, 0, 0):
                raise Failure("store changed", "a refused import wrote facts")
            return
        vocab = ctx.catalog.vocabulary
        for row in store.db.execute("SELECT item, value FROM facts"):
            info = vocab.items.get(row[0])
            if info is not None and info.kind != "text" and parse_number(str(row[1])) is None:
                raise Failure("text in a number column", f"{row[0]} = {row[1]!r}")


# -------------------------------------------------------------------------------------------- PDF bytes

def pdf_mutations() -> st.SearchStrategy[tuple[str, int, int, int]]:
    """(operation, position, count, seed): truncate, flip bits, splice garbage, empty, duplicate a span."""
    return st.tuples(st.sampled_from(["truncate", "flip", "splice", "empty", "duplicate", "zero_span"]),
                     st.integers(0, 2**31), st.integers(1, 64), st.integers(0, 2**31))


def mutate_pdf(data: bytes, mutation: tuple[str, int, int, int]) -> bytes:
    op, pos, count, seed = mutation
    rnd = random.Random(seed)
    n = len(data)
    pos = pos % max(n, 1)
    if op == "empty":
        return b""
    if op == "truncate":
        return data[:pos]
    buf = bytearray(data)
    if op == "flip":
        for _ in range(count):
            i = rnd.randrange(n)
            buf[i] ^= 1 << rnd.randrange(8)
    elif op == "splice":
        buf[pos:pos] = bytes(rnd.randrange(256) for _ in range(count * 16))
    elif op == "duplicate":
        buf[pos:pos] = buf[pos:pos + count * 64]
    else:
        buf[pos:pos + count * 64] = bytes(len(buf[pos:pos + count * 64]))
    return bytes(buf)


def check_pdf(ctx: Context, mutation: tuple[str, int, int, int], source: bytes | None = None) -> None:
    from fin_qa.ingest.pipeline import ingest
    from fin_qa.store import Store

    d = ctx.scratch("pdf")
    f = d / "fuzz.pdf"
    f.write_bytes(mutate_pdf(source if source is not None else ctx.sample_pdf, mutation))
    with Store(d / "s") as store:
        summary = guarded(lambda: ingest([f], store, ctx.catalog), 120.0)
        if isinstance(summary, FinQAError):
            return
        failed = [o for o in summary.outcomes if o.status == "failed"]
        for o in failed:
            if not o.detail or "\n" in o.detail.strip() or "Traceback" in o.detail:
                raise Failure("failure reason not one line", repr((o.detail or "")[:200]))
        if failed and store_state(store) != (0, 0, 0, 0):
            raise Failure("store changed", "a failed ingest wrote to the store")
    shutil.rmtree(d, ignore_errors=True)


TARGETS = ["question", "question_file", "rules", "formula", "table", "pdf"]


def target(ctx: Context, name: str) -> tuple[st.SearchStrategy[Any], Callable[[Any], None]]:
    """(strategy, check) of a target — the one mapping tests/test_fuzz.py and scripts/fuzz.py both run; the
    pdf target mutates the sample report and the context's real reports (up to 4)."""
    sources = [ctx.sample_pdf] + [p.read_bytes() for p in ctx.extra_pdfs[:4]] if name == "pdf" else []
    targets: dict[str, tuple[st.SearchStrategy[Any], Callable[[Any], None]]] = {
        "question": (questions(), lambda v: check_question(ctx, v)),
        "question_file": (batch_runs(), lambda v: check_question_file(ctx, v)),
        "rules": (st.data(), lambda v: check_rules(ctx, v)),
        "formula": (st.data(), lambda v: check_rules(ctx, v, formulas=True)),
        "table": (tables(), lambda v: check_table(ctx, v)),
        "pdf": (st.tuples(pdf_mutations(), st.integers(0, max(len(sources) - 1, 0))),
                lambda v: check_pdf(ctx, v[0], sources[v[1]])),
    }
    return targets[name]


def describe(value: Any) -> str:
    s = repr(value)
    return s if len(s) <= 160 else s[:160] + "…"

