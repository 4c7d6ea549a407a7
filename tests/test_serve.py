"""fin-qa serve: the real server on a free loopback port, over a store of the sample report (PDF) and a
FinGLM txt report; the API's round trips, its page images and their highlight, bad input, concurrency,
and the chat model's bounded queue (a real tiny transformers model)."""
from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import quote

import pytest

from conftest import _cli as cli
from serving import ServerProcess, ServerThread, red_pixels, request, server_env

CASH = "2021年星河精密的货币资金是多少元?"
TEXT = "请简要介绍星河精密2021年的核心竞争力。"


@pytest.fixture(scope="module")
def server(serve_store):
    srv = ServerProcess("--store", str(serve_store), "--workers", "4", env=server_env())
    yield srv
    assert srv.stop() in (0, -15), "".join(srv.log)
    assert "Traceback" not in "".join(srv.log), "".join(srv.log)


def without_images(record: dict) -> dict:
    out = json.loads(json.dumps(record))
    for ev in out.get("evidence", []):
        ev.pop("image", None)
    return out


def test_health_and_openapi(server):
    h = request(server.base, "/api/health")
    assert h.status == 200
    body = h.json()
    assert body["status"] == "ok" and body["reports"] == 2 and body["schema_version"] >= 5
    assert body["chat_model"] is None
    schema = request(server.base, "/openapi.json").json()
    for path in ("/api/ask", "/api/batch", "/api/search", "/api/reports", "/api/facts", "/api/check",
                 "/api/health", "/api/reports/{key}/pages/{page}.png"):
        assert path in schema["paths"], path
    docs = request(server.base, "/docs")
    assert docs.status == 200 and docs.headers["content-type"].startswith("text/html")
    page = docs.body.decode("utf-8")
    assert "POST /api/ask" in page and "question" in page and "<script" not in page   # nothing from a CDN


def test_ask_is_the_ask_json_record_with_the_cited_page(server, serve_store):
    r = request(server.base, "/api/ask", {"question": CASH})
    assert r.status == 200
    record = r.json()
    cli_record = json.loads(cli("ask", CASH, "--store", str(serve_store), "--json").stdout)
    assert without_images(record) == cli_record
    assert "123,456,700.00元" in record["answer"]
    ev = record["evidence"][0]
    assert ev["report"] and ev["page"] and ev["image"].startswith(f"/api/reports/{quote(ev['report'], safe='')}/pages/{ev['page']}.png?")
    page = request(server.base, ev["image"])
    assert page.status == 200 and page.headers["content-type"] == "image/png"
    assert page.body[:8] == b"\x89PNG\r\n\x1a\n"
    # the value boxed on its label's row: the label and the amount, drawn in red
    assert page.headers["x-highlight"] == "row" and page.headers["x-boxes"] == "2"
    plain = request(server.base, ev["image"].split("?")[0])
    assert plain.status == 200 and plain.headers["x-boxes"] == "0"
    assert red_pixels(page.body) > 200 and red_pixels(plain.body) == 0


def test_the_answers_chart_drawn_as_an_image(server):
    """A series' reply carries its chart (the one `batch --style teddy` draws and the page shows); POST /api/chart
    draws it as an 800×500 image; a chart it cannot draw is a 422 saying why."""
    from io import BytesIO

    from PIL import Image

    record = request(server.base, "/api/ask", {"question": "星河精密近三年营业收入的变化趋势如何？"}).json()
    chart = record["chart"]
    assert chart["kind"] == "line" and chart["labels"] == ["2019年", "2020年", "2021年"]
    for fmt, mime in (("png", "image/png"), ("jpg", "image/jpeg")):
        r = request(server.base, "/api/chart", {"chart": chart, "format": fmt})
        assert r.status == 200 and r.headers["content-type"] == mime
        im = Image.open(BytesIO(r.body))
        assert im.size == (800, 500) and sum(im.convert("L").histogram()[:200]) > 2000
    bad = request(server.base, "/api/chart", {"chart": {"kind": "radar"}})
    assert bad.status == 422 and "radar" in bad.json()["error"]
    malformed = request(server.base, "/api/chart", {"chart": {"kind": "line", "labels": ["a", "b"], "datasets": [1, 2]}})
    assert malformed.status == 422 and "dataset" in malformed.json()["error"]
    huge = dict(chart, labels=[str(i) for i in range(2000)],
                datasets=[{"label": "x", "data": [1.0] * 2000}])   # (refused at once, not drawn for seconds)
    too_big = request(server.base, "/api/chart", {"chart": huge})
    assert too_big.status == 422 and "at most" in too_big.json()["error"]
    assert request(server.base, "/api/chart", {"chart": chart, "format": "gif"}).status == 422


def test_a_quoted_passage_is_boxed_on_its_page(server):
    record = request(server.base, "/api/ask", {"question": "星河精密2021年是否有重大诉讼、仲裁事项?"}).json()
    assert record["answer"].startswith("否")
    images = [e["image"] for e in record["evidence"] if "image" in e]
    assert images
    page = request(server.base, images[0])
    assert page.status == 200 and page.headers["x-highlight"] in ("found", "row") and int(page.headers["x-boxes"]) >= 1


def test_style_and_batch(server):
    human = request(server.base, "/api/ask", {"question": CASH}).json()["answer"]
    finglm = request(server.base, "/api/ask", {"question": CASH, "style": "finglm"}).json()["answer"]
    assert "123,456,700.00元" in human and "123456700.0元" in finglm
    qs = ["2021年星河精密的营业收入是多少元?", {"id": "b", "question": CASH}, "2021年天马科技的营业收入是多少元?"]
    r = request(server.base, "/api/batch", {"questions": qs})
    assert r.status == 200
    answers = r.json()["answers"]
    assert [a["id"] for a in answers] == [None, "b", None]
    assert "300,000,000.00元" in answers[0]["answer"] and "123,456,700.00元" in answers[1]["answer"]
    assert answers[2]["method"] == "not_found"
    too_many = request(server.base, "/api/batch", {"questions": [CASH] * 101})
    assert too_many.status == 422 and "at most 100" in too_many.json()["error"]
    recent = request(server.base, "/api/recent").json()["recent"]
    assert recent[0]["question"] == "2021年天马科技的营业收入是多少元?"


def test_search_reports_facts_check(server):
    found = request(server.base, "/api/search?q=" + quote("核心竞争力") + "&company=" + quote("星河精密")).json()
    assert found["results"] and "核心竞争力" in found["results"][0]["heading"]
    assert request(server.base, "/api/search?q=" + quote("核心竞争力") + "&company=nobody").status == 404
    listed = request(server.base, "/api/reports").json()
    deadline = time.time() + 60
    while not listed["checks_ready"] and time.time() < deadline:   # the checks run in the background
        time.sleep(0.2)
        listed = request(server.base, "/api/reports").json()
    assert listed["checks_ready"] and listed["count"] == 2
    reports = {r["key"]: r for r in listed["reports"]}
    assert set(reports) == {"688999:2021", "000099:2019"}
    sample, txt = reports["688999:2021"], reports["000099:2019"]
    assert sample["page_images"] and sample["kinds"] == ["pdf"] and sample["check"]["checks"] > 0
    assert sample["check"]["missing"] == []   # complete: every essential item read
    for key, r in reports.items():   # the essential items a report lacks are listed as `fin-qa check` finds them
        company, year = key.split(":")
        failed = request(server.base, f"/api/check?company={company}&year={year}").json()["reports"][0]["results"]
        assert r["check"]["missing"] == sorted({x["missing"] for x in failed if "missing" in x})
    assert not txt["page_images"] and txt["kinds"] == ["txt"]
    facts = request(server.base, "/api/facts?company=" + quote("星河精密") + "&item=" + quote("货币资金")).json()
    assert facts["count"] >= 1 and all(f["item"] == "货币资金" for f in facts["facts"])
    assert request(server.base, "/api/facts?limit=3").json() == {**request(server.base, "/api/facts?limit=3").json(),
                                                                  "truncated": True, "count": 3}
    checks = request(server.base, "/api/check?company=688999").json()["reports"]
    assert len(checks) == 1 and checks[0]["key"] == "688999:2021" and checks[0]["failed"] == 0
    assert request(server.base, "/api/check?year=1999").status == 404
    only = request(server.base, "/api/reports?company=" + quote("示例股份")).json()
    assert [r["key"] for r in only["reports"]] == ["000099:2019"] and only["count"] == 1
    assert request(server.base, "/api/reports?limit=1").json()["count"] == 2


def test_a_txt_report_has_no_page_image(server):
    r = request(server.base, "/api/reports/" + quote("000099:2019", safe="") + "/pages/10.png")
    assert r.status == 404 and "txt" in r.json()["error"] and "no page images" in r.json()["error"]


@pytest.mark.parametrize("path, body, raw, status, words", [
    ("/api/ask", None, b'{"question": ', 400, "malformed JSON"),
    ("/api/ask", None, b"", 400, "no JSON body"),
    ("/api/ask", {"question": ""}, None, 422, "empty"),
    ("/api/ask", {"question": "   "}, None, 422, "empty"),
    ("/api/ask", {"question": "营" * 10000}, None, 422, "10000 characters"),
    ("/api/ask", {"question": 5}, None, 422, "question"),
    ("/api/ask", {"q": CASH}, None, 422, "question"),
    ("/api/ask", {"question": CASH, "style": "fancy"}, None, 422, "style"),
    ("/api/ask", None, b"[1, 2]", 422, "must be a JSON object"),
    ("/api/ask", None, b'{"question": "\\ud800abc"}', 422, "not valid Unicode"),
    ("/api/batch", {"questions": "not a list"}, None, 422, "questions"),
    ("/api/batch", {"questions": [CASH, ""]}, None, 422, "questions[1] is empty"),
    ("/api/batch", {"questions": [CASH, 5]}, None, 422, "questions[1] must be text"),
    ("/api/batch", {"questions": [{"id": 1}]}, None, 422, "questions[0] has no question"),
    ("/api/batch", None, b'{"questions": [{"id": NaN, "question": "x"}]}', 422, "questions[0].id"),
    ("/api/batch", None, b'{"questions": [{"id": {"a": "\\ud800"}, "question": "x"}]}', 422, "questions[0].id"),
    ("/api/reports/nope/pages/1.png", None, None, 404, "no report with key"),
    ("/api/reports/688999%3A2021/pages/0.png", None, None, 404, "out of range"),
    ("/api/reports/688999%3A2021/pages/9999.png", None, None, 404, "out of range"),
    ("/api/reports/688999%3A2021/pages/x.png", None, None, 422, "not a page number"),
    ("/api/reports/688999%3A2021/pages/%C2%B2.png", None, None, 422, "not a page number"),
    ("/api/reports/688999%3A2021/pages/" + "9" * 5000 + ".png", None, None, 422, "not a page number"),
    ("/api/reports/688999%3A2021/pages/1.png?scale=100", None, None, 422, "scale"),
    ("/api/search?q=", None, None, 422, "empty"),
    ("/api/search?q=x&year=abc", None, None, 422, "year"),
    ("/api/facts?limit=0", None, None, 422, "limit"),
    ("/api/facts?company=nobody", None, None, 404, "no report in the store matches"),
    ("/api/nothing", None, None, 404, "no such"),
])
def test_bad_input_is_a_4xx_with_one_line(server, path, body, raw, status, words):
    r = request(server.base, path, body=body, raw=raw)
    assert r.status == status, r.body
    assert r.headers["content-type"].startswith("application/json")
    error = r.json()["error"]
    assert words in error and "\n" not in error and "Traceback" not in error
    assert request(server.base, "/api/health").status == 200   # and it goes on serving


def test_a_huge_body_and_a_wrong_method(server):
    # a body declared over the limit is refused from its Content-Length, before it is read: the headers go
    # first and the answer is read before any of the 2 MB (a client still sending it when the server
    # answers and closes sees the connection reset, as in two full runs of this test when it sent them)
    import http.client

    host, port = server.base.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=60)
    conn.putrequest("POST", "/api/ask")
    conn.putheader("Content-Type", "application/json")
    conn.putheader("Content-Length", str(len(b'{"question": "') + (2 << 20) + 2))
    conn.endheaders()
    res = conn.getresponse()
    assert res.status == 413 and "at most" in json.loads(res.read())["error"]
    conn.close()
    assert request(server.base, "/api/ask", method="GET").status == 405


def test_a_huge_chunked_body_is_refused_too(server):
    import http.client

    host, port = server.base.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=60)
    chunks = (b'{"question": "' if i == 0 else b"x" * 65536 for i in range(50))   # 3 MB, no Content-Length
    conn.request("POST", "/api/ask", body=chunks, headers={"Content-Type": "application/json"}, encode_chunked=True)
    res = conn.getresponse()
    assert res.status == 413 and "over" in json.loads(res.read())["error"]
    conn.close()
    assert request(server.base, "/api/health").status == 200


def test_parallel_requests_answer_as_serial_ones(server):
    questions = ["2021年星河精密的营业收入是多少元?", CASH, "星河精密2021年的速动比率是多少?", TEXT,
                 "星河精密2021年研发人员数量是多少?", "2021年星河精密的财务费用是多少元?"]
    serial = {q: request(server.base, "/api/ask", {"question": q}).json()["answer"] for q in questions}
    with ThreadPoolExecutor(16) as pool:
        replies = list(pool.map(lambda q: request(server.base, "/api/ask", {"question": q}), questions * 8))
    assert all(r.status == 200 for r in replies)
    assert [r.json()["answer"] for r in replies] == [serial[q] for q in questions * 8]


def test_the_page(server):
    r = request(server.base, "/")
    assert r.status == 200 and r.headers["content-type"].startswith("text/html")
    html = r.body.decode("utf-8")
    for element in ('id="question"', 'id="answer"', 'id="evidence"', 'id="page-image"', 'id="recent"', 'id="reports"'):
        assert element in html


def test_serve_says_a_bad_store_and_a_busy_port(tmp_path, server):
    r = cli("serve", "--store", str(tmp_path / "none"), "--port", "0")
    assert r.returncode == 2 and "no fin-qa store" in r.stderr and "Traceback" not in r.stderr
    port = server.base.rsplit(":", 1)[1]
    r = subprocess.run([sys.executable, "-m", "fin_qa.cli", "serve", "--store", str(server_store(server)), "--port", port],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and "could not listen" in r.stderr and "Traceback" not in r.stderr


def server_store(server) -> str:
    return server.proc.args[server.proc.args.index("--store") + 1]


# ------------------------------------------------------------------------------ the chat model's queue


class Gated:
    """A real chat model whose batches wait until the test opens the gate (to hold the queue full)."""

    def __init__(self, model):
        self.model = model
        self.name = model.name
        self.gate = threading.Event()
        self.entered = threading.Event()   # a batch is held at the gate
        self.batches: list[int] = []

    def chat(self, prompt, history=(), max_new_tokens=None):
        return self.chat_batch([(prompt, history)], max_new_tokens)[0]

    def chat_batch(self, requests, max_new_tokens=None):
        self.entered.set()
        assert self.gate.wait(60)
        self.batches.append(len(requests))
        return self.model.chat_batch(requests, max_new_tokens)


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory):
    from tinymodel import build_tiny_model

    from fin_qa.llm.load import load_chat_model
    from conftest import CATALOG

    d = tmp_path_factory.mktemp("tiny")
    build_tiny_model(d / "folder")
    return load_chat_model(str(d / "folder"), CATALOG.llm)


def test_queue_batches_waiting_requests_and_refuses_when_full(tiny_model):
    from fin_qa.serve.queue import ModelBusy, ModelQueue

    gated = Gated(tiny_model)
    q = ModelQueue(gated, capacity=4, batch_size=8)
    try:
        with ThreadPoolExecutor(6) as pool:
            first = pool.submit(q.chat, "问：一\n答：", (), 4)      # taken by the model's thread, held at the gate
            assert gated.entered.wait(30)
            held = [pool.submit(q.chat, f"问：{i}\n答：", (), 4) for i in range(4)]   # wait in the queue
            while q.waiting < 4:
                threading.Event().wait(0.01)
            with pytest.raises(ModelBusy, match="busy"):
                q.chat("问：多\n答：", (), 4)
            gated.gate.set()
            replies = [f.result(timeout=60) for f in [first, *held]]
            # more requests at once than fit go a part at a time (a batch's worth, at most half the queue)
            many = q.chat_batch([(f"问：{i}\n答：", ()) for i in range(7)], 4)
        assert all(isinstance(r, str) for r in replies) and len(many) == 7
        # the four that waited together were generated as one batch
        assert gated.batches == [1, 4, 2, 2, 2, 1]
        assert q.stats()["refused"] == 1 and q.stats()["served"] == 12
    finally:
        gated.gate.set()
        q.close()


def test_a_batchs_later_parts_wait_for_room(tiny_model):
    """A batch's first part is let in; its later parts wait for room rather than fail it (and a question
    asked meanwhile is refused only when there is no room for it)."""
    from fin_qa.serve.queue import ModelQueue

    gated = Gated(tiny_model)
    q = ModelQueue(gated, capacity=4, batch_size=2)
    try:
        with ThreadPoolExecutor(2) as pool:
            big = pool.submit(q.chat_batch, [(f"问：{i}\n答：", ()) for i in range(9)], 4)
            assert gated.entered.wait(30)
            gated.gate.set()
            assert len(big.result(timeout=120)) == 9
        assert sum(gated.batches) == 9 and q.stats()["refused"] == 0
    finally:
        gated.gate.set()
        q.close()


def test_a_model_that_does_not_answer_in_time_is_a_busy_error(tiny_model):
    from fin_qa.serve.queue import ModelBusy, ModelQueue

    gated = Gated(tiny_model)
    q = ModelQueue(gated, capacity=4, batch_size=1, timeout=0.5)
    try:
        with ThreadPoolExecutor(2) as pool:
            first = pool.submit(q.chat, "问：一\n答：", (), 4)
            assert gated.entered.wait(30)
            with pytest.raises(ModelBusy, match="did not answer within"):
                q.chat("问：二\n答：", (), 4)      # waited in the queue: given up, never generated
            gated.gate.set()
            with pytest.raises(ModelBusy):
                first.result(timeout=30)          # at the model when its time ran out
        assert q.chat("问：三\n答：", (), 4) is not None
        assert gated.batches == [1, 1]            # the first and the third: the second was dropped
    finally:
        gated.gate.set()
        q.close()


def test_busy_workers_are_a_503_and_the_other_reads_go_on(serve_store, tiny_model, catalog):
    """Two answering workers held by questions at the chat model, one question waiting for a worker (the
    --queue of 1): the next question is refused at once with 503; health, reports and page images are
    answered meanwhile; once the model answers, the held and the waiting questions are answered."""
    from fin_qa.serve.app import create_app
    from fin_qa.serve.service import Service

    gated = Gated(tiny_model)
    service = Service(serve_store, catalog, model=gated, workers=2, queue_size=1, batch_size=4)
    srv = ServerThread(create_app(service))
    try:
        with ThreadPoolExecutor(8) as pool:
            held = [pool.submit(request, srv.base, "/api/ask", {"question": TEXT})]
            assert gated.entered.wait(30)                       # the first at the model
            held.append(pool.submit(request, srv.base, "/api/ask", {"question": TEXT}))
            _until(lambda: service.queue.waiting == 1)          # the second's request waits for the model
            held.append(pool.submit(request, srv.base, "/api/ask", {"question": CASH}))
            _until(lambda: service._answering.waiting == 1)     # the third waits for a worker
            busy = request(srv.base, "/api/ask", {"question": CASH}, timeout=10)
            assert busy.status == 503 and "busy" in busy.json()["error"] and busy.headers["retry-after"] == "5"
            assert request(srv.base, "/api/health", timeout=10).json()["questions_waiting"] == 1
            assert request(srv.base, "/api/reports", timeout=10).status == 200
            gated.gate.set()
            replies = [f.result(timeout=120) for f in held]
        assert [r.status for r in replies] == [200, 200, 200]
        assert "123,456,700.00元" in replies[2].json()["answer"]
    finally:
        gated.gate.set()
        srv.stop()
        service.close()


def _until(condition, timeout: float = 30) -> None:
    deadline = time.time() + timeout
    while not condition():
        assert time.time() < deadline, "timed out"
        time.sleep(0.01)


def test_an_imported_report_has_no_page_image_and_its_answers_no_image(tmp_path, catalog):
    from fin_qa.serve.service import NotFound, Service

    csv = tmp_path / "t.csv"
    csv.write_text("股票代码,股票简称,年份,营业收入\n603339,四方科技,2019,1175301034.32\n", encoding="utf-8")
    r = cli("import-tables", str(csv), "--store", str(tmp_path / "s"))
    assert r.returncode == 0, r.stderr
    service = Service(tmp_path / "s", catalog)
    try:
        record = service.ask("2019年四方科技的营业收入是多少元?")
        assert "1,175,301,034.32元" in record["answer"]
        ev = record["evidence"][0]
        assert ev["report"] == "603339:2019" and "image" not in ev
        with pytest.raises(NotFound, match="imported tables: it has no page images"):
            service.page_image("603339:2019", 1, [])
    finally:
        service.close()


def test_a_report_ingested_while_serving_is_answered(tmp_path, sample_pdf, catalog):
    from fin_qa.sample import build_sample_pdf
    from fin_qa.serve.app import create_app
    from fin_qa.serve.service import Service

    store = tmp_path / "store"
    assert cli("ingest", str(sample_pdf), "--store", str(store), "-q").returncode == 0
    service = Service(store, catalog)
    srv = ServerThread(create_app(service))
    try:
        question = "星河二号2021年的法定代表人是谁?"
        assert request(srv.base, "/api/ask", {"question": question}).json()["method"] == "not_found"
        # another company's report (the sample without its statements: other bytes, named FinGLM's way)
        other = build_sample_pdf(tmp_path / "2022-03-01__星河精密制造股份有限公司__688998__星河二号__2021年__年度报告.pdf",
                                 with_statements=False)
        r = cli("ingest", str(other), "--store", str(store), "-q")
        assert r.returncode == 0 and "1 ingested" in r.stdout + r.stderr, r.stdout + r.stderr
        record = request(srv.base, "/api/ask", {"question": question}).json()
        assert "林海峰" in record["answer"] and record["evidence"][0]["report"] == "688998:2021"
        assert request(srv.base, "/api/reports").json()["count"] == 2
    finally:
        srv.stop()
        service.close()


def test_the_pool_serves_in_turn_and_survives_a_worker_that_cannot_be_made():
    from fin_qa.serve.queue import Busy
    from fin_qa.serve.service import _Pool

    made = []

    def make():
        made.append(1)
        if len(made) == 1:
            time.sleep(0.3)
            raise OSError("cannot open")
        return object()

    pool = _Pool(make, 1)   # type: ignore[arg-type]
    with ThreadPoolExecutor(2) as ex:
        first = ex.submit(lambda: pool.take(4, 5).__enter__())
        time.sleep(0.1)
        second = ex.submit(lambda: pool.take(4, 5).__enter__())   # waits in line while the first makes one
        with pytest.raises(OSError):
            first.result(timeout=10)
        assert second.result(timeout=10) is not None                # made in its place, not left waiting
    # a full line is refused at once
    with pool.take():
        pool_waiters = [threading.Thread(target=lambda: pool.take(1, 2).__enter__()) for _ in range(1)]
        pool_waiters[0].start()
        _until(lambda: pool.waiting == 1)
        with pytest.raises(Busy, match="waiting"):
            pool.take(1, 2).__enter__()
    pool_waiters[0].join(timeout=10)
