"""fin-qa batch: a FinGLM question file in, one answer line per question out, in the same order.

Each answer is written and flushed as soon as it is made; a run that stops (Ctrl-C, a crash, a full
disk) is resumed by running the same command again: questions whose id already has an answer line in
the output are not asked again. A broken input line gets an answer line saying what is wrong, and the
run goes on.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from .. import FinQAError
from ..jsonl import parse_lines
from .compose import render

if TYPE_CHECKING:
    from .router import Router


@dataclass
class BatchResult:
    answered: int = 0
    skipped: int = 0          # already answered in a previous run
    bad: int = 0              # input lines that were not questions
    not_found: int = 0
    seconds: float = 0.0


def _line_key(rec: dict | None, n: int) -> str:
    if rec is not None and rec.get("id") is not None:
        return f"id:{rec['id']}"
    return f"line:{n}"


def read_questions(path: Path) -> list[tuple[int, dict | None, str | None]]:
    """(line number, record or None, problem or None) for every non-empty line."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise FinQAError(f"{path}: cannot read questions ({exc.strerror or exc})") from None
    except UnicodeDecodeError:
        raise FinQAError(f"{path}: not a UTF-8 text file") from None
    stripped = text.lstrip()
    if stripped.startswith("["):  # a JSON array of questions
        try:
            arr = json.loads(stripped)
        except json.JSONDecodeError as exc:
            raise FinQAError(f"{path}: not valid JSON ({exc.msg} at line {exc.lineno})") from None
        return [(i + 1, r if isinstance(r, dict) else None, None if isinstance(r, dict) else "不是JSON对象")
                for i, r in enumerate(arr)]
    return parse_lines(text)


def done_keys(path: Path) -> set[str]:
    """Keys of the answer lines already written (a torn last line is dropped and redone)."""
    if not path.exists():
        return set()
    keys = set()
    raw = path.read_bytes()
    lines = raw.split(b"\n")
    for i, line in enumerate(lines):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except (json.JSONDecodeError, UnicodeDecodeError):
            if i >= len(lines) - 2:  # the line being written when the run stopped
                with open(path, "wb") as fh:
                    fh.write(b"\n".join(lines[:i]) + (b"\n" if i else b""))
                break
            raise FinQAError(f"{path}:{i + 1}: the output file has a line that is not JSON; "
                             f"move it away or fix it to resume") from None
        keys.add(rec.get("_key") or _line_key(rec, i + 1))
    return keys


def run_batch(router: "Router", questions: Path, output: Path, on_progress: Callable[[dict], None] | None = None,
              extra_fields: bool = True, batch_size: int = 1) -> BatchResult:
    import time

    t0 = time.perf_counter()
    items = read_questions(questions)
    done = done_keys(output)
    res = BatchResult()
    output.parent.mkdir(parents=True, exist_ok=True)
    todo_questions = [rec["question"] for n, rec, problem in items
                      if problem is None and rec is not None and rec.get("id") is not None
                      and isinstance(rec.get("question"), str) and _line_key(rec, n) not in done]
    asked = 0  # valid questions answered so far in this run
    with open(output, "a", encoding="utf-8") as fh:
        for n, rec, problem in items:
            key = _line_key(rec, n)
            if key in done:
                res.skipped += 1
                if on_progress:
                    on_progress({"skipped": True})
                continue
            if problem is not None or rec is None:
                out = {"id": None, "question": None, "answer": render(router.t, "bad_line", reason=problem),
                       "type": None, "method": "bad_input", "_key": key}
                res.bad += 1
            elif rec.get("id") is None:
                out = {"id": None, "question": rec.get("question"),
                       "answer": render(router.t, "bad_line", reason=f"第{n}行缺少id"),
                       "type": None, "method": "bad_input", "_key": key}
                res.bad += 1
            elif not isinstance(rec.get("question"), str):
                out = {"id": rec["id"], "question": rec.get("question"),
                       "answer": render(router.t, "bad_line", reason="缺少question文本"), "type": None,
                       "method": "bad_input"}
                res.bad += 1
            else:
                if batch_size > 1 and asked % batch_size == 0:
                    # the chat-model requests of the next window, generated together (no-op without a model)
                    router.prefetch(todo_questions[asked:asked + batch_size])
                asked += 1
                try:
                    ans = router.answer(rec["question"])
                except FinQAError:
                    raise
                except Exception as exc:  # one question must not stop the run; the line says what broke
                    out = {"id": rec["id"], "question": rec["question"],
                           "answer": f"回答该问题时出错（{type(exc).__name__}），无法回答。", "type": None,
                           "method": "error"}
                else:
                    out = ans.record(rec["id"])
                    res.not_found += not ans.found
            if not extra_fields:
                out = {k: v for k, v in out.items() if k in ("id", "question", "answer", "_key")}
            fh.write(json.dumps(out, ensure_ascii=False) + "\n")
            fh.flush()
            res.answered += 1
            if on_progress:
                on_progress(out)
    res.seconds = time.perf_counter() - t0
    return res
