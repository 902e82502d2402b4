"""What an analyst reads first, in a real browser (issue 32): on a generated annual report whose headcount is
stated once, in a Human Capital section far from the statements, "How many people did Harbor employ" is
answered by that sentence (not by the employee benefits expense nor by 2005's staff), and diluted EPS by the
per-share row (not by the diluted share count); a year the report never prints is a fallback that says so.
Screenshots: ``test-artifacts/screenshots/29_headcount.png``, ``30_year_never_printed.png``."""
from __future__ import annotations

import re

import pytest

from pdf_factory import make_pdf
from test_browser import WAIT, ask, browser, page, server, shot, upload  # noqa: F401

pytestmark = pytest.mark.timeout(600)

FILLER = ("Harbor Corporation operates ferries and freight terminals on the northern coast, with routes between "
          "eleven islands and the mainland.")


def report() -> bytes:
    pages = [
        ["Harbor Corporation", "Annual Report 2023", FILLER],
        ["Consolidated Statements of Income", "(in millions, except per share amounts)", "2023 2022",
         "Net sales $ 21,400 $ 19,800", "Employee benefits $ 640 $ 600", "Net income $ 1,310 $ 1,180",
         "Weighted-average common shares outstanding:", "Basic 500 500", "Diluted 508 511",
         "Net income per common share:", "Basic $ 2.62 $ 2.36", "Diluted $ 2.58 $ 2.31"],
        ["Our History", "Harbor was founded in 1998. By the end of 2005 we had 2,000 employees in three countries."],
        *[[f"Operations {k}", FILLER] for k in range(1, 5)],
        ["Human Capital", "Our people are the foundation of our business.",
         "As of December 31, 2023, Harbor employed approximately 12,300 people worldwide, of whom approximately",
         "4,100 were located in the United States."],
    ]
    return make_pdf(pages)


def test_a_headcount_and_diluted_eps_are_the_figures_asked(page):
    upload(page, [("harbor-2023.pdf", report())])
    page.get_by_text(re.compile(r"harbor-2023\.pdf is ready: 8 pages")).wait_for(timeout=WAIT)
    ask(page, "How many people did Harbor employ at the end of 2023?")
    direct = page.get_by_text(re.compile(r"Direct answer: .*12,300 people")).first
    direct.wait_for(timeout=WAIT)
    assert "p. 8" in direct.inner_text() and "640" not in direct.inner_text()
    shot(page, "29_headcount")
    ask(page, "What were Harbor's diluted earnings per share in 2023?")
    eps = page.get_by_text(re.compile(r"Direct answer: .*2\.58")).first
    eps.wait_for(timeout=WAIT)
    assert "508" not in eps.inner_text()
    # a year the report never prints: the answer says so instead of quoting 2023's or 2022's net sales
    ask(page, "What were Harbor's net sales in 2019?")
    page.get_by_text("It never mentions 2019.").first.wait_for(timeout=WAIT)
    assert not page.get_by_text(re.compile(r"Direct answer: .*2019")).count()
    shot(page, "30_year_never_printed")
