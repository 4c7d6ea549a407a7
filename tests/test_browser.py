"""fin-qa serve's page in a real headless browser (Debian's chromium through chromium-driver and
selenium): type a question, see the answer, its evidence and the cited page with the value boxed; the
screenshot is checked for the box drawn on the page image. Skips when chromium or chromium-driver is not
installed (scripts/test.sh installs them), unless FIN_QA_REQUIRE_BROWSER=1 (CI), where that fails."""
from __future__ import annotations

import io
import os
import shutil
from pathlib import Path

import pytest

from serving import ServerProcess, red_pixels, server_env

CASH = "2021年星河精密的货币资金是多少元?"

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")


def _missing(reason: str):
    if os.environ.get("FIN_QA_REQUIRE_BROWSER") == "1":
        pytest.fail(f"{reason} (FIN_QA_REQUIRE_BROWSER=1)")
    pytest.skip(f"{reason}: apt-get install chromium chromium-driver (scripts/test.sh does)")


@pytest.fixture(scope="module")
def browser():
    if not CHROMIUM or not DRIVER:
        _missing("no chromium or chromedriver on PATH")
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        _missing("selenium is not installed")
    os.environ.setdefault("SE_OFFLINE", "true")   # never let Selenium Manager fetch a driver
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1400,1100", "--force-device-scale-factor=1", "--lang=zh-CN"):
        opts.add_argument(arg)
    driver = webdriver.Chrome(service=Service(executable_path=DRIVER), options=opts)
    driver.set_page_load_timeout(60)
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def server(serve_store):
    srv = ServerProcess("--store", str(serve_store), env=server_env())
    yield srv
    srv.stop()
    assert "Traceback" not in "".join(srv.log), "".join(srv.log)


def _ask(browser, question: str):
    from selenium.webdriver.common.by import By

    box = browser.find_element(By.ID, "question")
    box.clear()
    box.send_keys(question)
    browser.find_element(By.ID, "ask").click()


def _click(element) -> bool:
    from selenium.common.exceptions import StaleElementReferenceException

    try:
        element.click()
        return True
    except StaleElementReferenceException:
        return False


def _wait(browser, condition, timeout=60):
    """The condition's first true value; an element redrawn while it was read (stale) is read again."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(browser, timeout, ignored_exceptions=(StaleElementReferenceException,)).until(condition)


def _report_rows(browser) -> dict[str, str] | bool:
    """The reports table's rows (key → row text), read in one go inside the page (the table is redrawn while
    its checks run: rows read one by one could be stale); False until both reports show their checks."""
    rows = browser.execute_script(
        "return [...document.querySelectorAll('#reports tbody tr')].map(tr => [tr.cells[0].textContent, tr.textContent])")
    got = {key: text for key, text in rows}
    return got if len(got) == 2 and "✓" in "".join(got.values()) else False


def test_ask_on_the_page_and_see_the_cited_page_boxed(browser, server, tmp_path):
    from PIL import Image
    from selenium.webdriver.common.by import By

    browser.get(server.base + "/")
    # the reports in the store, with their checks
    rows = _wait(browser, _report_rows)
    assert "✓" in rows["688999:2021"] and "pdf" in rows["688999:2021"] and "txt" in rows["000099:2019"]

    _ask(browser, CASH)
    answer = _wait(browser, lambda b: b.find_element(By.ID, "answer") if "123,456,700.00元" in b.find_element(By.ID, "answer").text else False)
    assert "星河精密" in answer.text
    meta = browser.find_element(By.ID, "answer-meta").text
    assert "lookup" in meta
    frame = browser.find_element(By.ID, "frame").text
    assert "星河精密" in frame and "货币资金" in frame and "2021" in frame
    evidence = browser.find_elements(By.CSS_SELECTOR, "#evidence li")
    assert evidence and "货币资金" in evidence[0].text and "p.4" in evidence[0].text
    assert "current" in evidence[0].get_attribute("class")

    img = _wait(browser, lambda b: b.find_element(By.ID, "page-image") if b.find_element(By.ID, "page-image").get_attribute("data-loaded") == "1" else False)
    assert img.is_displayed()
    assert browser.execute_script("return arguments[0].naturalWidth", img) > 500
    assert img.get_attribute("data-highlight") == "row" and img.get_attribute("data-boxes") == "2"
    assert "boxed" in browser.find_element(By.ID, "page-note").text
    assert "p.4" in browser.find_element(By.ID, "page-caption").text

    # the screenshot: the box drawn on the page image, inside the image's place on the screen
    png = browser.get_screenshot_as_png()
    (tmp_path / "page.png").write_bytes(png)
    if os.environ.get("FIN_QA_SCREENSHOTS"):
        Path(os.environ["FIN_QA_SCREENSHOTS"]).mkdir(parents=True, exist_ok=True)
        (Path(os.environ["FIN_QA_SCREENSHOTS"]) / "serve-page.png").write_bytes(png)
    shot = Image.open(io.BytesIO(png)).convert("RGB")
    r = img.rect
    inside = shot.crop((int(r["x"]), int(r["y"]), int(r["x"] + r["width"]), min(shot.height, int(r["y"] + r["height"]))))
    out = io.BytesIO()
    inside.save(out, format="PNG")
    assert red_pixels(out.getvalue()) > 50, "no highlight box seen on the page image"

    # the question is listed as recent; clicking it asks it again
    _wait(browser, lambda b: CASH in b.find_element(By.ID, "recent").text)
    _ask(browser, "2021年天马科技的营业收入是多少元?")
    _wait(browser, lambda b: "未查询到" in b.find_element(By.ID, "answer").text)
    # the list is drawn again after each answer: click the entry once it lists the last question
    _wait(browser, lambda b: "天马科技" in b.find_element(By.CSS_SELECTOR, "#recent li").text)
    _wait(browser, lambda b: _click(next(li for li in b.find_elements(By.CSS_SELECTOR, "#recent li") if CASH in li.text)))
    _wait(browser, lambda b: "123,456,700.00元" in b.find_element(By.ID, "answer").text)
    assert browser.find_element(By.ID, "question").get_attribute("value") == CASH


def test_a_report_without_pages_and_an_unknown_company(browser, server):
    from selenium.webdriver.common.by import By

    browser.get(server.base + "/")
    _ask(browser, "示例股份2019年的货币资金是多少元?")
    _wait(browser, lambda b: "示例股份" in b.find_element(By.ID, "answer").text)
    note = _wait(browser, lambda b: b.find_element(By.ID, "page-note").text or False)
    assert "no page image" in note
    assert not browser.find_element(By.ID, "page-image").is_displayed()

    _ask(browser, "2021年天马科技的营业收入是多少元?")
    _wait(browser, lambda b: "未查询到" in b.find_element(By.ID, "answer").text)
    assert browser.find_element(By.ID, "evidence-box").get_attribute("hidden") is not None


def test_a_conversation_on_the_page(browser, server):
    """A follow-up asked on the page takes what it leaves out from the answer before and says so; the
    conversation is listed; 新问题 forgets it, and the same words then name no company."""
    from selenium.webdriver.common.by import By

    browser.get(server.base + "/")
    _ask(browser, CASH)
    _wait(browser, lambda b: "123,456,700.00元" in b.find_element(By.ID, "answer").text)
    _ask(browser, "营业收入呢？")
    answer = _wait(browser, lambda b: b.find_element(By.ID, "answer") if "承接上一问" in b.find_element(By.ID, "answer").text else False)
    assert "星河精密" in answer.text and "营业收入" in answer.text
    conversation = browser.find_element(By.ID, "conversation")
    assert conversation.is_displayed() and CASH in conversation.text and "营业收入呢？" in conversation.text
    _ask(browser, "净利润呢？")   # (the context is the last answer's: still 星河精密 2021)
    _wait(browser, lambda b: "净利润" in b.find_element(By.ID, "answer").text and "承接上一问" in b.find_element(By.ID, "answer").text)
    browser.find_element(By.ID, "new-question").click()
    _wait(browser, lambda b: not b.find_element(By.ID, "conversation").is_displayed())
    _ask(browser, "营业收入呢？")
    _wait(browser, lambda b: "承接上一问" not in b.find_element(By.ID, "answer").text and "净利润" not in b.find_element(By.ID, "answer").text
          and b.find_element(By.ID, "conversation").text.startswith("对话：营业收入呢"))


@pytest.fixture(scope="module")
def chart_server(serve_store, tmp_path_factory):
    """The serve store and two more companies' 2021 营业收入 (imported tables): a ranking of three."""
    d = tmp_path_factory.mktemp("chart")
    store = d / "store"
    shutil.copytree(serve_store, store)
    csv = d / "more.csv"
    csv.write_text("股票代码,公司名称,公司简称,年份,营业收入\n"
                   "600001,甲乙实业股份有限公司,甲乙实业,2021,410000000\n"
                   "600002,丙丁科技股份有限公司,丙丁科技,2021,180000000\n", encoding="utf-8")
    from fin_qa.cli import cli
    from click.testing import CliRunner

    assert CliRunner().invoke(cli, ["import-tables", str(csv), "--store", str(store)]).exit_code == 0
    srv = ServerProcess("--store", str(store), env=server_env())
    yield srv
    srv.stop()
    assert "Traceback" not in "".join(srv.log), "".join(srv.log)


def _chart(browser, kind: str, points: int):
    """The chart once it is drawn with `points` points of `kind` (series, ranking): its canvas."""
    from selenium.webdriver.common.by import By

    def drawn(b):
        c = b.find_element(By.ID, "chart")
        return c if (c.get_attribute("data-kind") == kind and c.get_attribute("data-points") == str(points)
                     and c.get_attribute("data-drawn") == "1" and c.is_displayed()) else False
    return _wait(browser, drawn)


def _inked(browser, canvas) -> int:
    """How many pixels of the canvas are drawn (not blank), counted inside the page."""
    return browser.execute_script(
        "const c = arguments[0], d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data; let n = 0;"
        "for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++; return n;", canvas)


def test_a_series_charted_then_a_follow_up_and_a_ranking(browser, chart_server):
    """A series question: its years' values and changes, a line chart of them (a point clicked shows the page
    its value was read from: 2019 from the summary table on p.2); a follow-up keeps the series and charts
    it again; a ranking across companies is a bar chart."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    browser.get(chart_server.base + "/")
    _ask(browser, "星河精密近三年营业收入的变化趋势如何？")
    answer = _wait(browser, lambda b: b.find_element(By.ID, "answer")
                   if "2019年为224,000,000.00元" in b.find_element(By.ID, "answer").text else False)
    assert "逐年上升" in answer.text and "比上年增长了15.38%" in answer.text
    assert "series" in browser.find_element(By.ID, "answer-meta").text
    assert "complete" in browser.find_element(By.ID, "answer-meta").text
    canvas = _chart(browser, "series", 3)
    assert _inked(browser, canvas) > 500, "the series chart drew nothing"
    assert "营业收入" in browser.find_element(By.ID, "chart-title").text
    # the 2019 point clicked: the summary table's page (p.2) is shown
    x, y = browser.execute_script(
        "const p = window.finqaChart.getDatasetMeta(0).data[0]; return [p.x, p.y];")
    ActionChains(browser).move_to_element_with_offset(canvas, int(x - canvas.rect["width"] / 2),
                                                      int(y - canvas.rect["height"] / 2)).click().perform()
    _wait(browser, lambda b: "p.2" in b.find_element(By.ID, "page-caption").text)

    _ask(browser, "那归母净利润呢？")
    answer = _wait(browser, lambda b: b.find_element(By.ID, "answer")
                   if "承接上一问" in b.find_element(By.ID, "answer").text else False)
    assert all(v in answer.text for v in ("2019年为23,100,000.00元", "2020年为27,965,000.00元", "2021年为36,380,000.00元")), answer.text
    _chart(browser, "series", 3)
    assert "归属于母公司所有者的净利润" in browser.find_element(By.ID, "chart-title").text

    browser.find_element(By.ID, "new-question").click()
    _ask(browser, "2021年营业收入最高的3家公司是哪些？")
    _wait(browser, lambda b: "甲乙实业" in b.find_element(By.ID, "answer").text)
    canvas = _chart(browser, "ranking", 3)
    assert _inked(browser, canvas) > 500, "the ranking chart drew nothing"
    # a question of one value has no chart
    _ask(browser, CASH)
    _wait(browser, lambda b: "123,456,700.00元" in b.find_element(By.ID, "answer").text)
    assert browser.find_element(By.ID, "chart-box").get_attribute("hidden") is not None
