"""The chat model behind one bounded queue, shared by every request of the server.

Requests from any thread wait in one queue; a single thread takes them out in batches (up to
batch_size, grouped by their token budget) and generates each batch with the model's chat_batch — the
path `fin-qa batch` uses on a GPU (on a CPU the model answers a batch one by one). When the requests
waiting would exceed the capacity, a new one is refused at once (ModelBusy: the server says 503) rather
than queued without end.
"""
from __future__ import annotations

import threading
from collections import deque
import time
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Sequence

from ..base import FinQAError
from ..llm.base import ChatModel, History

_Item = tuple[str, History, "int | None", "Future[str]"]


class Busy(FinQAError):
    """The server cannot take the request now (HTTP 503, to be tried again shortly)."""


class ModelBusy(Busy):
    """The chat model's queue is full, or it did not answer in time: the request is not generated."""


class ModelQueue:
    def __init__(self, model: ChatModel, capacity: int = 64, batch_size: int = 8, timeout: float = 600.0):
        self.model = model
        self.name = model.name
        self.capacity = capacity
        self.batch_size = batch_size
        self.timeout = timeout              # seconds a request waits for its reply
        self._items: deque[_Item] = deque()
        self._cond = threading.Condition()
        self._closed = False
        self.served = self.batches = self.refused = 0
        self._thread = threading.Thread(target=self._run, name="fin-qa-model", daemon=True)
        self._thread.start()

    # ------------------------------------------------------------------ the ChatModel protocol

    def chat(self, prompt: str, history: History = (), max_new_tokens: int | None = None) -> str:
        return self.chat_batch([(prompt, history)], max_new_tokens)[0]

    def chat_batch(self, requests: Sequence[tuple[str, History]], max_new_tokens: int | None = None) -> list[str]:
        """Queue the requests and wait for their replies. Many at once (a batch's prefetch) go a part at a
        time — a batch's worth, at most half the queue — the first refused when the queue has no room for
        it, the later ones waiting for room (they were let in)."""
        step = max(1, min(self.batch_size, self.capacity // 2))
        deadline = time.monotonic() + self.timeout
        out: list[str] = []
        for i in range(0, len(requests), step):
            out += self._submit(requests[i:i + step], max_new_tokens, deadline, wait=i > 0)
        return out

    def _waiting(self) -> int:
        return sum(not item[3].cancelled() for item in self._items)

    def _submit(self, requests: Sequence[tuple[str, History]], max_new_tokens: int | None, deadline: float,
                wait: bool) -> list[str]:
        """Queue the requests (all or none: ModelBusy when they do not fit, unless `wait`) and wait for their
        replies until the deadline."""
        futures: list[Future[str]] = [Future() for _ in requests]
        with self._cond:
            if self._closed:
                raise ModelBusy("the chat model is shutting down")
            room = lambda: self._closed or self._waiting() + len(requests) <= self.capacity  # noqa: E731
            if not room() and not (wait and self._cond.wait_for(room, max(0.0, deadline - time.monotonic()))):
                self.refused += 1
                raise ModelBusy(f"the chat model is busy ({self._waiting()} requests waiting, the queue holds "
                                f"{self.capacity}): try again shortly")
            if self._closed:
                raise ModelBusy("the chat model is shutting down")
            for (prompt, history), fut in zip(requests, futures):
                self._items.append((prompt, history, max_new_tokens, fut))
            self._cond.notify_all()
        try:
            return [f.result(timeout=max(0.0, deadline - time.monotonic())) for f in futures]
        except FutureTimeout:
            for f in futures:
                f.cancel()   # not generated when still waiting; dropped when taken
            raise ModelBusy(f"the chat model did not answer within {self.timeout:.0f} s; try again later") from None

    # ------------------------------------------------------------------ the model's thread

    def _take(self) -> list[_Item]:
        """The next batch: the oldest request and the ones after it with its token budget."""
        with self._cond:
            while not self._items and not self._closed:
                self._cond.wait()
            if not self._items:
                return []
            batch: list[_Item] = []
            rest: deque[_Item] = deque()
            while self._items and len(batch) < self.batch_size:
                item = self._items.popleft()
                if item[3].cancelled():
                    continue   # its asker stopped waiting
                if batch and item[2] != batch[0][2]:
                    rest.append(item)   # another token budget: a batch of its own
                    continue
                if item[3].set_running_or_notify_cancel():
                    batch.append(item)
            self._items.extendleft(reversed(rest))
            self._cond.notify_all()   # room made: a part of a batch may be waiting for it
            return batch

    def _run(self) -> None:
        while True:
            batch = self._take()
            if not batch:
                if self._closed:
                    return
                continue
            try:
                replies = self.model.chat_batch([(p, h) for p, h, _, _ in batch], batch[0][2])
            except BaseException as exc:  # noqa: BLE001 - every waiting request gets the model's error
                for *_, fut in batch:
                    fut.set_exception(exc)
                continue
            self.batches += 1
            self.served += len(batch)
            for (*_, fut), reply in zip(batch, replies):
                fut.set_result(reply)

    @property
    def waiting(self) -> int:
        with self._cond:
            return self._waiting()

    def stats(self) -> dict:
        return {"model": self.name, "capacity": self.capacity, "batch_size": self.batch_size, "waiting": self.waiting,
                "served": self.served, "batches": self.batches, "refused": self.refused}

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._cond.notify_all()
        self._thread.join(timeout=5)
