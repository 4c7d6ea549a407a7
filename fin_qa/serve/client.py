"""A small client of `fin-qa serve` (the benchmark scripts/bench_serve.py and the tests use it): start the
server as a process (`fin-qa serve --port 0`: a free port, read back from the line it prints) and make
requests with urllib, an HTTP error being a reply like any other."""
from __future__ import annotations

import json
import re
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any


@dataclass
class Reply:
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body.decode("utf-8"))


def request(base: str, path: str, body: Any = None, raw: bytes | None = None, method: str | None = None,
            headers: dict[str, str] | None = None, timeout: float = 60) -> Reply:
    data = raw if raw is not None else (json.dumps(body, ensure_ascii=False).encode("utf-8") if body is not None else None)
    hdrs = {"Content-Type": "application/json"} if data is not None else {}
    hdrs.update(headers or {})
    req = urllib.request.Request(base + path, data=data, method=method or ("POST" if data is not None else "GET"),
                                 headers=hdrs)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as res:
            return Reply(res.status, {k.lower(): v for k, v in res.headers.items()}, res.read())
    except urllib.error.HTTPError as err:
        return Reply(err.code, {k.lower(): v for k, v in err.headers.items()}, err.read())


class ServerProcess:
    """`fin-qa serve --port 0 …` as a child process; `base` is its address once it listens."""

    def __init__(self, *args: str, env: dict[str, str] | None = None, timeout: float = 120):
        self.proc = subprocess.Popen([sys.executable, "-m", "fin_qa.cli", "serve", "--port", "0", *args],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        self.log: list[str] = []
        self.base = ""
        deadline = time.time() + timeout
        assert self.proc.stderr is not None
        while time.time() < deadline:
            line = self.proc.stderr.readline()
            if not line:
                break
            self.log.append(line)
            m = re.search(r"serving (http://[\d.]+:\d+)/", line)
            if m:
                self.base = m.group(1)
                break
        if not self.base:
            self.stop()
            raise RuntimeError("fin-qa serve did not start:\n" + "".join(self.log))
        # keep reading its stderr, so that a full pipe never blocks it
        self._reader = threading.Thread(target=self._drain, daemon=True)
        self._reader.start()

    def _drain(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.log.append(line)

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        return self.proc.returncode
