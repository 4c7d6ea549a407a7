"""What `fin-qa serve` answers with: the catalog and the chat model loaded once, a pool of read-only
store connections with their routers, and the reads every endpoint makes.

Concurrency: a question (ask, batch) takes an answering worker — a read-only SQLite connection of its
own, its search backend and its routers — from a pool of `workers`, uses it alone and gives it back; it
waits for one when all are busy, unless `queue_size` questions already wait (then Busy: HTTP 503). The
other reads (search, reports, facts, check, health, page images) take a connection of a second pool,
made as they are needed (one per request at a time: never held up by a question waiting for the chat
model). The chat model is one, behind a bounded queue (queue.ModelQueue). PDFium calls are serialised
(pages.PDFIUM_LOCK), at most RENDERS pages are drawn at once.
"""
from __future__ import annotations

import json
import logging
import os
import threading
import time
from collections import OrderedDict, deque
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, ContextManager, Iterator
from urllib.parse import quote, urlencode

from .. import gc_tuning

from ..base import FinQAError
from ..answer.model import Answer, CellEvidence, FactEvidence, PassageEvidence
from ..answer.router import Router, make_router
from ..catalog import Catalog
from ..check import check_reports
from ..ingest.pipeline import sha256_of
from ..llm.base import ChatModel
from ..numbers import is_number
from ..search.base import SearchBackend
from ..search.retrieve import Retriever, make_backend
from ..store import DB_NAME, Store
from ..store.notes import NOTE_KEY
from .pages import DEFAULT_SCALE, Box, locate, render_png
from .queue import Busy, ModelQueue

log = logging.getLogger("fin_qa.serve")
STYLES = ("human", "finglm")
ANSWER_WAIT = 120.0       # seconds a question waits for an answering worker before it is refused (503)
RENDERS = 4               # pages drawn at once (a page at scale 3 is a 30 MB bitmap)
MAX_QUESTION = 1000       # characters of a question
MAX_BATCH = 100           # questions of one /api/batch request
RECENT = 20               # questions the page lists as recent
IMAGE_CACHE = 64          # rendered page images kept
MAX_SCALE = 3.0           # pixels per point of a page image, at most


class NotFound(FinQAError):
    """A report, page or file the request names does not exist (HTTP 404)."""


class InvalidInput(FinQAError):
    """A parameter the request gives is not usable (HTTP 422)."""


@dataclass
class _Worker:
    store: Store
    backend: SearchBackend
    routers: dict[str, Router] = field(default_factory=dict)
    state: tuple = ()           # the store's state its routers were built in


class _Waiter:
    """A request waiting for a worker, first come first served: handed one by whoever frees it, or woken
    without one (worker None) to make one in the place of a worker that could not be made."""

    def __init__(self) -> None:
        self.event = threading.Event()
        self.worker: _Worker | None = None


class _Pool:
    """Workers made on demand up to `size` (None: as many as are asked for at once), reused last-in first-out;
    a request finding none free waits in line (at most `max_waiting` of them) and is handed the next one."""

    def __init__(self, make: Callable[[], _Worker], size: int | None = None):
        self.make = make
        self.size = size
        self.made = 0
        self._free: list[_Worker] = []
        self._line: deque[_Waiter] = deque()
        self._lock = threading.Lock()

    @property
    def waiting(self) -> int:
        return len(self._line)

    def put(self, w: _Worker) -> None:
        with self._lock:
            self.made += 1
        self._give_back(w)

    def _give_back(self, w: _Worker) -> None:
        with self._lock:
            if self._line:
                waiter = self._line.popleft()
                waiter.worker = w
                waiter.event.set()
            else:
                self._free.append(w)

    def _made_none(self) -> None:
        """A worker could not be made: its place goes to the first in line, who tries in turn."""
        with self._lock:
            self.made -= 1
            if self._line:
                self.made += 1
                self._line.popleft().event.set()

    def _acquire(self, max_waiting: int | None, timeout: float | None) -> _Worker:
        with self._lock:
            if self._free and not self._line:
                return self._free.pop()
            if self.size is None or self.made < self.size:
                self.made += 1
                waiter = None
            else:
                if max_waiting is not None and len(self._line) >= max_waiting:
                    raise Busy(f"busy: {len(self._line)} questions are waiting for the {self.size} answering "
                               "workers; try again shortly")
                waiter = _Waiter()
                self._line.append(waiter)
        if waiter is not None and not waiter.event.wait(timeout):
            with self._lock:
                if waiter in self._line:   # not served in time (else it was served just now)
                    self._line.remove(waiter)
                    raise Busy(f"busy: no answering worker was free within {timeout:.0f} s; try again shortly")
        if waiter is not None and waiter.worker is not None:
            return waiter.worker
        try:
            return self.make()
        except BaseException:
            self._made_none()
            raise

    @contextmanager
    def take(self, max_waiting: int | None = None, timeout: float | None = None) -> Iterator[_Worker]:
        w = self._acquire(max_waiting, timeout)
        try:
            yield w
        finally:
            self._give_back(w)

    def close(self) -> None:
        with self._lock:
            free, self._free = self._free, []
        for w in free:
            w.store.close()


class Recent:
    """The last questions asked, newest first. `shared`: held in an anonymous shared map under a process
    lock, so that the server processes forked after it was made (`serve --processes`) list the same ones;
    a lock not had within a second (a process killed while holding it) skips the record, never the answer."""

    SIZE = 1 << 18   # bytes: RECENT records, each answer cut to ANSWER_CHARS
    ANSWER_CHARS = 2000

    def __init__(self, shared: bool = False) -> None:
        self._map: Any = None
        self._items: deque[dict[str, Any]] = deque(maxlen=RECENT)
        self._lock: Any = threading.Lock()
        if shared:
            import mmap
            import multiprocessing

            self._map = mmap.mmap(-1, self.SIZE)
            self._lock = multiprocessing.get_context("fork").Lock()

    def _read(self) -> list[dict[str, Any]]:
        if self._map is None:
            return list(self._items)
        n = int.from_bytes(self._map[:4], "little")
        return json.loads(self._map[4:4 + n].decode("utf-8")) if n else []

    def add(self, item: dict[str, Any]) -> None:
        item = {**item, "answer": str(item.get("answer", ""))[:self.ANSWER_CHARS]}
        if not self._lock.acquire(timeout=1):
            return
        try:
            if self._map is None:
                self._items.appendleft(item)
                return
            items = [item, *self._read()][:RECENT]
            data = json.dumps(items, ensure_ascii=False).encode("utf-8")
            while len(data) + 4 > self.SIZE and items:
                items.pop()
                data = json.dumps(items, ensure_ascii=False).encode("utf-8")
            self._map[:4] = len(data).to_bytes(4, "little")
            self._map[4:4 + len(data)] = data
        finally:
            self._lock.release()

    def items(self) -> list[dict[str, Any]]:
        if not self._lock.acquire(timeout=1):
            return []
        try:
            return self._read()
        finally:
            self._lock.release()


@dataclass
class PageImage:
    png: bytes
    boxes: list[Box]
    placed: str               # how the highlight was placed: row, found, partial, none, unavailable, not asked
    note: str = ""            # why it was not placed, when it was not


class Service:
    def __init__(self, store_dir: str | Path, catalog: Catalog, search: str = "sqlite", es_url: str | None = None,
                 es_index: str | None = None, model: ChatModel | None = None, workers: int = 4,
                 queue_size: int = 64, batch_size: int = 8, recent: Recent | None = None):
        self.store_dir = Path(store_dir)
        self.catalog = catalog
        self.search = search
        self._es = (es_url, es_index)
        self.queue = ModelQueue(model, queue_size, batch_size) if model is not None else None
        self.workers = workers
        self.queue_size = queue_size
        self._answering = _Pool(self._new_worker, workers)
        self._reading = _Pool(self._new_worker)
        self._lock = threading.Lock()
        self._recent = recent or Recent()
        self._images: OrderedDict[tuple, PageImage] = OrderedDict()
        self._files_checked: OrderedDict[tuple[str, int, int], str] = OrderedDict()   # (path, mtime, size) → sha256
        self._renders = threading.BoundedSemaphore(RENDERS)
        # (store state, each report's check record, or the error the run met)
        self._checks: tuple[tuple, dict[str, dict[str, Any]] | str] | None = None
        self._checking = False
        self.started = time.time()
        # one worker now: a store that cannot be opened is said before the server listens
        self._reading.put(self._new_worker())
        self._check_summary()   # the checks of every report, run in the background from now

    def _new_worker(self) -> _Worker:
        store = Store(self.store_dir, readonly=True, any_thread=True)
        return _Worker(store, make_backend(self.search, store, self.catalog, *self._es))

    def answering(self) -> ContextManager[_Worker]:
        return self._answering.take(self.queue_size, ANSWER_WAIT)

    def reading(self) -> ContextManager[_Worker]:
        return self._reading.take()

    def _router(self, w: _Worker, style: str) -> Router:
        """The worker's router of this style; built again after the store changed (a report ingested while
        the server runs is known to the next question: a router keeps the reports' names it was built with)."""
        state = self._store_state()
        if w.state != state:
            w.routers.clear()
            w.state = state
        if style not in w.routers:
            w.routers[style] = make_router(w.store, self.catalog, w.backend, style, self.queue)
            gc_tuning.for_answering()
        return w.routers[style]

    # ------------------------------------------------------------------ answering

    def ask(self, question: str, style: str = "human", context: dict[str, Any] | None = None) -> dict[str, Any]:
        """The answer's record; with a context (the previous answer's record or its `context`), the question
        is a follow-up (answer/followup.py)."""
        from ..answer.followup import Context

        question = check_question(question)
        ctx = None
        if context is not None:
            try:
                ctx = Context.from_dict(context)
            except (ValueError, TypeError) as e:
                raise InvalidInput(f"context: {e}") from None
        with self.answering() as w:
            router = self._router(w, check_style(style))
            ans = router.follow(question, ctx)   # (its record carries the context the next question sends)
            record = self.record(w.store, ans)
        self._remember(record)
        return record

    def batch(self, questions: list[tuple[Any, str]], style: str = "human") -> list[dict[str, Any]]:
        """Answers to (id, question) pairs, in order; the chat model's requests generated in batches first."""
        if len(questions) > MAX_BATCH:
            raise InvalidInput(f"{len(questions)} questions: at most {MAX_BATCH} in one batch request")
        checked = [(check_id(qid, f"questions[{i}].id"), check_question(q, f"questions[{i}]"))
                    for i, (qid, q) in enumerate(questions)]
        with self.answering() as w:
            router = self._router(w, check_style(style))
            router.prefetch([q for _, q in checked])
            out = [self.record(w.store, router.answer(q), qid) for qid, q in checked]
        for r in out:
            self._remember(r)
        return out

    def record(self, store: Store, ans: Answer, qid: Any = None) -> dict[str, Any]:
        """The answer's `ask --json` record, each piece of evidence from a PDF with its page image's address
        (`image`: the page with the value or passage boxed)."""
        record = ans.record(qid)
        has_pages: dict[str, bool] = {}   # per report cited (its evidence is often several values of it)
        for ev, d in zip(ans.evidence, record.get("evidence", [])):
            key = getattr(ev, "report", None)
            page = getattr(ev, "page", None)
            if key and key.startswith(NOTE_KEY):
                # a research note's page (its file where it was read: a note's words are not boxed)
                path = getattr(ev, "path", None)
                if page and path and Path(path).is_file():
                    d["image"] = note_image_url(key[len(NOTE_KEY):], page)
                continue
            if key and key not in has_pages:
                rid = store.report_id(key)
                has_pages[key] = rid is not None and any(f["kind"] == "pdf" for f in store.report_files(rid))
            if key and page and has_pages[key]:
                d["image"] = image_url(key, page, highlight(ev))
        return record

    def _remember(self, record: dict[str, Any]) -> None:
        self._recent.add({"question": record["question"], "answer": record["answer"], "method": record["method"],
                          "at": time.strftime("%H:%M:%S")})

    def recent(self) -> list[dict[str, Any]]:
        return self._recent.items()

    # ------------------------------------------------------------------ reading the store

    def search_sections(self, q: str, company: str | None, year: int | None, size: int = 5) -> list[dict[str, Any]]:
        q = check_question(q, "q")
        with self.reading() as w:
            keys = self._keys(w.store, company, year)
            retriever = Retriever(w.store, w.backend, self.catalog.topics, self.catalog.search)
            return retriever.search_rows(q, keys, size)

    def _keys(self, store: Store, company: str | None, year: int | None) -> list[str] | None:
        """The keys of the reports of this company and year (None: no filter); naming none is NotFound."""
        if not (company or year):
            return None
        keys = store.report_keys(company, year)
        if not keys:
            raise NotFound(f"no report in the store matches company {company or '*'}, year {year or '*'}")
        return keys

    def reports(self, company: str | None = None, year: int | None = None, limit: int = 1000) -> dict[str, Any]:
        """The reports (of this company and year; the first `limit`), each with its files' names and kinds,
        whether its pages can be shown and its checks' outcome (how many, how many failed, and the essential
        items its statements lack: `missing`) — None while the checks of every report are
        still being run after a start or a change of the store (they run in the background: a FinGLM store
        of 11,000 reports takes half a minute)."""
        summary = self._check_summary()
        with self.reading() as w:
            keys = self._keys(w.store, company, year)
            rows = [r for r in w.store.reports() if keys is None or r["key"] in keys]
            for r in rows[:limit]:
                files = w.store.report_files(r["id"])
                r["files"] = [Path(f["path"]).name for f in files]
                r["kinds"] = sorted({f["kind"] for f in files})
                r["pages"] = next((f["pages"] for f in files if f["kind"] in ("pdf", "txt")), None)
                r["page_images"] = "pdf" in r["kinds"]
                c = summary.get(r["key"]) if isinstance(summary, dict) else None
                r["check"] = {"checks": c["checks"], "failed": c["failed"],
                              "missing": sorted({x["missing"] for x in c["results"] if x.get("missing")})} if c else None
        return {"reports": rows[:limit], "count": len(rows), "checks_ready": summary is not None}

    def checks(self, company: str | None = None, year: int | None = None, show_all: bool = False,
               limit: int = 1000) -> dict[str, Any]:
        """`fin-qa check --json` records of the reports of this company and year (all when None; the first
        `limit`); every report's failures come from the background run when it is current."""
        summary = None if company or year or show_all else self._check_summary()
        if isinstance(summary, dict):
            rows = list(summary.values())
        else:
            with self.reading() as w:
                self._keys(w.store, company, year)
                rows = [rc.record(show_all) for rc in check_reports(w.store, self.catalog.checks, company, year)]
        return {"reports": rows[:limit], "count": len(rows)}

    def _check_summary(self) -> dict[str, dict[str, Any]] | str | None:
        """Each report's check record for the current state of the store, or the error their run met; None
        while they are being run (a thread is started to run them when the store changed)."""
        state = self._store_state()
        with self._lock:
            if self._checks is not None and self._checks[0] == state:
                return self._checks[1]
            if self._checking:
                return None
            self._checking = True

        def run() -> None:
            result: dict[str, dict[str, Any]] | str
            try:
                with self.reading() as w:
                    result = {rc.report["key"]: rc.record() for rc in check_reports(w.store, self.catalog.checks)}
            except Exception as exc:  # noqa: BLE001 - kept, so that the same state is not checked again
                log.exception("the checks of the stored reports failed")
                result = f"{type(exc).__name__}: {exc}"
            with self._lock:
                self._checks = (state, result)
                self._checking = False

        threading.Thread(target=run, name="fin-qa-checks", daemon=True).start()
        return None

    def _store_state(self) -> tuple:
        """What changes when the store is written (the database file and its write-ahead log)."""
        out: list[tuple[int, int] | None] = []
        for suffix in ("", "-wal"):
            try:
                st = os.stat(str(self.store_dir / DB_NAME) + suffix)
                out.append((st.st_mtime_ns, st.st_size))
            except OSError:
                out.append(None)
        return tuple(out)

    def facts(self, company: str | None, year: int | None, item: str | None, limit: int = 200) -> dict[str, Any]:
        with self.reading() as w:
            self._keys(w.store, company, year)
            rows: list[dict[str, Any]] = []
            for f in w.store.facts(company, year, item):
                if len(rows) == limit:
                    return {"facts": rows, "count": len(rows), "truncated": True}
                rows.append(f)
        return {"facts": rows, "count": len(rows), "truncated": False}

    def health(self) -> dict[str, Any]:
        with self.reading() as w:
            counts = w.store.counts()
            version = w.store.schema_version()
        return {"status": "ok", "store": str(self.store_dir), "schema_version": version,
                "reports": counts["reports"], "facts": counts["facts"], "search": self.search,
                "chat_model": self.queue.stats() if self.queue else None, "workers": self.workers,
                "questions_waiting": self._answering.waiting, "uptime_s": round(time.time() - self.started, 1)}

    # ------------------------------------------------------------------ page images

    def note_page_image(self, note_id: int, page: int, scale: float = DEFAULT_SCALE) -> PageImage:
        """A page of a research note the store holds, from its file (nothing boxed: a note's word positions are not
        stored)."""
        if not 0.25 <= scale <= MAX_SCALE:
            raise InvalidInput(f"scale {scale}: between 0.25 and {MAX_SCALE}")
        scale = round(scale * 4) / 4
        with self.reading() as w:
            note = next((n for n in w.store.notes.all() if n.id == note_id), None)
        if note is None:
            raise NotFound(f"no research note {note_id} in the store (fin-qa notes lists them)")
        path = Path(note.path)
        if not path.is_file() or path.suffix.lower() != ".pdf":
            raise NotFound(f"note {note_id}'s file {note.path} is not there: its pages cannot be shown")
        if not 1 <= page <= (note.pages or 0):
            raise NotFound(f"page {page} is out of range: note {note_id} has {note.pages} pages")
        cache_key = (f"{NOTE_KEY}{note_id}", page, (), scale, (path.stat().st_size, path.stat().st_mtime_ns),
                     self._store_state())
        with self._lock:
            if cache_key in self._images:
                self._images.move_to_end(cache_key)
                return self._images[cache_key]
        with self._renders:
            image = PageImage(render_png(path, page, [], scale), [], "unavailable",
                              "a research note's word positions are not stored: its page is shown, nothing boxed")
        with self._lock:
            self._images[cache_key] = image
            while len(self._images) > IMAGE_CACHE:
                self._images.popitem(last=False)
        return image

    def page_image(self, key: str, page: int, highlights: list[str], scale: float = DEFAULT_SCALE) -> PageImage:
        if not 0.25 <= scale <= MAX_SCALE:
            raise InvalidInput(f"scale {scale}: between 0.25 and {MAX_SCALE}")
        scale = round(scale * 4) / 4   # a few sizes only: the cache holds them
        if len(highlights) > 8 or any(len(h) > 2000 for h in highlights):
            raise InvalidInput("highlight: at most 8 strings of at most 2000 characters")
        for i, h in enumerate(highlights):
            check_text(h, f"highlight[{i}]")
        with self.reading() as w:
            rid = w.store.report_id(key)
            if rid is None:
                raise NotFound(f"no report with key {key!r} in the store (GET /api/reports lists them)")
            files = w.store.report_files(rid)
            pdf = next((f for f in files if f["kind"] == "pdf"), None)
            if pdf is None:
                how = "a FinGLM txt file" if any(f["kind"] == "txt" for f in files) else "imported tables"
                raise NotFound(f"report {key} was read from {how}: it has no page images")
            if not 1 <= page <= (pdf["pages"] or 0):
                raise NotFound(f"page {page} is out of range: report {key} has {pdf['pages']} pages")
            path, signature = self._current_file(pdf)
            # the image of this page of this file, as this state of the store boxes it
            cache_key = (key, page, tuple(highlights), scale, signature, self._store_state())
            with self._lock:
                if cache_key in self._images:
                    self._images.move_to_end(cache_key)
                    return self._images[cache_key]
            words = w.store.page_words(rid, page)
        boxes: list[Box] = []
        note = ""
        if words is None:
            placed, note = "unavailable", "no word boxes stored for this page: ingest the report again to have them"
        elif highlights:
            boxes, placed = locate(words, highlights)
        else:
            placed = "not asked"
        with self._renders:
            image = PageImage(render_png(path, page, boxes, scale), boxes, placed, note)
        with self._lock:
            self._images[cache_key] = image
            while len(self._images) > IMAGE_CACHE:
                self._images.popitem(last=False)
        return image

    def _current_file(self, f: dict[str, Any]) -> tuple[Path, tuple[str, int, int]]:
        """The report's PDF and its signature (path, mtime, size), when it is still the file ingested."""
        path = Path(f["path"])
        try:
            st = path.stat()
        except OSError:
            raise NotFound(f"the report's PDF {path.name} is no longer where it was ingested from "
                           "(moved or deleted since)") from None
        sig = (str(path), st.st_mtime_ns, st.st_size)
        with self._lock:
            known = self._files_checked.get(sig)
        if known is None:
            known = sha256_of(path)
            with self._lock:
                self._files_checked[sig] = known
                while len(self._files_checked) > 4096:
                    self._files_checked.popitem(last=False)
        if known != f["sha256"]:
            raise NotFound(f"the report's PDF {path.name} has changed since it was ingested: ingest it again")
        return path, sig

    def close(self) -> None:
        if self.queue is not None:
            self.queue.close()
        self._answering.close()
        self._reading.close()


def check_text(text: str, name: str) -> str:
    """Text that can be written back as UTF-8 (a lone surrogate, "\\ud800" in JSON, cannot)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidInput(f"{name} holds a character that is not valid Unicode (a lone surrogate)") from None
    return text


def check_id(qid: Any, name: str) -> Any:
    """An id written back as it came: JSON (no NaN or infinity) that can be written as UTF-8."""
    try:
        json.dumps(qid, ensure_ascii=False, allow_nan=False).encode("utf-8")
    except (ValueError, TypeError, UnicodeEncodeError):
        raise InvalidInput(f"{name} cannot be written back as JSON (NaN, infinity or a lone surrogate)") from None
    return qid


def check_question(question: Any, name: str = "question") -> str:
    if not isinstance(question, str):
        raise InvalidInput(f"{name} must be text, not {type(question).__name__}")
    check_text(question, name)
    if not question.strip():
        raise InvalidInput(f"{name} is empty")
    if len(question) > MAX_QUESTION:
        raise InvalidInput(f"{name} is {len(question)} characters long: at most {MAX_QUESTION}")
    return question


def check_style(style: str) -> str:
    if style not in STYLES:
        raise InvalidInput(f"style {style!r}: one of {', '.join(STYLES)}")
    return style


def highlight(ev: Any) -> list[str]:
    """What to box on the cited page for a piece of evidence: a value's row label and its stored amount, a
    quoted passage's text, a cell's row label and printed value."""
    if isinstance(ev, FactEvidence):
        label = ev.printed_label or ev.item
        if "; " in ev.source:
            return [label]   # computed from other rows at answer time (values.derived): not printed as such
        if ev.stored is not None and is_number(ev.stored):
            return [label, str(ev.stored)]
        # a text value: its label (a key disclosure's is the sentence it was read from) and the value itself
        return list(dict.fromkeys([label, ev.stored or ev.value]))
    if isinstance(ev, PassageEvidence):
        return [ev.text]
    if isinstance(ev, CellEvidence):
        return [ev.row, ev.cell or ev.value]
    return []


def note_image_url(note_id: str, page: int) -> str:
    return f"/api/notes/{quote(note_id, safe='')}/pages/{page}.png"


def image_url(key: str, page: int, highlights: list[str]) -> str:
    query = urlencode([("highlight", h) for h in highlights if h])
    return f"/api/reports/{quote(key, safe='')}/pages/{page}.png" + (f"?{query}" if query else "")
