"""Question files of conversations — the Teddy Cup 2026 problem B's batch format (附件4 / 附件6: 编号, 问题类型, 问题 =
a JSON list of turns [{"Q": "…"}, {"Q": "…"}]) — answered turn by turn, each turn in the context of the turns before
it (answer/followup.py; a question back — which period? — completed by the next turn), and written in the problem's
result layout (附件7 表3 / 表6): 编号, 问题, SQL查询语句, 图形格式, 回答 = [{"Q", "A": {"content", "references"}}],
as .xlsx or .jsonl (`fin-qa batch FILE --style teddy -o OUT`).

The query column says what each turn looked up so that a reader can run it again: a value the structured database
holds (`fin-qa export --schema teddy`, keyword_tables/teddy.yaml) as its SELECT over that database, any other value
as the filing, page and item it was read from, a derived one as how it was derived. Passages an answer quotes are
its references (the filing's file, the quoted text). A turn whose numbers make a chart (answer/chart.py: a line, bars,
a pie or a table) has it drawn as an image under the results' `result/` folder, named 编号_n.jpg (n: the
conversation's images in order), listed in its "image" as ./result/编号_n.jpg; 图形格式 names the kinds drawn
(折线图, 柱状图, 饼图, 表格), else 无.

A file that cannot be read at all is one message (FinQAError); a row that cannot be read (问题 not a list of turns)
gets an answer saying so, and the run goes on.
"""
from __future__ import annotations

import json
import logging
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from .answer.followup import Context
from .answer.model import Answer, FactEvidence, NoteEvidence, PassageEvidence
from .answer.notes import shown_path
from .base import FinQAError
from .catalog.teddy import TeddySchema
from .chart_image import FONT, draw

log = logging.getLogger(__name__)
COLUMNS = ("编号", "问题", "SQL查询语句", "图形格式", "回答")   # 附件7 表3: result_2 (task 2, 附件4)
# 附件7 表6: result_3 (task 3, 附件6) — its query column named 查询语法, no chart format column (the images listed
# in each turn's "image" all the same)
LAYOUTS = {"result_2": COLUMNS, "result_3": ("编号", "问题", "SQL查询语法", "回答")}
_SAME = {"SQL查询语法": "SQL查询语句"}   # (a layout's column → the row's key)
NONE = "无"   # (no query: nothing was read; no chart: none drawn)
RESULT = "result"   # the folder of the images, beside the results
_KEY = re.compile(r"^(?P<code>[^:]+):(?P<year>\d{4})(?P<period>FY|HY|Q1|Q3)?")


@dataclass
class Conversation:
    id: str
    kind: str                              # 问题类型 (数据基本查询, 多意图 …)
    turns: list[str] = field(default_factory=list)
    problem: str = ""                      # why the row could not be read ("" when it could)
    raw: str = ""                          # its 问题 cell as written (said back when it could not be read)


def _turns(value: Any) -> list[str]:
    """The turns of a 问题 cell: a JSON list of {"Q": …} (or of strings), or one question as plain text."""
    if isinstance(value, str):
        text = value.strip()
        if not text.startswith("["):
            return [text] if text else []
        try:
            value = json.loads(text)
        except json.JSONDecodeError as e:
            raise ValueError(f"问题 is not a JSON list of turns ({e.msg} at character {e.pos})") from None
    if not isinstance(value, list) or not value:
        raise ValueError('问题 is not a list of turns ([{"Q": "…"}, …])')
    out = []
    for n, turn in enumerate(value, 1):
        q = turn.get("Q") if isinstance(turn, dict) else turn
        if not isinstance(q, str) or not q.strip():
            raise ValueError(f'turn {n} has no question (expected {{"Q": "…"}})')
        out.append(q.strip())
    return out


def _conversation(n: int, rid: Any, kind: Any, question: Any) -> Conversation:
    conv = Conversation(str(rid).strip() if rid not in (None, "") else str(n), str(kind or "").strip(),
                        raw=question if isinstance(question, str) else json.dumps(question, ensure_ascii=False))
    try:
        conv.turns = _turns(question)
        if not conv.turns:
            conv.problem = "问题 is empty"
    except ValueError as e:
        conv.problem = str(e)
    return conv


def read_conversations(path: Path) -> list[Conversation]:
    """The conversations of a question file: .xlsx (a header row naming 编号 and 问题; 问题类型 optional) or .jsonl
    (each line {"编号" or "id", "问题类型" or "type", "问题" or "turns"})."""
    if not path.is_file():
        raise FinQAError(f"{path}: no such file")
    suffix = path.suffix.lower()
    if suffix == ".xlsx":
        from openpyxl import load_workbook  # type: ignore[import-untyped]

        try:
            wb = load_workbook(path, read_only=True, data_only=True)
        except Exception as e:   # (openpyxl raises many kinds for a file that is no workbook)
            raise FinQAError(f"{path}: not an Excel workbook ({type(e).__name__}: {e})") from None
        rows = list(wb.worksheets[0].iter_rows(values_only=True))
        header = [str(c or "").strip() for c in rows[0]] if rows else []
        if "编号" not in header or "问题" not in header:
            raise FinQAError(f"{path}: the first sheet's first row must name the columns 编号 and 问题 (and 问题类型)")
        at = {name: header.index(name) for name in ("编号", "问题类型", "问题") if name in header}
        out = []
        for n, row in enumerate(rows[1:], 1):
            if not any(c not in (None, "") for c in row):
                continue
            cell = (lambda name: row[at[name]] if name in at and at[name] < len(row) else None)
            out.append(_conversation(n, cell("编号"), cell("问题类型"), cell("问题")))
        return out
    if suffix == ".jsonl":
        out = []
        for n, line in enumerate(path.read_text(encoding="utf-8-sig").splitlines(), 1):
            if not line.strip():
                continue
            try:
                d = json.loads(line)
            except json.JSONDecodeError as e:
                out.append(Conversation(str(n), "", [], f"line {n} is not JSON ({e.msg})"))
                continue
            if not isinstance(d, dict):
                out.append(Conversation(str(n), "", [], f"line {n} is not a JSON object"))
                continue
            out.append(_conversation(n, d.get("编号", d.get("id")), d.get("问题类型", d.get("type")),
                                     d.get("问题", d.get("turns"))))
        return out
    raise FinQAError(f"{path}: a question file of conversations is .xlsx or .jsonl")


class Conversations:
    """Answers conversations with one router (`follow`: a turn and the context the turn before it left)."""

    def __init__(self, follow: Callable[[str, Context | None], Answer], schema: TeddySchema,
                 files: Callable[[str], str | None], images: Path | None = None):
        """images: the folder charts are drawn into (the results' result/); None: none drawn."""
        self.follow = follow
        self.files = files   # a report's key → the path of the file it was read from
        self.images = images
        self._used: set[str] = set()   # the image names this run has written
        if images is not None and not FONT.is_file():
            raise FinQAError(f"the charts' font is missing from the package ({FONT}): reinstall fin-qa")
        # an item the structured database holds → (table, column): a field reading that item first (a field of
        # 营业总收入, else 营业收入, holds no 营业收入 where the two differ)
        self.columns: dict[str, tuple[str, str, str]] = {}
        for table, fields in schema.tables.items():
            for fd in fields:
                if fd.kind == "item":
                    self.columns.setdefault(fd.items[0], (table, fd.name, fd.unit))

    def answer(self, conv: Conversation) -> dict[str, Any]:
        if conv.problem:
            said = f"这一行读不成问题：{conv.problem}"
            return {"编号": conv.id, "问题": conv.raw, "SQL查询语句": NONE, "图形格式": NONE,
                    "回答": json.dumps([{"Q": conv.raw, "A": {"content": said}}], ensure_ascii=False)}
        asked = json.dumps([{"Q": q} for q in conv.turns], ensure_ascii=False)
        context: Context | None = None
        turns, queries, kinds = [], [], []
        drawn = 0
        for n, q in enumerate(conv.turns, 1):
            try:
                ans = self.follow(q, context)
                context = Context.from_dict(ans.record())
            except FinQAError:
                raise   # (the store or the rules: no turn of any conversation can be answered — one message)
            except Exception as e:  # noqa: BLE001 — a turn whose answering broke says so; the rest go on
                turns.append({"Q": q, "A": {"content": f"回答该问题时出错（{type(e).__name__}），未能回答。"}})
                context = None
                continue
            a: dict[str, Any] = {"content": ans.answer}
            if ans.chart and self.images is not None:
                name = self._image_name(conv.id, drawn + 1)
                try:
                    draw(ans.chart, self.images / name)
                except Exception as e:  # noqa: BLE001 — a chart that cannot be drawn: the answer without it, said
                    log.warning("%s turn %d: its chart was not drawn (%s: %s)", conv.id, n, type(e).__name__, e)
                    name = ""
                if name:
                    drawn += 1
                    a["image"] = [f"./{RESULT}/{name}"]
                    if ans.chart["name"] not in kinds:
                        kinds.append(ans.chart["name"])
            refs = self.references(ans)
            if refs:
                a["references"] = refs
            turns.append({"Q": q, "A": a})
            query = self.query(ans)
            if query:
                queries.append(f"-- 第{n}轮\n{query}" if len(conv.turns) > 1 else query)
        return {"编号": conv.id, "问题": asked, "SQL查询语句": "\n".join(queries) or NONE,
                "图形格式": "、".join(kinds) or NONE, "回答": json.dumps(turns, ensure_ascii=False)}

    def _image_name(self, rid: str, n: int) -> str:
        """编号_n.jpg; a name another row of the run took already (two rows of one 编号, or 编号s a file name makes
        alike: B1/1, B1_1) gets a suffix instead of drawing over it."""
        base = f"{_file_safe(rid)}_{n}"
        name, k = f"{base}.jpg", 1
        while name in self._used:
            k += 1
            name = f"{base}-{k}.jpg"
        self._used.add(name)
        return name

    def query(self, ans: Answer) -> str:
        """What the answer looked up, as it can be run again: a SELECT over the structured database for a value it
        holds; else the filing, page and item read (or how a value was derived)."""
        lines: list[str] = []
        for e in ans.evidence:
            if not isinstance(e, FactEvidence) or not e.report:
                continue
            m = _KEY.match(e.report)
            where = self.columns.get(e.item)
            # the database's row is the value's own only when it was read from its filing's own column (not an
            # annual summary's year end read from the next interim filing, not a quarter alone, not a derivation)
            own = m is not None and e.year == int(m["year"]) and e.period == "current" and e.source != "derived" \
                and not e.label and "单季" not in (e.within or "")
            if own and where and m is not None:
                line = (f"SELECT {where[1]} FROM {where[0]} WHERE stock_code = '{m['code']}' AND report_year = "
                        f"{m['year']} AND report_period = '{m['period'] or 'FY'}';   -- {where[2]}")
            else:
                column = {"previous": "（上期列）"}.get(e.period, "")
                line = f"-- {e.item}{column}：{e.report}" + (f" 第{e.page}页" if e.page else "（推算）")
            if line not in lines:
                lines.append(line)
        return "\n".join(lines)

    def references(self, ans: Answer) -> list[dict[str, str]]:
        out: list[dict[str, str]] = []
        for e in ans.evidence:
            if isinstance(e, NoteEvidence) and e.text:
                # a research note: its file as the reader finds it, the passage, and the figure it speaks of
                ref = {"paper_path": shown_path(e.path), "text": e.text[:500]}
                if e.figure:
                    ref["paper_image"] = e.figure
            elif isinstance(e, PassageEvidence) and e.text:
                path = self.files(e.report) if e.report else None
                ref = {"paper_path": path or (e.report or ""), "text": e.text[:500]}
            else:
                continue
            if ref not in out:
                out.append(ref)
        return out


def _file_safe(text: str) -> str:
    """An 编号 as a file name: what a file name cannot hold replaced by _."""
    return re.sub(r'[\\/:*?"<>|\s]+', "_", text).strip("._") or "row"


def layout_of(path: Path, asked: str | None = None) -> str:
    """The result layout: the one asked, else the one OUTPUT is named after (result_3.xlsx), else result_2's."""
    if asked is not None:
        return asked
    return path.stem if path.stem in LAYOUTS else "result_2"


def write_results(rows: list[dict[str, Any]], path: Path, layout: str = "result_2") -> None:
    """The results in the problem's layout (LAYOUTS: 附件7 表3 or 表6): .xlsx (one sheet) or .jsonl."""
    columns = LAYOUTS[layout]
    rows = [{c: r[_SAME.get(c, c)] for c in columns} for r in rows]
    tmp = path.with_name(path.name + ".part")
    if path.suffix.lower() == ".xlsx":
        from openpyxl import Workbook  # type: ignore[import-untyped]
        from openpyxl.styles import Alignment, Font  # type: ignore[import-untyped]

        wb = Workbook()
        ws = wb.active
        ws.title = "Sheet1"
        ws.append(list(columns))
        for c in ws[1]:
            c.font = Font(bold=True)
        for r in rows:
            ws.append([r[c] for c in columns])
        for row in ws.iter_rows(min_row=2):
            for c in row:
                c.alignment = Alignment(wrap_text=True, vertical="top")
        widths = {"编号": 10, "问题": 40, "SQL查询语句": 50, "SQL查询语法": 50, "图形格式": 10, "回答": 80}
        for col, name in zip("ABCDE", columns):
            ws.column_dimensions[col].width = widths[name]
        ws.freeze_panes = "A2"
        wb.save(tmp)
    else:
        tmp.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    tmp.replace(path)
