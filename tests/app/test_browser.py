"""Browser tests: a real ``streamlit run app.py`` driven by Playwright and Debian's chromium.

Screenshots go to ``test-artifacts/screenshots/`` (gitignored). Without
/usr/bin/chromium the tests skip with a reason, except under ``CI=true`` where
a missing browser is a failure.
"""
from __future__ import annotations

import json
import os
import re
import time
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pytest

from alphasearch.library.sample import SAMPLE_NAME, sample_pdf_bytes
from app_helpers import SCREENSHOTS, hostile_files, streamlit_server, topic_pdf

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
WAIT = 240_000  # ms: a ceiling for a condition, met in seconds on a quiet machine; generous so a loaded one passes too



@pytest.fixture(scope="module")
def browser():
    if not CHROMIUM.exists():
        if os.environ.get("CI") == "true":
            pytest.fail("CI=true but /usr/bin/chromium is missing; .ci/run must install Debian's chromium.")
        pytest.skip("/usr/bin/chromium is not installed (apt-get install chromium); browser tests skipped.")
    from playwright.sync_api import sync_playwright  # a dev requirement: missing is an error, not a skip

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    data_dir = tmp_path_factory.mktemp("browser-data")
    with streamlit_server(data_dir) as url:
        yield url


@contextmanager
def session(browser, url: str, height: int = 2200):
    """A new visitor: a fresh browser context on the app's home page, closed afterwards."""
    ctx = browser.new_context(viewport={"width": 1400, "height": height})
    try:
        pg = ctx.new_page()
        pg.set_default_timeout(WAIT)  # clicks wait as long as the explicit waits (a loaded CI machine is slow)
        pg.goto(url)
        pg.get_by_text("Ask a PDF").first.wait_for(timeout=WAIT)
        try:
            yield pg
        except Exception:  # the screen as it was when a step gave up: evidence for a flake
            save_failed(pg)
            raise
    finally:
        ctx.close()


def save_failed(pg, name: str = "") -> None:
    """A full-page screenshot ``failed-[<name>-]<time>.png``."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    stem = "-".join(filter(None, ("failed", name, time.strftime("%H%M%S"))))
    pg.screenshot(path=str(SCREENSHOTS / f"{stem}.png"), full_page=True)


@pytest.fixture
def page(browser, server, request):
    with session(browser, server) as pg:
        yield pg
        rep = getattr(request.node, "rep_call", None)
        if rep is not None and rep.failed:  # the screen as the test left it (a test's error never reaches here)
            save_failed(pg, request.node.name)


def shot(pg, name: str) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    time.sleep(0.8)  # let charts and the graph finish drawing
    pg.screenshot(path=str(path))
    assert path.stat().st_size > 10_000
    return path


def go(pg, title: str, heading: str) -> None:
    pg.get_by_test_id("stSidebarNav").get_by_text(title, exact=True).click()
    pg.get_by_role("heading", name=heading).first.wait_for(timeout=WAIT)


def upload(pg, files: list[tuple[str, bytes]]) -> None:
    wait_idle(pg)
    pg.get_by_test_id("stFileUploaderDropzoneInput").first.set_input_files(
        files=[{"name": n, "mimeType": "application/pdf", "buffer": b} for n, b in files])
    # every file shows in the uploader before anything else happens
    pg.wait_for_function("(n) => document.querySelectorAll('[data-testid=stFileChip]').length >= n",
                         arg=len(files), timeout=WAIT)
    wait_idle(pg)


def open_tab(pg, name: str) -> None:
    """Select the tab ``name`` and wait until it stays selected once the app is idle: on a busy machine a rerun
    still on its way (the folder just created) can redraw the tabs after a click made before it started, and
    the tab's button is then hidden (seen as "Add 2 files to HR" never showing in full-suite runs)."""
    tab = pg.get_by_role("tab", name=name)
    deadline = time.monotonic() + WAIT / 1000
    while time.monotonic() < deadline:
        wait_idle(pg)
        if tab.get_attribute("aria-selected") == "true":
            pg.wait_for_timeout(1000)
            wait_idle(pg)
            if tab.get_attribute("aria-selected") == "true":
                return
        tab.click()
    raise AssertionError(f"the tab {name!r} did not stay selected")


def add_folder(pg, name: str, files: list[tuple[str, bytes]]) -> None:
    """On the Folders screen: a new folder ``name`` holding ``files``, added and indexed."""
    go(pg, "Folders", "Folders")
    pg.get_by_role("textbox", name="New folder").fill(name)
    pg.get_by_role("button", name="Create folder").click()
    pg.get_by_text(f"Folder “{name}” created.").wait_for(timeout=WAIT)
    wait_idle(pg)
    open_tab(pg, "Add PDFs")
    upload(pg, files)
    open_tab(pg, "Add PDFs")
    pg.get_by_role("button").filter(has_text=f"Add {len(files)} files to {name}").click()
    pg.get_by_text("Last upload").wait_for(timeout=WAIT)
    wait_idle(pg)


def ask(pg, question: str) -> None:
    box = pg.get_by_test_id("stChatInputTextArea")
    box.fill(question)
    box.press("Enter")


def replay_graph(pg):
    """The tree visualizer's replay graph (a Plotly figure with its own Play controls)."""
    return pg.locator(".st-key-tree-replay .js-plotly-plot").first


def yellow_pixels(png: bytes) -> int:
    """Pixels of the highlight's yellow (stroke (1, 0.85, 0) over white text background)."""
    import io

    from PIL import Image

    px = np.asarray(Image.open(io.BytesIO(png)).convert("RGB"), dtype=np.int16)
    r, g, b = px[..., 0], px[..., 1], px[..., 2]
    return int(((r > 230) & (g > 190) & (g < 235) & (b < 120)).sum())


def wait_idle(pg) -> None:
    """Until the app is no longer running a script."""
    pg.wait_for_timeout(300)
    pg.wait_for_function("() => !document.querySelector('[data-testid=\"stStatusWidget\"]')", timeout=WAIT)


ROOT_NODE_XY = """() => {
  const gd = document.querySelector('.st-key-tree-replay .js-plotly-plot'), fl = gd._fullLayout, box = gd.getBoundingClientRect();
  const nodes = gd.data[2];
  return [box.left + fl._size.l + fl.xaxis.l2p(nodes.x[0]), box.top + fl._size.t + fl.yaxis.l2p(nodes.y[0])];
}"""


def test_single_pdf_answer_preview_tree_and_replay(page):
    upload(page, [(SAMPLE_NAME, sample_pdf_bytes())])
    page.get_by_text(re.compile(r"is ready: 9 pages")).wait_for(timeout=WAIT)
    ask(page, "What was the total revenue in 2025?")
    page.get_by_text(re.compile(r"sections scored")).first.wait_for(timeout=WAIT)
    assert page.get_by_text("412.6").first.is_visible()
    cite = page.get_by_test_id("stExpander").filter(has_text="[1]").first
    cite.click()
    img = cite.get_by_test_id("stImage").locator("img")
    img.wait_for(timeout=WAIT)
    assert img.evaluate("i => i.naturalWidth") > 300  # the rendered page, not a placeholder
    assert cite.get_by_text("cited passage highlighted").is_visible()
    assert yellow_pixels(img.screenshot()) > 200  # the passage really is marked on the page image
    shot(page, "01_single_pdf_answer")
    caption = page.get_by_test_id("stCaptionContainer").filter(has_text="sections scored").first
    caption.get_by_test_id("stTooltipHoverTarget").first.hover()
    page.get_by_text(re.compile(r"the first page is the page ranker's best")).first.wait_for(timeout=WAIT)
    shot(page, "01b_confidence_explained")
    page.mouse.move(0, 0)

    page.get_by_role("button", name="Open the latest search in the tree visualizer").click()
    page.get_by_text("Node details and charts after iteration").wait_for(timeout=WAIT)
    replay_graph(page).wait_for(timeout=WAIT)
    metric = page.get_by_test_id("stMetric").filter(has_text="Details at iteration").first
    before = metric.inner_text()
    shot(page, "02_tree_visualizer")

    slider = page.get_by_test_id("stSlider").get_by_role("slider").first
    slider.focus()
    for _ in range(5):
        slider.press("ArrowLeft")
    wait_idle(page)
    page.wait_for_function(
        "(b) => { const m = [...document.querySelectorAll('[data-testid=stMetric]')].find(e => e.innerText.includes('Details at iteration'));"
        " return m && m.innerText !== b; }", arg=before, timeout=WAIT)
    after = metric.inner_text()
    assert before != after and re.search(r"\d+ / \d+", after)
    replay_graph(page).wait_for(timeout=WAIT)
    shot(page, "03_tree_replay")

    # clicking the root node in the graph shows its numbers (the root spans every page: pp. 1–9)
    x, y = page.evaluate(ROOT_NODE_XY)
    page.mouse.click(x, y)
    page.get_by_text("— pp. 1–9").first.wait_for(timeout=WAIT)
    wait_idle(page)
    assert page.get_by_test_id("stMetric").filter(has_text="Visits N").first.is_visible()


def test_structured_answer_and_a_fallback_that_lists_its_pages(page):
    """A figure question on a generated statement shows the direct answer first, then key points;
    an off-topic question shows the fallback with the pages it read, marked as not an answer."""
    from pdf_factory import table_pdf

    upload(page, [("harbor-statement.pdf", table_pdf())])
    page.get_by_text(re.compile(r"is ready: 3 pages")).wait_for(timeout=WAIT)
    ask(page, "What were total revenues in 2022?")
    box = page.locator("[class*=st-key-structured-answer]").first
    box.wait_for(timeout=WAIT)
    assert "Direct answer: Total revenues, 2022: $66,608 million — p. 2" in box.inner_text()
    assert "Key points" in box.inner_text()
    # the passages quoted from p. 2 share one box, numbered [1] [2] …, their page shown once with all highlighted
    cites = page.get_by_test_id("stExpander").filter(has_text="harbor-statement.pdf")
    cites.first.wait_for(timeout=WAIT)  # drawn after the answer's box: on a loaded machine, a moment later
    wait_idle(page)
    labels = [cites.nth(i).locator("summary").inner_text().splitlines()[-1] for i in range(cites.count())]
    assert len(labels) == len({label.split("harbor-statement.pdf", 1)[1] for label in labels}), labels
    assert labels[0].startswith("[1] [2]") and labels[0].endswith("p. 2"), labels
    cites.first.locator("summary").click()
    cites.first.get_by_text("cited passages highlighted").wait_for(timeout=WAIT)
    assert cites.first.get_by_text("Cited passages", exact=True).is_visible()
    shot(page, "05_structured_answer")
    ask(page, "Which submarine cables did the zeppelin squadron lay near Reykjavik?")
    looked = page.locator("[class*=st-key-looked-at]").first
    looked.wait_for(timeout=WAIT)
    text = looked.inner_text()
    assert text.startswith("Not an answer") and re.search(r"Pages read: \d+(, \d+)*\.", text)
    assert page.get_by_text("I could not find enough evidence in this document.").first.is_visible()
    shot(page, "06_fallback_pages_read")


def test_tree_of_a_10k_shows_its_parts_and_a_search_across_them(page):
    """A 10-K without an outline whose metadata title is an accession number: the tree visualizer
    shows the company as the root and PART I / PART II (with the Items of the part it opened); the search visits both
    parts (the "Visits per node" chart) before it reads the income statement's page."""
    from pdf_factory import ACCESSION, ten_k_pdf

    upload(page, [("orchard-10k.pdf", ten_k_pdf())])
    page.get_by_text(re.compile(r"is ready: 12 pages")).wait_for(timeout=WAIT)
    ask(page, "What was total revenue in 2022?")
    page.get_by_text(re.compile(r"sections scored")).first.wait_for(timeout=WAIT)
    page.get_by_role("button", name="Open the latest search in the tree visualizer").click()
    page.get_by_text("Node details and charts after iteration").wait_for(timeout=WAIT)
    replay_graph(page).wait_for(timeout=WAIT)
    wait_idle(page)
    shot(page, "11_tree_10k")
    assert page.get_by_text(ACCESSION).count() == 0  # the identifier is not the document's title
    page.get_by_test_id("stSelectbox").filter(has_text="Node (or click one in the graph)").first.click()
    options = page.get_by_role("option")
    options.first.wait_for(timeout=WAIT)
    listed = [o.inner_text() for o in options.all()]
    page.keyboard.press("Escape")
    assert listed[0].startswith("Orchard Machines Corporation")
    for title in ("FORM 10-K ·", "PART I ·", "PART II ·", "Item 7. Management", "Item 8. Financial Statements"):
        assert any(o.startswith(title) for o in listed), (title, listed)
    page.get_by_role("tab", name="Visits per node").click()
    chart = page.get_by_role("tabpanel").get_by_test_id("stPlotlyChart").filter(visible=True).first
    chart.locator("svg .ytick text").first.wait_for(timeout=WAIT)
    visited = chart.locator("svg .ytick text").evaluate_all("els => els.map(e => e.textContent)")
    for part in ("PART I (", "PART II ("):
        assert any(t.startswith(part) for t in visited), (part, visited)
    assert any(t.startswith("Consolidated Statements of Income") for t in visited), visited
    shot(page, "12_tree_10k_visits")


def test_hostile_upload_shows_one_sentence_and_app_stays_usable(page):
    files = hostile_files()
    data, expected = files["notes.pdf"]
    upload(page, [("notes.pdf", data)])
    page.get_by_text(expected).first.wait_for(timeout=WAIT)
    assert page.get_by_text("Traceback").count() == 0
    shot(page, "04_single_pdf_bad_upload")
    # still usable: the sidebar's sample button works from another screen
    go(page, "Tree visualizer", "Tree visualizer")
    page.get_by_role("button", name="Try the sample report").click()
    page.get_by_text(re.compile(r"is ready: 9 pages")).wait_for(timeout=WAIT)


def test_folders_three_folders_and_a_routed_question(page):
    go(page, "Folders", "Folders")
    for name in ("Finance", "Science", "HR"):
        page.get_by_role("textbox", name="New folder").fill(name)
        page.get_by_role("button", name="Create folder").click()
        page.get_by_text(f"Folder “{name}” created.").wait_for(timeout=WAIT)
        wait_idle(page)
        open_tab(page, "Add PDFs")
        upload(page, [(f"{name.lower()}-{i}.pdf", topic_pdf(name.lower() if name != "HR" else "hr", i))
                      for i in range(2)])
        open_tab(page, "Add PDFs")
        page.get_by_role("button").filter(has_text=f"Add 2 files to {name}").click()
        page.get_by_text("Last upload").wait_for(timeout=WAIT)
        wait_idle(page)
        assert page.get_by_text("rejected").count() == 0
    open_tab(page, "Add PDFs")
    bad = hostile_files()
    upload(page, [(n, b) for n, (b, _) in bad.items() if n != "truncated.pdf"])
    open_tab(page, "Add PDFs")
    page.get_by_role("button").filter(has_text=re.compile(r"Add \d+ files? to HR")).click()
    page.get_by_text(bad["locked.pdf"][1]).filter(visible=True).first.wait_for(timeout=WAIT)
    wait_idle(page)
    assert page.get_by_text("Traceback").count() == 0
    shot(page, "05_folders_upload_results")
    page.get_by_role("tab", name="Documents").click()
    wait_idle(page)  # the stored documents are all still there
    assert page.get_by_test_id("stMetric").filter(has_text="Documents").first.inner_text().split()[-1] == "2"
    shot(page, "06_folders_documents")

    go(page, "Folder query", "Folder query")
    ask(page, "How many days of paid annual leave do employees get?")
    page.get_by_text(re.compile(r"Folder: HR \(routing confidence")).first.wait_for(timeout=WAIT)
    page.get_by_text(re.compile(r"27 days of paid annual leave")).first.wait_for(timeout=WAIT)
    wait_idle(page)
    cite = page.get_by_test_id("stExpander").filter(has_text="[1]").first
    cite.click()
    cite.get_by_test_id("stImage").locator("img").wait_for(timeout=WAIT)
    shot(page, "07_folder_query_answer")

    page.reload()  # history survives a reload (the conversation id is in the URL, turns in SQLite)
    page.get_by_text(re.compile(r"27 days of paid annual leave")).first.wait_for(timeout=WAIT)

    go(page, "Tree visualizer", "Tree visualizer")
    replay_graph(page).wait_for(timeout=WAIT)
    shot(page, "08_tree_folder_phase1")


def results_jsonl() -> bytes:
    """A small results file in the format of ``python -m alphasearch eval --out``."""
    rows = []
    for i in range(8):
        for method, pages in (("flat_bm25", [4, 2, 1]), ("greedy", [2, 1, 3]), ("mcts_puct", [1, 2, 3])):
            rows.append({"id": f"q{i}", "doc": "report.pdf", "source": "demo", "method": method,
                         "pages": pages if i % 4 else pages[::-1], "evidence_pages": [1], "answer": "",
                         "confidence": 0.5, "fallback": False, "seconds": 0.05, "llm_calls": 0, "nodes_scored": 6})
    return "\n".join(json.dumps(r) for r in rows).encode()


def test_evaluation_and_settings_screens(page):
    go(page, "Evaluation", "Evaluation")
    page.get_by_test_id("stFileUploaderDropzoneInput").first.set_input_files(
        files=[{"name": "results.jsonl", "mimeType": "application/json", "buffer": results_jsonl()}])
    page.get_by_text("hit@k per method (all, n=8)").first.wait_for(timeout=WAIT)
    wait_idle(page)
    shot(page, "09_evaluation")
    go(page, "Settings", "Settings")
    page.get_by_role("textbox", name="API key").fill("sk-test-never-shown-123")
    page.get_by_role("button", name="Apply").click()
    wait_idle(page)
    assert "sk-test-never-shown-123" not in page.content()
    shot(page, "10_settings")
