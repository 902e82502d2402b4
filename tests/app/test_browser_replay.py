"""The replay plays in the browser: a 10-K question's search in the tree visualizer, its graph's own Play
button pressed; while it plays, at three frames the graph is drawn (nodes, not a placeholder), the
counter ("Iteration k / T") names the frame the slider is on, and the axes and plot area are those of
the first frame (no re-zoom). At 800 px the graph fits the page, its labels do not overlap, the sidebar is narrower and metric values
are whole.
A reload after a single-PDF question reopens its tree, with a purple ring and a caption where its answer was read. Screenshots: ``test-artifacts/screenshots/20_replay_frame_*.png``,
``21_replay_800px.png``, ``22_tree_after_reload.png``."""
from __future__ import annotations

import re
import time

import pytest

import filing_factory
from app_helpers import SCREENSHOTS, streamlit_server
from test_browser import WAIT, ask, browser, replay_graph, upload, wait_idle  # noqa: F401  (browser is a fixture)

pytestmark = pytest.mark.timeout(300)
# a question the filing does not answer: the search spends its whole budget, so the replay has many frames
QUESTION = "How many employees work at the Singapore office?"

STATE = """() => {
  const gd = document.querySelector('.st-key-tree-replay .js-plotly-plot'), fl = gd._fullLayout;
  const cur = gd.querySelector('.slider-group > text.slider-label'), box = gd.querySelector('.nsewdrag').getBoundingClientRect();
  return {active: fl.sliders[0].active, counter: cur ? cur.textContent : '', steps: fl.sliders[0].steps.length,
          x: fl.xaxis.range.map(v => +v.toFixed(6)), y: fl.yaxis.range.map(v => +v.toFixed(6)),
          plot: [box.left, box.top, box.width, box.height].map(Math.round),
          points: gd.querySelectorAll('.scatterlayer .trace:nth-of-type(3) .point').length,
          sizes: gd.querySelectorAll('.scatterlayer .trace:nth-of-type(3) .point').length ?
                 [...gd.querySelectorAll('.scatterlayer .trace:nth-of-type(3) .point')].map(p => p.getBBox().width) : []};
}"""
LABEL_BOXES = """() => [...document.querySelectorAll('.st-key-tree-replay .js-plotly-plot .scatterlayer .trace:nth-of-type(3) .textpoint')]
  .map(t => t.getBoundingClientRect()).filter(r => r.width > 0).map(r => [r.left, r.top, r.right, r.bottom])"""


@pytest.fixture(scope="module")
def tree_url(browser, tmp_path_factory):
    """A server, and the 10-K's search opened in the tree visualizer once (the search is stored with the
    single-PDF chat; every test opens a new browser context on it)."""
    with streamlit_server(tmp_path_factory.mktemp("browser-replay")) as url:
        yield url


def open_tree(browser, url: str, width: int):
    ctx = browser.new_context(viewport={"width": width, "height": 2400})
    pg = ctx.new_page()
    pg.set_default_timeout(WAIT)
    pg.goto(url)
    pg.get_by_text("Ask a PDF").first.wait_for(timeout=WAIT)
    upload(pg, [("kestrel-10k.pdf", filing_factory.annual_report_pdf())])
    pg.get_by_text(re.compile(r"is ready: 54 pages")).wait_for(timeout=WAIT)
    ask(pg, QUESTION)
    pg.get_by_text(re.compile(r"sections scored")).first.wait_for(timeout=WAIT)
    pg.get_by_role("button", name="Open the latest search in the tree visualizer").click()
    replay_graph(pg).wait_for(timeout=WAIT)
    wait_idle(pg)
    return ctx, pg


def graph_shot(pg, name: str) -> bytes:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    png = replay_graph(pg).screenshot()
    (SCREENSHOTS / f"{name}.png").write_bytes(png)
    return png


def ink(png: bytes) -> int:
    """Pixels that are neither white nor near-white: how much is drawn."""
    import io

    import numpy as np
    from PIL import Image

    px = np.asarray(Image.open(io.BytesIO(png)).convert("L"))
    return int((px < 200).sum())


def test_play_steps_through_the_frames_with_slider_and_counter_in_step(browser, tree_url):
    ctx, pg = open_tree(browser, tree_url, 1400)
    try:
        first = pg.evaluate(STATE)
        T = first["steps"] - 1
        assert T >= 6 and first["active"] == T and first["counter"] == f"Iteration {T} / {T}"
        assert first["points"] > 5
        replay_graph(pg).scroll_into_view_if_needed()
        pg.locator(".st-key-tree-replay .updatemenu-button").filter(has_text="Play").click()
        seen: list[dict] = []
        wanted = [T // 4, T // 2, 3 * T // 4]
        deadline = time.monotonic() + 120
        while len(seen) < 3 and time.monotonic() < deadline:
            state = pg.evaluate(STATE)
            if state["active"] >= wanted[len(seen)] and state["active"] < T:
                png = graph_shot(pg, f"20_replay_frame_{len(seen) + 1}")
                state["ink"] = ink(png)
                seen.append(state)
            pg.wait_for_timeout(60)
        assert len(seen) == 3, seen
        for state in seen:
            assert state["counter"] == f"Iteration {state['active']} / {T}"  # the counter names the slider's frame
            assert (state["x"], state["y"], state["plot"]) == (first["x"], first["y"], first["plot"])  # no re-zoom
            assert state["points"] == first["points"] and state["ink"] > 2000  # the graph, not a placeholder
        assert len({s["active"] for s in seen}) == 3  # it moved on between the screenshots
        assert seen[0]["sizes"] != first["sizes"]  # nodes grow with their visits as it plays
        pg.wait_for_function("() => document.querySelector('.st-key-tree-replay .js-plotly-plot')"
                             "._fullLayout.sliders[0].active === " + str(T), timeout=60_000)
        end = pg.evaluate(STATE)
        assert end["counter"] == f"Iteration {T} / {T}" and (end["x"], end["y"]) == (first["x"], first["y"])
    finally:
        ctx.close()


def test_at_800_px_the_graph_fits_and_its_labels_do_not_overlap(browser, tree_url):
    ctx, pg = open_tree(browser, tree_url, 800)
    try:
        box = replay_graph(pg).bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 800
        labels = pg.evaluate(LABEL_BOXES)
        assert len(labels) > 5
        overlaps = [(a, b) for i, a in enumerate(labels) for b in labels[i + 1:]
                    if a[0] < b[2] - 1 and b[0] < a[2] - 1 and a[1] < b[3] - 1 and b[1] < a[3] - 1]
        cut = pg.evaluate("() => [...document.querySelectorAll('[data-testid=stMetricValue] *, [data-testid=stMetricValue]')]"
                          ".filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.textContent)")
        assert not cut, cut  # every metric value whole ("PUCT", not "PU…")
        assert pg.get_by_test_id("stSidebar").bounding_box()["width"] <= 230
        graph_shot(pg, "21_replay_800px")
        pg.screenshot(path=str(SCREENSHOTS / "21b_tree_page_800px.png"))
        assert not overlaps, overlaps[:3]
    finally:
        ctx.close()


def test_a_reload_reopens_the_latest_single_pdf_search_in_the_visualizer(browser, tree_url):
    """The single-PDF search is stored with the library like a folder one: after a reload (the session's
    memory gone) the visualizer still opens it, not "No search yet"."""
    from alphasearch.library.sample import SAMPLE_NAME, sample_pdf_bytes

    ctx = browser.new_context(viewport={"width": 1400, "height": 2000})
    try:
        pg = ctx.new_page()
        pg.set_default_timeout(WAIT)
        pg.goto(tree_url)
        pg.get_by_text("Ask a PDF").first.wait_for(timeout=WAIT)
        upload(pg, [(SAMPLE_NAME, sample_pdf_bytes())])
        pg.get_by_text(re.compile(r"is ready: 9 pages")).wait_for(timeout=WAIT)
        question = "Where did the new factory open?"
        ask(pg, question)
        pg.get_by_text(re.compile(r"sections scored")).first.wait_for(timeout=WAIT)
        wait_idle(pg)
        pg.reload()
        pg.get_by_text(question).first.wait_for(timeout=WAIT)  # the chat is back (its id is in the URL)
        pg.get_by_role("button", name="Open the latest search in the tree visualizer").click()
        replay_graph(pg).wait_for(timeout=WAIT)
        assert pg.get_by_text("No search yet").count() == 0
        assert pg.get_by_text(re.compile("Question: " + re.escape(question))).first.is_visible()
        # where the answer was read, kept with the stored search: a caption naming the page and its section, and
        # a purple ring around the node holding it
        where = pg.get_by_text(re.compile(r"Where the answer was read \(purple ring\): p\. \d+ — ")).first
        assert where.is_visible(), where.text_content()
        rings = pg.evaluate("() => document.querySelectorAll('.st-key-tree-replay .js-plotly-plot .scatterlayer "
                            ".trace:nth-of-type(4) .point').length")
        assert rings >= 1
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        pg.screenshot(path=str(SCREENSHOTS / "22_tree_after_reload.png"))
        picked = pg.get_by_test_id("stSelectbox").first.evaluate(
            "e => e.textContent + ' ' + [...e.querySelectorAll('input')].map(i => i.value || i.getAttribute('aria-label') || '').join(' ')")
        assert "Saved · " + SAMPLE_NAME in picked, picked  # read back from the library
    finally:
        ctx.close()
