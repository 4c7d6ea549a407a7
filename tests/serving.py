"""Helpers of the fin-qa serve tests: the real server as a process and requests (fin_qa.serve.client),
uvicorn in a thread over a Service the test builds, and the highlight's colour counted in a PNG."""
from __future__ import annotations

import io
import threading
import time
from typing import Any

from fin_qa.serve.client import Reply, ServerProcess, request  # noqa: F401 - the tests' helpers


def server_env() -> dict[str, str]:
    """The environment a test's server runs in: the user's, less the settings that pick a chat model or a
    search node (the tests name what they use)."""
    import os

    return {k: v for k, v in os.environ.items() if k not in ("FIN_QA_LLM", "FIN_QA_SEARCH", "FIN_QA_ES_URL")}


class ServerThread:
    """uvicorn serving an app in a thread of the test process, on a free loopback port."""

    def __init__(self, app: Any):
        import uvicorn

        self.server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.time() + 30
        while not self.server.started and time.time() < deadline:
            time.sleep(0.02)
        assert self.server.started, "uvicorn did not start"
        port = self.server.servers[0].sockets[0].getsockname()[1]
        self.base = f"http://127.0.0.1:{port}"

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=20)


def red_pixels(png: bytes) -> int:
    """Pixels of the highlight's frame colour in a PNG."""
    from PIL import Image, ImageChops

    r, g, b = Image.open(io.BytesIO(png)).convert("RGB").split()
    mask = ImageChops.multiply(ImageChops.multiply(r.point(lambda v: 255 if v > 200 else 0),
                                                   g.point(lambda v: 255 if v < 40 else 0)),
                               b.point(lambda v: 255 if v < 40 else 0))
    return mask.histogram()[255]
