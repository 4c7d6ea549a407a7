"""The HTTP API and the page of `fin-qa serve` (FastAPI on uvicorn).

Endpoints (the OpenAPI schema is at /openapi.json, its pages at /docs):
  POST /api/ask      {question, style?}           the `ask --json` record, evidence with page image addresses
  POST /api/batch    {questions: [...], style?}   records in order (a question: text, or {id, question})
  GET  /api/search   ?q=&company=&year=&n=        sections, as `fin-qa search --json`
  GET  /api/reports                               the reports, their files' kinds and their checks' outcome
  GET  /api/facts    ?company=&year=&item=&limit=  facts, as `fin-qa facts --json`
  GET  /api/check    ?company=&year=&all=          `fin-qa check --json` records
  GET  /api/health                                store, counts, chat-model queue
  GET  /api/recent                                the last questions asked
  GET  /api/reports/{key}/pages/{n}.png?highlight=…&scale=   the page, what is cited boxed
  GET  /                                          the page: ask, read the answer and the cited page
Every error is a JSON object {"error": "one line"} with a 4xx status (5xx: the server's own trouble, it
goes on serving).
"""
from __future__ import annotations

import logging
from importlib import resources
from typing import Any, Union

from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException

from .. import FinQAError, __version__
from .queue import ModelBusy
from .service import BadRequest, NotFound, Service

log = logging.getLogger("fin_qa.serve")
MAX_BODY = 1 << 20   # bytes of a request body


class AskRequest(BaseModel):
    question: str = Field(description="The question, e.g. 2020年生物股份的货币资金是多少元？")
    style: str = Field("human", description="Number printing: human (1,516,034,246.28元) or finglm (1516034246.28元)")


class BatchItem(BaseModel):
    id: Any = None
    question: str


class BatchRequest(BaseModel):
    questions: list[Union[str, BatchItem]] = Field(description="Questions: text, or {id, question}")
    style: str = "human"


def _error(status: int, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": " ".join(message.split())}, status_code=status, headers=headers)


def _validation_message(exc: RequestValidationError) -> tuple[int, str]:
    errors = exc.errors()
    if any(e.get("type") == "json_invalid" for e in errors):
        e = next(e for e in errors if e.get("type") == "json_invalid")
        return 400, f"malformed JSON: {e.get('ctx', {}).get('error', e.get('msg'))}"
    first = errors[0] if errors else {"loc": (), "msg": "invalid request"}
    loc = ".".join(str(p) for p in first.get("loc", ()) if p not in ("body", "query", "path"))
    if first.get("type") == "missing" and not loc:
        return 400, "the request has no JSON body"
    more = f" (and {len(errors) - 1} more problems)" if len(errors) > 1 else ""
    return 422, f"{loc + ': ' if loc else ''}{first.get('msg')}{more}"


def create_app(service: Service) -> FastAPI:
    app = FastAPI(title="fin-qa", version=__version__,
                  description="Exact, cited answers from annual reports (年度报告); each number with its page.")

    @app.middleware("http")
    async def body_limit(request: Request, call_next):
        size = request.headers.get("content-length")
        if size is not None and size.isdigit() and int(size) > MAX_BODY:
            return _error(413, f"the request body is {int(size)} bytes: at most {MAX_BODY}")
        return await call_next(request)

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
        if isinstance(exc, BadRequest):
            return _error(422, str(exc))
        if isinstance(exc, NotFound):
            return _error(404, str(exc))
        if isinstance(exc, ModelBusy):
            return _error(503, str(exc), {"Retry-After": "5"})
        # a search node that cannot be reached, a model that fails: the server's trouble, said in one line
        log.warning("%s %s: %s", request.method, request.url.path, exc)
        return _error(503, str(exc))

    @app.exception_handler(Exception)
    async def on_crash(request: Request, exc: Exception):
        log.exception("%s %s failed", request.method, request.url.path)
        first = str(exc).splitlines()[0] if str(exc) else ""
        return _error(500, f"internal error ({type(exc).__name__}{': ' + first if first else ''}); "
                           "the server goes on serving")

    @app.post("/api/ask", summary="Answer one question")
    def ask(req: AskRequest) -> dict[str, Any]:
        return service.ask(req.question, req.style)

    @app.post("/api/batch", summary="Answer a list of questions, in order")
    def batch(req: BatchRequest) -> dict[str, Any]:
        items = [(None, q) if isinstance(q, str) else (q.id, q.question) for q in req.questions]
        return {"answers": service.batch(items, req.style)}

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
    def check(company: str | None = None, year: int | None = None, all: bool = False) -> dict[str, Any]:
        return {"reports": service.checks(company, year, all)}

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
        if not page.isdigit():
            raise NotFound(f"page {page!r} is not a page number")
        image = await run_in_threadpool(service.page_image, key, int(page), highlight, scale)
        return Response(image.png, media_type="image/png",
                        headers={"X-Highlight": image.placed, "X-Boxes": str(len(image.boxes)),
                                 "Cache-Control": "private, max-age=300"})

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    def index() -> HTMLResponse:
        return HTMLResponse(resources.files("fin_qa.serve").joinpath("static/index.html").read_text("utf-8"))

    return app
