"""A trend question on a folder of a company's filings, in a real browser (issue 33): the answer shows the
series as a table (one row per period, oldest first, a missing year as a row that says so, each figure cited
to its filing and page) and a Plotly chart of it; clicking a point opens the page its figure was read from.
Screenshots: ``test-artifacts/screenshots/24_trend_table_chart.png``, ``25_trend_point_opened.png``."""
from __future__ import annotations

import re

import pytest

import period_filings
from test_browser import WAIT, add_folder, ask, browser, go, page, server, shot, wait_idle  # noqa: F401  (fixtures)

pytestmark = pytest.mark.timeout(400)

POINT_XY = """(period) => {
  const gd = document.querySelector('[class*=st-key-series-chart-] .js-plotly-plot'), fl = gd._fullLayout;
  const box = gd.getBoundingClientRect(), tr = gd.data[0], i = tr.x.indexOf(period);
  return [box.left + fl._size.l + fl.xaxis.d2p(tr.x[i]), box.top + fl._size.t + fl.yaxis.d2p(tr.y[i])];
}"""


def test_a_trend_question_shows_the_table_and_chart_and_a_point_opens_its_page(page):
    add_folder(page, "Orchard", [(k, v) for k, v in period_filings.folder().items() if not k.startswith("orchard-q")])

    go(page, "Folder query", "Folder query")
    ask(page, "How have Orchard's net sales changed over time?")
    table = page.locator("[class*=st-key-series-table-] table").first
    table.wait_for(timeout=WAIT)
    page.locator("[class*=st-key-series-chart-] .js-plotly-plot .scatterlayer .point").first.wait_for(timeout=WAIT)
    wait_idle(page)
    rows = [[c.inner_text().strip() for c in r.locator("th, td").all()] for r in table.locator("tbody tr").all()]
    assert [r[0] for r in rows] == ["FY2019", "FY2020", "FY2021", "FY2022", "FY2023"]
    assert rows[0][1] == "260,174 million" and rows[0][3] == "orchard-a.pdf, p. 4"
    assert rows[2][1] == "—" and rows[2][4] == "no filing for this year in the folder"
    assert rows[4][2] == "-11,043 (-2.8%)" and "restated as 394,112 in orchard-d.pdf" in rows[3][4]
    assert page.locator("[class*=st-key-series-chart-] .scatterlayer .point").count() == 4  # the gap has no point
    shot(page, "24_trend_table_chart")

    x, y = page.evaluate(POINT_XY, "FY2022")
    page.mouse.click(x, y)
    opened = page.locator("[class*=st-key-series-page-]")
    opened.wait_for(timeout=WAIT)
    wait_idle(page)
    assert opened.inner_text().startswith("FY2022 · orchard-c.pdf, p. 4")
    image = opened.get_by_role("img", name="Page 4 of orchard-c.pdf with the cited passage highlighted")
    image.wait_for(timeout=WAIT)
    shot(page, "25_trend_point_opened")

    ask(page, "What were Orchard's net sales in FY2021?")  # a year no filing covers: the answer says so
    note = page.get_by_text(re.compile("No filing in the folder covers 2021"))
    note.first.wait_for(timeout=WAIT)
    assert "it holds FY2019, FY2020, FY2022, FY2023" in note.first.inner_text()
