"""The HTTP API and the page of `fin-qa serve` (FastAPI on uvicorn).

Endpoints (the OpenAPI schema is at /openapi.json; /docs lists the endpoints, with no script from a CDN):
  POST /api/ask      {question, style?, context?}  the `ask --json` record, evidence with page image addresses;
                                                   context: the previous answer, for a follow-up question
  POST /api/batch    {questions: [...], style?}   records in order (a question: text, or {id, question})
  POST /api/chart    {chart, format?}             a reply's `chart` drawn as an 800×500 png or jpg (one at a time)
  GET  /api/search   ?q=&company=&year=&n=        sections, as `fin-qa search --json`
  GET  /api/reports  ?company=&year=&limit=         the reports, their files and their checks' outcome
  GET  /api/facts    ?company=&year=&item=&limit=  facts, as `fin-qa facts --json`
  GET  /api/check    ?company=&year=&all=&limit=   `fin-qa check --json` records
  GET  /api/health                                store, counts, chat-model queue
  GET  /api/recent                                the last questions asked
  GET  /api/reports/{key}/pages/{n}.png?highlight=…&scale=   the page, what is cited boxed
  GET  /                                          the page: ask, read the answer and the cited page
Every error the application answers is a JSON object {"error": "one line"} with a 4xx status (5xx: the
server's own trouble; it goes on serving). A request HTTP itself cannot parse (a bad Content-Length) is
refused by uvicorn before it reaches the application, in plain text.
"""
from __future__ import annotations

import logging
import re
from importlib import resources
from typing import Any, Optional

import anyio
import anyio.to_thread
from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException

from ..base import FinQAError, __version__
from ..chart_image import render
from .queue import Busy
from .service import InvalidInput, NotFound, Service

log = logging.getLogger("fin_qa.serve")
MAX_BODY = 1 << 20   # bytes of a request body


class AskRequest(BaseModel):
    question: str = Field(description="The question, e.g. 2020年生物股份的货币资金是多少元？")
    style: str = Field("human", description="Number printing: human (1,516,034,246.28元) or finglm (1516034246.28元)")
    context: Optional[dict[str, Any]] = Field(
        None, description="A follow-up: the previous answer (its record, or its `context`). What the question "
                          "leaves out (company, year, item) is taken from it and said in the answer.")


class ChartRequest(BaseModel):
    chart: dict[str, Any] = Field(description="An answer's `chart` (kind line | bar | pie | table, title, labels, "
                                              "datasets, unit; a table's columns and rows)")
    format: str = Field("png", description="png or jpg")


class BatchRequest(BaseModel):
    questions: list[Any] = Field(description="Questions: text, or {\"id\": …, \"question\": text}; at most 100")
    style: str = "human"


def _batch_items(questions: list[Any]) -> list[tuple[Any, Any]]:
    items = []
    for i, q in enumerate(questions):
        if isinstance(q, dict):
            if "question" not in q:
                raise InvalidInput(f"questions[{i}] has no question")
            items.append((q.get("id"), q["question"]))
        elif isinstance(q, str):
            items.append((None, q))
        else:
            raise InvalidInput(f"questions[{i}] must be text or {{\"id\": …, \"question\": text}}, not {type(q).__name__}")
    return items


class BodyLimit:
    """Refuses (413) a request body over `limit` bytes, however it is sent (Content-Length or chunked):
    the body is read up to the limit before the application sees it."""

    def __init__(self, app: Any, limit: int):
        self.app = app
        self.limit = limit

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS"):
            return await self.app(scope, receive, send)
        chunks: list[bytes] = []
        size = 0
        declared = dict(scope.get("headers") or []).get(b"content-length", b"")
        if declared.isdigit() and int(declared) > self.limit:
            return await _error(413, f"the request body is {int(declared)} bytes: at most {self.limit}")(scope, receive, send)
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunks.append(message.get("body", b""))
            size += len(chunks[-1])
            if size > self.limit:
                return await _error(413, f"the request body is over {self.limit} bytes")(scope, receive, send)
            if not message.get("more_body"):
                break
        body = b"".join(chunks)
        sent = False

        async def replay() -> dict:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


def _error(status: int, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": " ".join(message.split())}, status_code=status, headers=headers)


def _validation_message(exc: RequestValidationError) -> tuple[int, str]:
    errors = exc.errors()
    bad_json = next((e for e in errors if e.get("type") == "json_invalid"), None)
    if bad_json is not None:
        return 400, f"malformed JSON: {bad_json.get('ctx', {}).get('error', bad_json.get('msg'))}"
    first = errors[0] if errors else {"loc": (), "msg": "invalid request"}
    loc = ".".join(str(p) for p in first.get("loc", ()) if p not in ("body", "query", "path"))
    if first.get("type") == "missing" and not loc:
        return 400, "the request has no JSON body"
    if not loc and first.get("type") in ("model_attributes_type", "dict_type", "model_type"):
        return 422, "the request body must be a JSON object, e.g. {\"question\": \"…\"}"
    more = f" (and {len(errors) - 1} more problems)" if len(errors) > 1 else ""
    return 422, f"{loc + ': ' if loc else ''}{first.get('msg')}{more}"


def create_app(service: Service) -> FastAPI:
    # the stack's own /docs and /redoc load their scripts from a CDN, which a box off the internet cannot
    # reach: /docs is a page of the schema's endpoints made here instead
    app = FastAPI(title="fin-qa", version=__version__, docs_url=None, redoc_url=None,
                  description="Exact, cited answers from annual reports (年度报告); each number with its page.")

    app.add_middleware(BodyLimit, limit=MAX_BODY)

    @app.exception_handler(RequestValidationError)
    async def on_validation(_: Request, exc: RequestValidationError):
        return _error(*_validation_message(exc))

    @app.exception_handler(HTTPException)
    async def on_http(request: Request, exc: HTTPException):
        if exc.status_code == 404 and exc.detail == "Not Found":
            return _error(404, f"no such endpoint: {request.url.path} (the API is listed at /docs)")
        if exc.status_code == 405:
            return _error(405, f"{request.method} is not allowed on {request.url.path} (the API is listed at /docs)",
                          dict(exc.headers or {}))
        return _error(exc.status_code, str(exc.detail), dict(exc.headers or {}) or None)

    @app.exception_handler(FinQAError)
    async def on_finqa(request: Request, exc: FinQAError):
        if isinstance(exc, InvalidInput):
            return _error(422, str(exc))
        if isinstance(exc, NotFound):
            return _error(404, str(exc))
        if isinstance(exc, Busy):
            return _error(503, str(exc), {"Retry-After": "5"})
        # a search node that cannot be reached, a model that fails: the server's trouble, said in one line
        log.warning("%s %s: %s", request.method, request.url.path, exc)
        return _error(503, str(exc))

    @app.exception_handler(Exception)
    async def on_crash(request: Request, exc: Exception):
        log.exception("%s %s failed", request.method, request.url.path)
        return _error(500, f"internal error ({type(exc).__name__}, in the server's log); the server goes on serving")

    # questions run in threads of their own, as many as may answer or wait (--workers + --queue): the other
    # endpoints keep Starlette's thread pool, never filled by questions waiting for a worker or the model
    questions = anyio.CapacityLimiter(service.workers + service.queue_size)

    async def answering(fn: Any, *args: Any) -> Any:
        if questions.borrowed_tokens >= questions.total_tokens:
            raise Busy(f"busy: {service.queue_size} questions are waiting for the {service.workers} answering "
                       "workers; try again shortly")
        return await anyio.to_thread.run_sync(fn, *args, limiter=questions)

    @app.post("/api/ask", summary="Answer one question")
    async def ask(req: AskRequest) -> dict[str, Any]:
        return await answering(service.ask, req.question, req.style, req.context)

    @app.post("/api/batch", summary="Answer a list of questions, in order")
    async def batch(req: BatchRequest) -> dict[str, Any]:
        return {"answers": await answering(service.batch, _batch_items(req.questions), req.style)}

    @app.get("/api/search", summary="Search the reports' text (sections)")
    def search(q: str = "", company: str | None = None, year: int | None = None,
               n: int = Query(5, ge=1, le=50)) -> dict[str, Any]:
        return {"results": service.search_sections(q, company, year, n)}

    @app.get("/api/reports", summary="The reports in the store, with their checks' outcome")
    def reports(company: str | None = None, year: int | None = None,
                limit: int = Query(1000, ge=1, le=100000)) -> dict[str, Any]:
        return service.reports(company, year, limit)

    @app.get("/api/facts", summary="Stored facts")
    def facts(company: str | None = None, year: int | None = None, item: str | None = None,
              limit: int = Query(200, ge=1, le=5000)) -> dict[str, Any]:
        return service.facts(company, year, item, limit)

    @app.get("/api/check", summary="The accounting checks of the stored reports")
    def check(company: str | None = None, year: int | None = None, all: bool = False,
              limit: int = Query(1000, ge=1, le=100000)) -> dict[str, Any]:
        return service.checks(company, year, all, limit)

    @app.get("/api/health", summary="Whether the server answers, and with what")
    def health() -> dict[str, Any]:
        return service.health()

    @app.get("/api/recent", summary="The last questions asked")
    def recent() -> dict[str, Any]:
        return {"recent": service.recent()}

    @app.get("/api/reports/{key}/pages/{page}.png", summary="A page of a report, what is cited boxed",
             response_class=Response, responses={200: {"content": {"image/png": {}}}})
    async def page_image(key: str, page: str, highlight: list[str] = Query(default=[]),
                         scale: float = Query(1.5)) -> Response:
        if not re.fullmatch(r"[0-9]{1,6}", page):
            raise InvalidInput(f"page {page[:20]!r} is not a page number")
        image = await run_in_threadpool(service.page_image, key, int(page), highlight, scale)
        headers = {"X-Highlight": image.placed, "X-Boxes": str(len(image.boxes)), "Cache-Control": "private, max-age=300"}
        if image.note:
            headers["X-Highlight-Note"] = image.note
        return Response(image.png, media_type="image/png", headers=headers)

    @app.get("/api/notes/{note_id}/pages/{page}.png", summary="A page of a research note",
             response_class=Response, responses={200: {"content": {"image/png": {}}}})
    async def note_page_image(note_id: str, page: str, scale: float = Query(1.5)) -> Response:
        if not re.fullmatch(r"[0-9]{1,6}", page) or not re.fullmatch(r"[0-9]{1,9}", note_id):
            raise InvalidInput(f"note {note_id[:20]!r} page {page[:20]!r}: numbers are expected")
        image = await run_in_threadpool(service.note_page_image, int(note_id), int(page), scale)
        return Response(image.png, media_type="image/png",
                        headers={"X-Highlight": image.placed, "X-Highlight-Note": image.note,
                                 "Cache-Control": "private, max-age=300"})

    drawing = anyio.CapacityLimiter(1)   # (charts drawn in turn, on a thread of their own: never the answers')

    @app.post("/api/chart", summary="An answer's chart drawn as an image (800×500, the package's CJK font)",
              response_class=Response, responses={200: {"content": {"image/png": {}, "image/jpeg": {}}}})
    async def chart_image(req: ChartRequest) -> Response:
        if req.format not in ("png", "jpg"):
            raise InvalidInput(f"a chart is drawn as png or jpg, not {req.format[:20]!r}")
        if drawing.borrowed_tokens >= drawing.total_tokens:   # (one chart drawn at a time; the others refused)
            raise Busy("busy: a chart is being drawn; try again shortly")
        try:
            data = await anyio.to_thread.run_sync(render, req.chart, req.format, limiter=drawing)
        except FinQAError as e:   # (a chart it cannot draw: what was sent is wrong)
            raise InvalidInput(str(e)) from None
        return Response(data, media_type="image/png" if req.format == "png" else "image/jpeg")

    @app.get("/docs", response_class=HTMLResponse, include_in_schema=False)
    def docs() -> HTMLResponse:
        return HTMLResponse(_docs_page(app.openapi()))

    @app.get("/static/vendor/{name}", include_in_schema=False)
    def vendored(name: str) -> Response:
        """The page's vendored scripts (Chart.js), shipped in the package: served from it, never a CDN."""
        files = resources.files("fin_qa.serve").joinpath("static/vendor")
        if not re.fullmatch(r"[A-Za-z0-9._-]+\.js", name) or not files.joinpath(name).is_file():
            raise NotFound(f"no script {name[:40]!r}")
        return Response(files.joinpath(name).read_bytes(), media_type="text/javascript",
                        headers={"Cache-Control": "public, max-age=86400"})

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    def index() -> HTMLResponse:
        return HTMLResponse(resources.files("fin_qa.serve").joinpath("static/index.html").read_text("utf-8"))

    return app


def _docs_page(schema: dict[str, Any]) -> str:
    """The endpoints of the OpenAPI schema as one plain page: method, path, summary, parameters, body."""
    from html import escape

    def schema_name(s: dict[str, Any]) -> str:
        ref = s.get("$ref") or (s.get("items") or {}).get("$ref")
        return ref.rsplit("/", 1)[-1] if ref else str(s.get("type", ""))

    parts = [f"<h1>{escape(schema['info']['title'])} {escape(schema['info']['version'])} — API</h1>",
             f"<p>{escape(schema['info'].get('description', ''))} The schema: <a href='/openapi.json'>/openapi.json</a>."
             " Errors are <code>{\"error\": \"…\"}</code> with a 4xx status (503: busy, try again).</p>"]
    for path, ops in schema["paths"].items():
        for method, op in ops.items():
            parts.append(f"<h3><code>{method.upper()} {escape(path)}</code> — {escape(op.get('summary', ''))}</h3><ul>")
            for prm in op.get("parameters", []):
                req = " (required)" if prm.get("required") else ""
                parts.append(f"<li><code>{escape(prm['name'])}</code> in {prm['in']}: "
                             f"{escape(schema_name(prm.get('schema', {})))}{req}</li>")
            body = op.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema")
            if body:
                name = schema_name(body)
                fields = schema.get("components", {}).get("schemas", {}).get(name, {}).get("properties", {})
                for field, spec in fields.items():
                    parts.append(f"<li>body <code>{escape(field)}</code>: {escape(spec.get('description', schema_name(spec)))}</li>")
            parts.append("</ul>")
    return ("<!doctype html><html><head><meta charset='utf-8'><title>fin-qa API</title><style>body{font-family:"
            "system-ui,sans-serif;max-width:60em;margin:2em auto;color:#1d2733}code{background:#eef2f7;padding:0 3px}"
            "</style></head><body>" + "".join(parts) + "</body></html>")

