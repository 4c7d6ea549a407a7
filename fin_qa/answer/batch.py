"""fin-qa batch: a FinGLM question file in, one answer line per question out, in the same order.

Each answer is written and flushed as soon as it is made; a run that stops (Ctrl-C, a crash, a full
disk) is resumed by running the same command again. Resuming trusts an answer line only for the same
question: a line is matched by its id *and* its question (an input line that was not a question, by its
line number), an output file holding other questions under the same ids is refused, and so is a rerun with
other options than the run that wrote it (kept beside the output in OUTPUT.run.json). The output file is
locked while a run writes it (a second run on it stops with a message), and it is never the question file.
A broken input line — not UTF-8, not JSON, no id, no question text — gets an answer line saying what is
wrong, with its line number (field "line"), and the run goes on.
"""
from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Callable, Generator

from ..base import FinQAError
from ..jsonl import parse_lines, problem
from .compose import render

if TYPE_CHECKING:
    from .model import Answer
    from .router import Router

try:
    import fcntl
except ImportError:   # pragma: no cover - not POSIX: no lock, the rest holds
    fcntl = None  # type: ignore[assignment]


@dataclass
class BatchResult:
    answered: int = 0         # questions answered in this run
    skipped: int = 0          # already answered in a previous run
    bad: int = 0              # input lines that were not questions
    not_found: int = 0
    seconds: float = 0.0
    processes: int = 1        # the processes that answered


_KINDS = {bool: "布尔值", int: "数字", float: "数字", list: "列表", dict: "对象", type(None): "null"}


def line_problem(n: int, rec: dict, unit: str = "行") -> str | None:
    """What makes a JSON object no question (第N行：…, 第N项：… for an array's item), or None."""
    def say(what: str) -> str:
        return problem(n, what, unit)
    if rec.get("id") is None:
        return say("缺少id")
    if isinstance(rec["id"], (dict, list)):
        return say(f"id应为数字或文本，不是{_KINDS[type(rec['id'])]}")
    if "question" not in rec:
        return say("缺少question")
    q = rec["question"]
    if not isinstance(q, str):
        return say(f"question应为文本，不是{_KINDS.get(type(q), type(q).__name__)}")
    if not q.strip():
        return say("question为空")
    return None


def _checked(items: list[tuple[int, dict | None, str | None]], unit: str = "行") -> list[tuple[int, dict | None, str | None]]:
    """Each object's own problem added: an item without a problem is a question (an id, a question text)."""
    return [(n, rec, prob if prob is not None or rec is None else line_problem(n, rec, unit)) for n, rec, prob in items]


def read_questions(path: Path) -> list[tuple[int, dict | None, str | None]]:
    """(line number, record or None, problem or None) for every non-empty line (a JSON array: its items);
    a line without a problem is a question."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise FinQAError(f"{path}: cannot read questions ({exc.strerror or exc})") from None
    head = data.lstrip(b"\xef\xbb\xbf \t\r\n")
    if head.startswith(b"["):  # a JSON array of questions — or JSON lines whose first line is broken
        try:
            arr = json.loads(data.decode("utf-8-sig"))
        except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
            lines = parse_lines(data)
            if any(rec is not None for _, rec, _ in lines):
                return _checked(lines)   # other lines are JSON objects: JSON lines, the first one bad
            if isinstance(exc, UnicodeDecodeError):
                line = data[:exc.start].count(b"\n") + 1
                raise FinQAError(f"{path}:{line}: a JSON array of questions that is not UTF-8 text") from None
            where = f" at line {exc.lineno}" if isinstance(exc, json.JSONDecodeError) else ""
            raise FinQAError(f"{path}: not valid JSON{where} (a JSON array of questions, or one JSON object "
                             f"a line)") from None
        if not isinstance(arr, list):
            raise FinQAError(f"{path}: not a list of questions")
        # an item of the array is named by its position (第3项), not a line
        return _checked([(i + 1, r if isinstance(r, dict) else None,
                          None if isinstance(r, dict) else problem(i + 1, "不是JSON对象", "项")) for i, r in enumerate(arr)], "项")
    return _checked(parse_lines(data))


def _key(rec: dict) -> tuple[str, str, str]:
    return ("id", json.dumps(rec["id"], ensure_ascii=False), rec["question"])


def _line_key(n: int) -> tuple[str, str, str]:
    return ("line", str(n), "")


def _output_key(rec: dict, n: int, path: Path) -> tuple[str, str, str]:
    legacy = rec.get("_key")   # written by fin-qa before resume matched questions: "line:N" / "id:X"
    if isinstance(rec.get("line"), int) and not isinstance(rec.get("line"), bool):
        return _line_key(rec["line"])   # a bad input line (kept by --plain too)
    if isinstance(legacy, str) and legacy.startswith("line:") and legacy[5:].isdigit():
        return _line_key(int(legacy[5:]))
    if rec.get("id") is None or not isinstance(rec.get("question"), str):
        raise FinQAError(f"{path}:{n}: the output file has a line that is no fin-qa answer (no id or question); "
                         f"move it away or write to another file")
    return _key(rec)


def check_output(questions: Path, output: Path) -> None:
    """Before anything is answered: the output is not the question file, nor a folder."""
    try:
        same = output.exists() and questions.exists() and os.path.samefile(questions, output)
    except OSError:
        same = False
    if same or output.resolve() == questions.resolve():
        raise FinQAError(f"{output}: the output file is the question file — write the answers to another file")
    if output.is_dir():
        raise FinQAError(f"{output}: is a folder — give a file name for the answers")


def _run_file(output: Path) -> Path:
    return output.with_name(output.name + ".run.json")


def _check_options(output: Path, options: dict[str, Any], resumed: bool) -> None:
    """The options of the run that wrote the output must be this run's (else its answers are another run's)."""
    path = _run_file(output)
    if resumed and path.is_file():
        try:
            before = json.loads(path.read_text(encoding="utf-8")).get("options", {})
        except (OSError, ValueError, AttributeError):
            before = None
        if isinstance(before, dict):
            diff = [f"{k}: {before.get(k)!r} then, {options.get(k)!r} now" for k in sorted(set(before) | set(options))
                    if before.get(k) != options.get(k)]
            if diff:
                raise FinQAError(f"{output} was written with other options ({'; '.join(diff)}): rerun with the "
                                 f"same options to resume, or write to another file")
    try:
        path.write_text(json.dumps({"options": options}, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    except OSError as exc:
        raise FinQAError(f"{path}: cannot write the run's options ({exc.strerror or exc})") from None


def _lock(fh: IO[bytes], output: Path) -> None:
    if fcntl is None:
        return
    try:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        raise FinQAError(f"{output}: another fin-qa batch is writing this file — wait for it to end, "
                         f"or write to another file") from None


def _read_done(fh: IO[bytes], output: Path) -> tuple[dict[tuple[str, str, str], int], int | None]:
    """The answer lines already written, by key, and where to cut the file (a torn last line the run
    stopped writing; None: nothing to cut) — cut only once the run is allowed to go on."""
    fh.seek(0)
    raw = fh.read()
    done: dict[tuple[str, str, str], int] = {}
    lines = raw.split(b"\n")
    pos = 0
    for i, line in enumerate(lines):
        if line.strip():
            try:
                rec = json.loads(line)
                if not isinstance(rec, dict):
                    raise ValueError
            except (ValueError, UnicodeDecodeError, RecursionError):
                if i >= len(lines) - 2:   # the line being written when the run stopped
                    return done, pos
                raise FinQAError(f"{output}:{i + 1}: the output file has a line that is not JSON; "
                                 f"move it away or fix it to resume") from None
            key = _output_key(rec, i + 1, output)
            done[key] = done.get(key, 0) + 1
        pos += len(line) + 1
    return done, None


def _conflicts(items: list[tuple[int, dict | None, str | None]], done: dict[tuple[str, str, str], int],
               output: Path) -> None:
    """Answers in the output that are not this question file's: an id whose question changed, an id the
    file does not have (another question file's output)."""
    asked: dict[str, set[str]] = {}
    for n, rec, prob in items:
        if prob is None and rec is not None:
            kind, rid, q = _key(rec)
            asked.setdefault(rid, set()).add(q)
    for kind, rid, q in done:
        if kind != "id":
            continue
        if rid not in asked:
            raise FinQAError(f"{output} holds an answer to id {rid}, which this question file does not have: it "
                             f"was written for another question file — write to another file, or remove it to "
                             f"start again")
        if q not in asked[rid]:
            other = next(iter(asked[rid]))
            raise FinQAError(f"{output} holds another question under id {rid} (“{q[:40]}” there, “{other[:40]}” "
                             f"here): the question changed, or the output is another question file's — write "
                             f"to another file, or remove it to start again")


@dataclass
class Prepared:
    """The output of a batch run, opened, locked and checked before anything is loaded or answered."""
    questions: Path
    output: Path
    items: list[tuple[int, dict | None, str | None]]
    fh: IO[bytes]
    done: dict[tuple[str, str, str], int]
    created: bool

    def close(self, failed: bool = False) -> None:
        self.fh.close()
        if failed and self.created:
            try:   # a run that failed before its first answer leaves no empty file behind
                if self.output.stat().st_size == 0:
                    self.output.unlink()
                    _run_file(self.output).unlink(missing_ok=True)
            except OSError:
                pass


def prepare(questions: Path, output: Path, options: dict[str, Any] | None = None,
            extra_fields: bool = True) -> Prepared:
    """Read the questions; open, lock and check the output (not the question file, writable, not another
    batch's, the same questions and options as the run that wrote it); cut a torn last line."""
    items = read_questions(questions)
    created = not output.exists()
    check_output(questions, output)
    try:
        output.parent.mkdir(parents=True, exist_ok=True)
        fh = open(output, "a+b")
    except OSError as exc:
        raise FinQAError(f"{output}: cannot write answers there ({exc.strerror or exc})") from None
    try:
        _lock(fh, output)
    except BaseException:
        # another batch holds the file (and may have made it a moment ago, still empty): it is left alone
        fh.close()
        raise
    try:
        done, cut = _read_done(fh, output)
        _conflicts(items, done, output)
        _check_options(output, dict(options or {}, plain=not extra_fields), bool(done))
        if cut is not None:
            fh.truncate(cut)
        else:
            fh.seek(0, os.SEEK_END)
            if fh.tell() and (fh.seek(-1, os.SEEK_END), fh.read(1))[1] != b"\n":
                fh.write(b"\n")   # a last line complete but for its newline: the next answer on a line of its own
    except BaseException:
        Prepared(questions, output, items, fh, {}, created).close(failed=True)
        raise
    return Prepared(questions, output, items, fh, done, created)


def run_batch(router: "Router", questions: Path, output: Path, on_progress: Callable[[dict], None] | None = None,
              extra_fields: bool = True, batch_size: int = 1, options: dict[str, Any] | None = None,
              prepared: Prepared | None = None, pool: "AnsweringPool | None" = None) -> BatchResult:
    """Answer the question file into the output: here, or by the forked processes of `pool` (started with
    start_pool before this process opened its store), the lines written in the file's order either way."""
    t0 = time.perf_counter()
    own = prepared is None
    p = prepared or prepare(questions, output, options, extra_fields)
    try:
        res = _answer_all(router, p, on_progress, extra_fields, batch_size, pool)
    except BaseException:
        if own:
            p.close(failed=True)
        raise
    if own:
        p.close()
    res.seconds = time.perf_counter() - t0
    return res


# parallel answering (fin-qa batch --workers): chunks of this many questions are handed to the processes in
# the file's order and their answers come back in that order; a process is started for each PER_WORKER
# questions to answer at least (starting one and reading its reports' tables costs more than a few answers)
CHUNK = 16
PER_WORKER = 100

_child: dict[str, Any] = {}   # in a forked answering process: its router, or the error that stopped it


def _child_start(make_router: Callable[[], "Router"], inherited: list[int]) -> None:
    import signal

    from ..procs import die_with_parent

    signal.signal(signal.SIGINT, signal.SIG_IGN)   # Ctrl-C is the parent's: it stops the processes
    die_with_parent(signal.SIGKILL)                # and no process outlives it (holding the output's lock)
    for fd in inherited:
        try:
            os.close(fd)   # the output file (its lock is the parent's alone)
        except OSError:
            pass
    try:
        _child["router"] = make_router()   # its own store connection: the parent had none open at the fork
    except BaseException as exc:  # noqa: BLE001 - said by the first chunk, never a pool restarting it forever
        _child["error"] = _sent(exc) if isinstance(exc, FinQAError) else FinQAError(
            f"an answering process could not start ({type(exc).__name__}: {exc})")


def _sent(exc: FinQAError) -> FinQAError:
    """The error as it crosses to the parent: its message in a plain FinQAError (a subclass may take other
    arguments than its message, and would not be rebuilt there)."""
    return FinQAError(str(exc))


def _child_answer(chunk: list[tuple[Any, str]]) -> list:
    """The chunk's (line, found) pairs; an error that stops the run (FinQAError) comes last, after the
    answers made before it."""
    if "error" in _child:
        raise _child["error"]
    router = _child["router"]
    out: list = []
    for qid, question in chunk:
        try:
            out.append(_answer_one(router, qid, question))
        except FinQAError as exc:
            out.append(_sent(exc))
            break
    return out


def bad_line_record(router: "Router", n: int, rec: dict | None, prob: str | None) -> dict[str, Any]:
    """The answer line of an input line that is no question: what is wrong with it, its id and question
    where they are plain values."""
    rid = rec.get("id") if rec is not None and isinstance(rec.get("id"), (str, int, float)) else None
    q = rec.get("question") if rec is not None and isinstance(rec.get("question"), str) else None
    return {"id": rid, "question": q, "answer": render(router.t, "bad_line", reason=prob), "type": None,
            "method": "bad_input", "line": n}


def answer_record(router: "Router", qid: Any, question: str) -> tuple[dict, "Answer | None"]:
    """A question's answer line, and its Answer (None when answering it broke: the line says what broke)."""
    try:
        ans = router.answer(question)
    except FinQAError:
        raise
    except Exception as exc:  # one question must not stop the run; the line says what broke
        return ({"id": qid, "question": question, "answer": f"回答该问题时出错（{type(exc).__name__}），无法回答。",
                 "type": None, "method": "error"}, None)
    return ans.record(qid), ans


def _answer_one(router: "Router", qid: Any, question: str) -> tuple[dict, bool]:
    """A question's answer line and whether it found its answer (an error's line counts as found: it says
    what broke, not that the report lacks the value)."""
    out, ans = answer_record(router, qid, question)
    return out, ans.answered if ans is not None else True


def pending(p: Prepared) -> int:
    """The questions of the file still to answer (not answered by a run before, not a bad line)."""
    return len(_todo(_plan(p)))


def workers_for(questions: int, workers: int) -> int:
    """The processes started for this many questions: `workers` at most, one per PER_WORKER at least."""
    return max(1, min(workers, questions // PER_WORKER)) if hasattr(os, "fork") else 1


class AnsweringPool:
    """Forked processes answering questions (fin-qa batch --workers), each with the router `make_router`
    builds in it. Start it (start_pool) before this process opens its store or any thread: a SQLite
    connection open across a fork is never safe, and the processes are forked at once."""

    def __init__(self, workers: int, make_router: Callable[[], "Router"], inherited: list[int]):
        import multiprocessing
        import signal
        from concurrent.futures import ProcessPoolExecutor

        self.workers = workers
        self._pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork"),
                                         initializer=_child_start, initargs=(make_router, inherited))
        self._pool.submit(int).result()   # (a fork context starts every process at the first task: now)
        self._term = None
        try:
            # SIGTERM (timeout, a service manager) ends the run as Ctrl-C does: the processes stopped, the
            # lines written kept
            self._term = signal.signal(signal.SIGTERM, _terminated)
        except ValueError:   # not the main thread: the caller's own handling stays
            pass

    def answers(self, todo: list[tuple[Any, str]]) -> Generator[tuple[dict, bool], None, None]:
        """The answers of `todo`, in order. A process that dies (killed, out of memory) stops the run with a
        message; what was written stays."""
        from concurrent.futures.process import BrokenProcessPool

        try:
            for chunk in self._pool.map(_child_answer, [todo[i:i + CHUNK] for i in range(0, len(todo), CHUNK)]):
                for item in chunk:
                    if isinstance(item, BaseException):
                        raise item
                    yield item
        except BrokenProcessPool:
            raise FinQAError("an answering process ended before its questions were answered (killed, or out of "
                             "memory: try fewer --workers); the answers written so far are kept — run the same "
                             "command again to resume") from None

    def close(self) -> None:
        import signal

        self._pool.shutdown(wait=True, cancel_futures=True)
        if self._term is not None:
            signal.signal(signal.SIGTERM, self._term)
            self._term = None


def _terminated(signum: int, frame: Any) -> None:
    raise SystemExit(128 + signum)


def start_pool(p: Prepared, workers: int, make_router: Callable[[], "Router"]) -> AnsweringPool | None:
    """The processes answering the file's questions still to answer, or None when one process will do
    (fewer than 2 × PER_WORKER questions, one worker asked, or no fork on this system)."""
    n = workers_for(pending(p), workers)
    return AnsweringPool(n, make_router, [p.fh.fileno()]) if n > 1 else None


def _plan(p: Prepared) -> list[tuple[int, dict | None, str | None, bool]]:
    """Each input line: (number, record, problem, answered by a run before)."""
    # which lines were answered before (the same question twice in the file: each line answered once)
    done = dict(p.done)
    plan: list[tuple[int, dict | None, str | None, bool]] = []
    for n, rec, prob in p.items:
        key = _line_key(n) if prob is not None or rec is None else _key(rec)
        skip = done.get(key, 0) > 0
        if skip:
            done[key] -= 1
        plan.append((n, rec, prob, skip))
    return plan


def _todo(plan: list[tuple[int, dict | None, str | None, bool]]) -> list[tuple[Any, str]]:
    """(id, question) of the plan's lines still to answer, in order."""
    return [(rec["id"], rec["question"]) for _, rec, prob, skip in plan if not skip and prob is None and rec is not None]


def _answer_all(router: "Router", p: Prepared, on_progress: Callable[[dict], None] | None, extra_fields: bool,
                batch_size: int, pool: AnsweringPool | None = None) -> BatchResult:
    res = BatchResult()
    plan = _plan(p)
    todo = _todo(plan)
    answers = pool.answers(todo) if pool is not None else None
    res.processes = pool.workers if pool is not None else 1
    try:
        _write_all(router, p, plan, [q for _, q in todo], answers, res, on_progress, extra_fields, batch_size)
    finally:
        if answers is not None:
            answers.close()
    return res


def _write_all(router: "Router", p: Prepared, plan: list, todo_questions: list[str],
               answers: Generator[tuple[dict, bool], None, None] | None, res: BatchResult,
               on_progress: Callable[[dict], None] | None, extra_fields: bool, batch_size: int) -> None:
    """Each line of the plan written in order: skipped, a bad line's answer, or a question's (from
    `answers`, the processes', when given; else answered here)."""
    fh, output = p.fh, p.output
    asked = 0  # valid questions answered so far in this run
    for n, rec, prob, skip in plan:
        if skip:
            res.skipped += 1
            if on_progress:
                on_progress({"skipped": True})
            continue
        if prob is not None or rec is None:
            out: dict[str, Any] = bad_line_record(router, n, rec, prob)
            res.bad += 1
        else:
            if answers is not None:
                out, found = next(answers)
            else:
                if batch_size > 1 and asked % batch_size == 0:
                    # the chat-model requests of the next window, generated together (no-op without a model)
                    router.prefetch(todo_questions[asked:asked + batch_size])
                out, found = _answer_one(router, rec["id"], rec["question"])
            asked += 1
            res.not_found += not found
            res.answered += 1
        if not extra_fields:
            out = {k: v for k, v in out.items() if k in ("id", "question", "answer", "line")}
        try:
            fh.write((json.dumps(out, ensure_ascii=False) + "\n").encode("utf-8"))
            fh.flush()
        except OSError as exc:
            raise FinQAError(f"{output}: writing answers failed ({exc.strerror or exc}); the answers written "
                             f"so far are kept — run the same command again to resume") from None
        if on_progress:
            on_progress(out)
