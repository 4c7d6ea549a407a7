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
