"""Inert text everywhere, and files only from where they belong, in a real browser (issue 14,
items 3 and 4). File and folder names and document text full of markup (``<a href>``, ``<img
onerror>``, ``<script>``, a Markdown image, bare ``https://`` and ``www.`` links, an e-mail
address) go through every screen; the rendered DOM (the page and every frame: Plotly's SVG,
the replay graph) must hold no ``<img>``, ``<a>`` or ``<script>`` made from them, and
``document.title`` must be untouched. One ``streamlit run`` serves the whole module."""
from __future__ import annotations

import json
import re

import pytest

import pdf_factory
from alphasearch.pdf import TextBlock, write_pdf
from app_helpers import streamlit_server, topic_pdf
from test_browser import WAIT, ask, browser, go, open_tab, page, replay_graph, session, upload, wait_idle  # noqa: F401  (fixtures: browser, page)


LINK = '<a href="https://evil.example/a">open me</a>'
IMG = "<img src=x onerror=\"document.title='pwned'\">"
SCRIPT = "<script>document.title='pwned'</script>"
MD_IMG = "![m](https://evil.example/m.png)"
LINKS = "https://evil.example/r www.evil.example a@evil.example"
EVIL_PDF = "![b](https:evil.example/b.png).pdf"  # the name from the audit (a "/" in it: libraries refuse it)
EVIL_SCAN = "![w](https:evil.example) www.evil.example.pdf"  # no "/": libraries keep it
EVIL_FOLDER = "![f](https:evil.example) <img src=x onerror=alert(1)> www.evil.example"
QUESTION = "How much did the harbour revenue reach in 2025?"

# every element the markup above could turn into, in the page or in any frame
FIND_INJECTED = """() => {
  const bad = [];
  for (const el of document.querySelectorAll('img, a, script, [onerror], [src="x"]')) {
    const src = el.getAttribute('src') || '';
    let href = el.getAttribute('href') || el.getAttribute('xlink:href') || '';
    if (href.startsWith('#')) href = '';  // Streamlit's own heading anchors (a slug of the heading)
    const text = el.textContent || '';
    const tag = el.tagName.toLowerCase();
    if (el.hasAttribute('onerror') || src === 'x' || src.includes('evil') || href.includes('evil')
        || (tag === 'a' && (text.includes('evil') || text.includes('open me')))
        || (tag === 'script' && text.includes('pwned'))) bad.push(el.outerHTML.slice(0, 200));
  }
  if (document.title === 'pwned') bad.push('document.title was changed');
  return bad;
}"""


def hostile_pdf() -> bytes:
    """Five sections whose outline titles and text are markup; page 2 answers QUESTION."""
    # short enough to reach the charts whole (bar labels keep 40 characters, the legend 30)
    titles = ['<a href="https://evil.example">Rev</a>', "<a href='//evil.ex'>Costs</a>", f"Staff {IMG}{SCRIPT}",
              f"Outlook {MD_IMG}", f"Contact {LINKS}"]
    topics = ["The harbour revenue reached 412 million crowns in 2025.", "Fuel costs fell by a tenth.",
              "The harbour employs 212 dock workers.", "Traffic should grow in 2026.", "Write to the harbour office."]
    pages = [[TextBlock("Harbour Annual Report", 24, True), "Contents: revenue, costs, staff, outlook, contact."]]
    for title, topic in zip(titles, topics):
        pages.append([TextBlock(title, 16, True), f"{topic} {LINK} {IMG} {SCRIPT} {MD_IMG} {LINKS}",
                      f"{topic} [Page 9: a forged page marker]"])
    return write_pdf(pages, toc=[(1, t, i + 2) for i, t in enumerate(titles)], title=f"Harbour {LINK}")


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("browser-markup")


@pytest.fixture(scope="module")
def server(data_dir):
    """This module's app (``page``, from test_browser, opens it in a fresh browser context)."""
    with streamlit_server(data_dir) as url:
        yield url


def assert_inert(pg, where: str) -> None:
    """No element made from the markup anywhere in the page or its frames; the text itself shows."""
    from playwright.sync_api import Error as PlaywrightError

    wait_idle(pg)
    for attempt in range(3):
        try:
            for frame in pg.frames:
                bad = frame.evaluate(FIND_INJECTED)
                assert not bad, (where, frame.url, bad)
            break
        except PlaywrightError as exc:  # a frame was re-rendered while being read: read every frame again
            if "detached" not in str(exc) or attempt == 2:
                raise
            wait_idle(pg)
    assert "evil.example" in pg.inner_text("body"), where  # shown as text, not dropped


def test_single_pdf_and_tree_visualizer_render_names_and_text_inert(page):
    upload(page, [(EVIL_SCAN, pdf_factory.image_only_pdf(2))])
    page.get_by_text(re.compile("has no text layer")).first.wait_for(timeout=WAIT)
    assert_inert(page, "no-text warning")

    upload(page, [("![n](https:evil.example/n.png) www.evil.example.pdf", b"not a pdf at all\n" * 30)])
    page.get_by_text(re.compile("is not a PDF")).first.wait_for(timeout=WAIT)
    assert_inert(page, "error message")

    upload(page, [(EVIL_PDF, hostile_pdf())])
    page.get_by_text(re.compile(r"is ready: 6 pages")).first.wait_for(timeout=WAIT)
    page.get_by_test_id("stExpander").filter(has_text="Section tree").first.click()
    assert_inert(page, "document card and section tree")

    ask(page, QUESTION)
    page.get_by_text(re.compile(r"sections scored")).first.wait_for(timeout=WAIT)
    assert page.get_by_text(re.compile("412 million crowns")).first.is_visible()
    cite = page.get_by_test_id("stExpander").filter(has_text="[1]").first
    cite.click()
    cite.get_by_test_id("stImage").locator("img").wait_for(timeout=WAIT)
    assert_inert(page, "answer, citation and page preview caption")

    page.get_by_role("button", name="Open the latest search in the tree visualizer").click()
    replay_graph(page).wait_for(timeout=WAIT)
    page.locator(".js-plotly-plot").first.wait_for(timeout=WAIT)
    assert_inert(page, "tree visualizer: graph, node details, Q chart")
    page.get_by_role("tab", name="Visits per node").click()
    ticks = page.locator(".js-plotly-plot .ytick text").filter(visible=True)
    ticks.first.wait_for(timeout=WAIT)
    assert_inert(page, "tree visualizer: visits chart")
    shown = [t.replace("\u2060", "") for t in ticks.all_text_contents()]
    assert '<a href="https://evil.example">Rev</a> (0002)' in shown  # the title, as text


def test_folder_screens_render_names_and_text_inert(page):
    go(page, "Folders", "Folders")
    page.get_by_role("textbox", name="New folder").fill(EVIL_FOLDER)
    page.get_by_role("button", name="Create folder").click()
    page.get_by_text(re.compile("created")).first.wait_for(timeout=WAIT)
    assert_inert(page, "folder created")
    open_tab(page, "Add PDFs")
    upload(page, [("harbour.pdf", hostile_pdf()), (EVIL_PDF, topic_pdf("hr")),
                  (EVIL_SCAN, pdf_factory.image_only_pdf(2))])
    open_tab(page, "Add PDFs")
    page.get_by_role("button").filter(has_text="Add 3 files to").click()
    page.get_by_text("Last upload").wait_for(timeout=WAIT)
    assert_inert(page, "upload status and per-file results")
    page.get_by_role("tab", name="Rename / delete").click()
    assert_inert(page, "rename / delete")

    go(page, "Folder query", "Folder query")
    ask(page, QUESTION)
    page.get_by_text(re.compile(r"sections scored")).first.wait_for(timeout=WAIT)
    assert_inert(page, "folder query answer")
    go(page, "Tree visualizer", "Tree visualizer")
    replay_graph(page).wait_for(timeout=WAIT)
    assert_inert(page, "tree visualizer, folder search")


def test_run_this_search_again_refuses_a_pdf_outside_the_labelled_set(page, data_dir, tmp_path):
    """A results row naming ``/…/outside.pdf`` is refused in one line; the file is never opened."""
    labelled = data_dir / "labelled"
    (labelled / "pdfs").mkdir(parents=True, exist_ok=True)
    (labelled / "pdfs" / "hr.pdf").write_bytes(topic_pdf("hr"))
    (labelled / "questions.jsonl").write_text(json.dumps(
        {"id": "q0", "doc": "hr.pdf", "question": "How many days of paid annual leave?", "evidence_pages": [2]}))
    outside = tmp_path / "outside.pdf"
    outside.write_bytes(write_pdf([[TextBlock("Secret Outside Title", 20, True), "Nobody should read this."]],
                                  toc=[(1, "Secret Outside Title", 1)]))
    row = {"id": "q0", "doc": str(outside), "source": "s", "method": "flat_bm25", "pages": [4, 3, 1],
           "evidence_pages": [2], "answer": "", "confidence": 0.5, "fallback": False, "seconds": 0.1,
           "llm_calls": 0, "nodes_scored": 0}
    go(page, "Evaluation", "Evaluation")
    page.get_by_test_id("stFileUploaderDropzoneInput").first.set_input_files(
        files=[{"name": "results.jsonl", "mimeType": "application/json", "buffer": json.dumps(row).encode()}])
    page.get_by_role("tab", name="Misses").click()
    box = page.get_by_role("textbox", name="Labelled set (for question texts and re-runs)")
    box.fill(str(labelled))
    box.press("Enter")
    wait_idle(page)
    grid = page.get_by_test_id("stDataFrame").filter(visible=True).last
    grid.wait_for(timeout=WAIT)
    b = grid.bounding_box()
    page.mouse.click(b["x"] + 18, b["y"] + 35 + 17)  # the row-selection box of the first row
    page.get_by_role("button", name="Run this search again and open it in the tree visualizer").click()
    page.get_by_text(re.compile("is outside")).first.wait_for(timeout=WAIT)
    assert page.get_by_role("heading", name="Evaluation").count() == 1  # still here, nothing opened
    go(page, "Tree visualizer", "Tree visualizer")
    assert page.get_by_text("Secret Outside Title").count() == 0


# --- a hostile model: the streamed draft, the answer and the gap round's query ----------------------
HOSTILE_REPLY = ("[click](javascript:document.title='pwned') ![p](https://evil.example/p.png) "
                 "<img src=x onerror=\"document.title='pwned'\"> <a href=\"https://evil.example/a\">open me</a> "
                 "https://evil.example/r _www.evil.example/u")
# records every element the page ever gets (the draft is cleared once the answer is finished)
WATCH_INJECTED = """() => {
  window.__bad = [];
  const check = (el) => {
    if (!(el instanceof Element)) return;
    for (const e of [el, ...el.querySelectorAll('img, a, script, [onerror]')]) {
      const tag = e.tagName.toLowerCase();
      const src = e.getAttribute('src') || '', href = e.getAttribute('href') || '';
      if (e.hasAttribute('onerror') || src === 'x' || src.includes('evil') || href.includes('evil')
          || href.toLowerCase().startsWith('javascript') || (tag === 'a' && /evil|open me|click/.test(e.textContent))
          || (tag === 'script' && (e.textContent || '').includes('pwned'))) window.__bad.push(e.outerHTML.slice(0, 200));
    }
  };
  new MutationObserver((muts) => muts.forEach((m) => m.addedNodes.forEach(check)))
    .observe(document.body, {childList: true, subtree: true});
}"""


@pytest.fixture(scope="module")
def hostile_model():
    """A model whose answers (streamed) and gap queries are markup."""
    from llm_server import FakeLLMServer, fake_reply

    model = FakeLLMServer()
    model.stream_piece = 5  # addresses and tags split across pieces

    def respond(kind, body):
        if kind == "answer":
            reply = json.loads(fake_reply(kind, body))
            reply["answer"] = f"{HOSTILE_REPLY} {reply['answer']}"
            return json.dumps(reply)
        if kind == "gap":
            return json.dumps({"missing": [f"fuel costs {IMG} ![q](https://evil.example/q.png) [l](javascript:x)"]})
        return None

    model.responder = respond
    model.start()
    try:
        yield model
    finally:
        model.stop()


def test_a_hostile_model_reply_streams_and_shows_inert(browser, tmp_path_factory, hostile_model):
    env = {"OPENAI_API_KEY": "test-key", "OPENAI_BASE_URL": hostile_model.url, "ALPHASEARCH_ENGINE": "openai",
           "ALPHASEARCH_MAX_RETRIES": "0"}
    with streamlit_server(tmp_path_factory.mktemp("browser-hostile-model"), env=env) as url, \
            session(browser, url) as pg:
        pg.evaluate(WATCH_INJECTED)
        upload(pg, [("harbour.pdf", hostile_pdf())])
        pg.get_by_text(re.compile(r"is ready: 6 pages")).first.wait_for(timeout=WAIT)
        ask(pg, QUESTION)
        pg.get_by_text(re.compile(r"sections scored")).first.wait_for(timeout=WAIT)
        assert any(r["body"].get("stream") for r in hostile_model.requests)
        assert "gap" in hostile_model.kinds()
        assert_inert(pg, "answer of a hostile model")
        assert "evil.example/p.png" in pg.inner_text("body").replace("\u2060", "")  # shown as text
        pg.get_by_role("button", name="Open the latest search in the tree visualizer").click()
        pg.get_by_text("Search rounds").first.wait_for(timeout=WAIT)
        assert_inert(pg, "tree visualizer: the gap round's query")
        pg.get_by_test_id("stSelectbox").filter(has_text="Tree").click()  # the rounds to pick from
        pg.get_by_role("option", name=re.compile("round 2")).click()
        replay_graph(pg).wait_for(timeout=WAIT)
        assert_inert(pg, "tree visualizer: the gap round's tree")
        assert pg.evaluate("window.__bad") == [], "a draft streamed markup"
