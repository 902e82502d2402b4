"""A chart's rows rejoined by where they sit (alphasearch/pdf/grid.py): a bar chart's text comes out column by
column — every bar's number, then every category's name — so no line said "Hispanic 53" and the reader
quoted a sentence about everyone ("Nearly half (46%) say …") for a question about one group."""
from __future__ import annotations

import pymupdf

from alphasearch.answer.extractive import extractive_answer
from alphasearch.index import indexer

GROUPS = ["Total", "White", "Black", "Hispanic", "Ages 18-29", "65+"]
SERIES = ["A great deal", "A fair amount", "Not too much"]
VALUES = [[46, 38, 13], [41, 42, 14], [56, 31, 9], [53, 33, 11], [58, 30, 9], [37, 45, 15]]
PROSE = ("Nearly half of Americans (46%) say the U.S. can learn a great deal from other countries about ways to "
         "slow the spread of the coronavirus, while another 38% say it can learn a fair amount.")


def _survey() -> bytes:
    doc = pymupdf.open()
    for k in range(3):
        page = doc.new_page(width=612, height=792)
        page.insert_textbox(pymupdf.Rect(60, 60, 550, 140), PROSE, fontsize=11)
        if k != 1:
            continue
        title = "The U.S. can learn from other countries about slowing the coronavirus"
        page.insert_text((60, 170), title, fontsize=13)
        page.insert_text((60, 186), "% who say the U.S. can learn __ from other countries", fontsize=9)
        for j, name in enumerate(SERIES):  # the legend, over its column
            page.insert_text((200 + 110 * j, 215), name, fontsize=9)
        for j in range(len(SERIES)):  # the bars' numbers, one column after another
            for i, row in enumerate(VALUES):
                page.insert_text((215 + 110 * j, 240 + 20 * i), f"{row[j]}" + ("%" if i == 0 else ""), fontsize=9)
        for i, name in enumerate(GROUPS):  # then the categories' names
            page.insert_text((80, 240 + 20 * i), name, fontsize=9)
    return doc.tobytes()


def test_the_page_text_carries_each_row_of_the_chart_once_rejoined():
    doc = indexer.build_index(_survey(), "survey.pdf")
    lines = doc.page(2).text.splitlines()
    assert "Hispanic 53 33 11" in lines and "Ages 18-29 58 30 9" in lines and "Total 46% 38% 13%" in lines
    at = lines.index("Total 46% 38% 13%")
    assert lines[at - 3:at] == SERIES  # the legend, as the columns' names
    assert sum(line.startswith("Hispanic") for line in lines) == 2  # the name as printed, and its row
    assert not any(PROSE[:30] in line and "53" in line for line in lines)  # running text is no row's label


def test_a_question_about_one_group_is_answered_from_its_row(df_of):
    doc = indexer.build_index(_survey(), "survey.pdf")
    question = "What percentage of Hispanic adults say the U.S. can learn a great deal from other countries?"
    ex = extractive_answer(doc, question, [2, 1, 3], df_of(doc))
    assert ex.direct is not None and "53" in ex.direct.text and "46" not in ex.direct.text, ex.direct
    other = "What percentage of adults aged 18-29 say the U.S. can learn not too much from other countries?"
    ex = extractive_answer(doc, other, [2, 1, 3], df_of(doc))
    assert ex.direct is not None and ": 9 " in ex.direct.text and "Not too much" in ex.direct.text, ex.direct


def test_a_table_read_row_by_row_is_not_written_again():
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((60, 80), "Consolidated Statements of Income (in millions)", fontsize=12)
    for i, (label, a, b) in enumerate([("Net sales", "34,229", "35,355"), ("Cost of sales", "19,232", "18,795"),
                                       ("Operating income", "6,539", "7,369"), ("Net income", "5,777", "5,921")]):
        for x, text in ((60, label), (300, a), (400, b)):  # each row's cells one after another
            page.insert_text((x, 120 + 20 * i), text, fontsize=10)
    text = indexer.build_index(doc.tobytes(), "statement.pdf").page(1).text
    assert text.count("Net sales") == 1 and text.count("34,229") == 1, text
