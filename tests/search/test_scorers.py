"""Offline scorers on tiny literal documents: page evidence, question-weighted features, sections."""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from alphasearch.models import DocumentIndex, Page, Section
from alphasearch.search.scorers import HybridScorer, LexicalScorer, PriorScorer, TitleScorer, make_scorer
from alphasearch.index.folios import page_label, page_labels
from alphasearch.index.ranker import PageRanker, names_page, statement_kind
from alphasearch.lang.questions import caption_refs, page_refs, positional_refs, query_text, statements_needed

INCOME = ("Acme Corp\nConsolidated Statements of Operations\n(In millions)\n2023 2022\nNet sales 1,200 1,100\n"
          "Cost of sales 700 650\nGross profit 500 450\nNet income 120 100\n")
BALANCE = ("Acme Corp\nConsolidated Balance Sheets\n(In millions)\n2023 2022\nCash 50 40\nInventories 300 280\n"
           "Total assets 2,000 1,900\nAccounts payable 150 140\n")
CASH = ("Acme Corp\nConsolidated Statements of Cash Flows\n2023 2022\nNet income 120 100\nDepreciation 40 38\n"
        "Purchases of property and equipment (90) (80)\nDividends paid (20) (18)\n")
TEXT = [
    "Our history. Acme was founded in 1950 by Jane Doe in Springfield to build garden tools.\n1",
    "Risk factors. Competition in garden tools is intense and weather affects demand for our products.\n2",
    "Management discussion. Net sales grew because of strong demand for shovels and rakes in spring.\n3",
]


def make_doc(texts, headings=None, root=None) -> DocumentIndex:
    pages = tuple(Page(i + 1, t, tuple((headings or {}).get(i + 1, ()))) for i, t in enumerate(texts))
    n = len(pages)
    root = root or Section("0000", "Doc", (1, n), children=tuple(
        Section(f"{i:04d}", f"Part {i}", (i, i)) for i in range(1, n + 1)))
    return DocumentIndex(doc_id="0" * 64, name="acme.pdf", page_count=n, root=root, pages=pages)


@pytest.fixture(scope="module")
def acme() -> DocumentIndex:
    return make_doc(TEXT + [INCOME, BALANCE, CASH])


def test_page_scores_in_unit_range_and_best_page_first(acme):
    ranker = PageRanker(acme)
    s = ranker.scores("Who founded Acme and in which year?")
    assert s.shape == (6,) and float(s.max()) == 1.0 and float(s.min()) >= 0.0
    assert int(np.argmax(s)) == 0
    assert ranker.scores("Who founded Acme and in which year?") is s  # cached per question


def test_question_with_no_known_terms_scores_zero(acme):
    assert float(PageRanker(acme).scores("xylophone quasar").max()) == 0.0


def test_statement_pages_detected(acme):
    ranker = PageRanker(acme)
    assert ranker.kinds == ["", "", "", "income", "balance", "cashflow"]
    assert statement_kind(INCOME, 0.05) == ""  # too few figures: prose that names a statement
    index = "Index\nConsolidated Statements of Operations 45\nConsolidated Balance Sheets 46\n1 2 3 4 5 6 7 8 9"
    assert statement_kind(index, 0.5) == ""  # several statement titles: an index page


def test_a_code_misread_by_ocr_still_finds_its_scanned_page():
    """Tesseract reads the code AR01 of a scanned table as "AROI": the page still answers a question naming AR01,
    and only on a page OCR read (a born-digital page printing "AROI" is not taken for one holding AR01)."""
    texts = ["EPS Geographic Market Name Code (each market's name by its code) New Mexico Albuquerque NMO1",
             "EPS Geographic Market Name Code Arkansas Little Rock AROI Northern Arkansas ARO2"]
    question = "What's the geographic market name for EPS Code AR01?"
    scanned = PageRanker(dataclasses.replace(make_doc(texts), ocr_pages=(1, 2))).scores(question)
    assert scanned[1] > scanned[0]
    typed = PageRanker(make_doc(texts)).scores(question)
    assert typed[1] < typed[0]


def test_a_lone_word_ocr_took_for_a_heading_does_not_lift_its_page():
    """OCR sizes each word on its own: a table's column header ("Year") read as a heading is no title. On a page OCR
    read it adds no heading evidence; set as a heading on a born-digital page it does."""
    texts = ["Year Agency Budget Actual 2004 2005 2006 figures by agency and program",
             "Performance goals: the last fiscal year in the plan is 2008, with targets for each program"]
    question = "What is the last fiscal year in the plan?"
    headed = make_doc(texts, headings={1: ("Year",)})
    scanned = PageRanker(dataclasses.replace(headed, ocr_pages=(1, 2))).scores(question)
    typed = PageRanker(headed).scores(question)
    assert scanned[1] > scanned[0] and typed[0] - typed[1] > scanned[0] - scanned[1]


def test_a_statement_set_with_dot_leaders_is_a_statement():
    """AMD prints its statements with dot leaders (". . . . $ 4,835"): each dot is a token of its own, so the page's
    share of figures looked like prose and its balance sheet was not taken for one."""
    leaders = " . . . . . . . . . . . . . . . . . . . . . . . . . . . "
    sheet = ("Advanced Micro Devices, Inc.\nConsolidated Balance Sheets\nDecember 31, 2022 December 25, 2021\n"
             + "\n".join(f"{label}{leaders}$ {a} $ {b}" for label, a, b in (
                 ("Cash and cash equivalents", "4,835", "2,535"), ("Short-term investments", "1,020", "1,073"),
                 ("Accounts receivable, net", "4,126", "2,706"), ("Total assets", "67,580", "12,419"))))
    ranker = PageRanker(make_doc(TEXT + [sheet]))
    assert ranker.kinds[3] == "balance"
    assert int(np.argmax(ranker.scores("What were AMD's total assets at the end of 2022?"))) == 3


@pytest.mark.parametrize("question, needs", [
    ("What is the FY2023 inventory turnover ratio?", {"income", "balance"}),
    ("What was capital expenditure in 2023?", {"cashflow"}),
    ("What is the cash_ratio in FY2021?", {"balance"}),
    ("Based on the balance sheet, what is total debt?", {"balance"}),
    ("Who founded the company?", set()),
])
def test_statements_needed(question, needs):
    assert statements_needed(question) == needs


def test_needed_statement_is_ranked_first(acme):
    ranker = PageRanker(acme)
    top = lambda q: int(np.argmax(ranker.scores(q))) + 1  # noqa: E731
    assert top("What is the FY2023 capital expenditure for Acme?") == 6
    assert top("What is Acme's days payable outstanding in FY2023?") in (4, 5)
    assert top("Who founded Acme?") == 1


def test_page_references():
    assert page_refs("How many cats are on page 5?") == [5]
    assert page_refs("What models are introduced on pages 10 and 11?") == [10, 11]
    assert page_refs("What date is at the beginning of page(1)?") == [1]
    assert page_refs("What is the revenue?") == []
    assert positional_refs("What color is the car on the cover?", 20) == [1]
    assert positional_refs("How many websites are on the cover page?", 20) == [1]
    assert positional_refs("What does the warranty cover?", 20) == []  # the verb
    assert positional_refs("What does the policy cover in a flood?", 20) == []
    assert positional_refs("Is there a signature on the last page?", 20) == [20]
    assert positional_refs("In the figure at the second last page, who stands?", 20) == [19]
    assert caption_refs("How many bars are in Figure 3?") == [("figure", "3")]
    assert caption_refs("What is in the first figure of the paper?") == [("figure", "1")]
    assert caption_refs("How many weaknesses are in Appendix E?") == [("appendix", "e")]
    assert page_label("Title\nbody text\n17") == 17
    assert page_label("Page 4 of 9\nbody") == 4
    assert page_label("no number here\nat all") is None


def test_named_page_found_by_printed_label():
    # physical page 3 carries the printed label "1" (two cover pages before it)
    texts = ["Cover", "Contents", "Intro text about garden tools\n1", "More text about rakes\n2"]
    ranker = PageRanker(make_doc(texts))
    assert int(np.argmax(ranker.scores("What tool is shown on page 1?"))) + 1 == 3


def test_a_page_named_by_position_comes_first_however_well_another_page_matches():
    """The cover has few words; a later page matches the question's words better. Named by position,
    the cover comes first (it did not with the boost a page number gets)."""
    texts = ["Harbour Logistics 2024",
             "The car fleet grew: each car is painted in the company colour, and car colour is chosen by the depot.",
             "Outlook for the year.", "Contact details."]
    doc = make_doc(texts)
    assert int(np.argmax(PageRanker(doc).scores("What colour is the car?"))) + 1 == 2
    s = PageRanker(doc).scores("What colour is the car on the cover?")
    assert int(np.argmax(s)) + 1 == 1 and float(s.max()) <= 1.0
    last = PageRanker(doc).scores("What colour is the car on the last page?")
    assert int(np.argmax(last)) + 1 == 4


def test_caption_reference_ranks_the_captioned_page():
    texts = ["Results overview of the study.", "Figure 1: bars of accuracy per model\nmodels compared",
             "Table 2: accuracy per model\nmodels compared"]
    ranker = PageRanker(make_doc(texts))
    assert int(np.argmax(ranker.scores("How many bars are in Figure 1 comparing models?"))) + 1 == 2
    assert int(np.argmax(ranker.scores("What does Table 2 compare across models?"))) + 1 == 3


def test_headings_count_as_evidence():
    texts = ["General remarks on many things.", "General remarks on other things."]
    doc = make_doc(texts, headings={2: ("Warranty",)})
    assert int(np.argmax(PageRanker(doc).scores("What does the warranty cover?"))) + 1 == 2


def test_section_scores_aggregate_pages(acme):
    root = Section("0000", "Doc", (1, 6), children=(Section("0001", "Story", (1, 3)),
                                                   Section("0002", "Statements", (4, 6))))
    doc = make_doc(TEXT + [INCOME, BALANCE, CASH], root=root)
    lex = LexicalScorer(doc)
    story, statements = lex.score("What was capital expenditure in 2023?", root.children)
    assert statements > story and 0.0 <= story <= 1.0 and statements <= 1.0
    hybrid = HybridScorer(doc).score("What was capital expenditure in 2023?", root.children)
    assert hybrid[1] > hybrid[0] and all(0.0 <= v <= 1.0 for v in hybrid)


def test_title_and_prior_scorers():
    root = Section("0000", "Doc", (1, 2), children=(Section("0001", "Warranty terms", (1, 1), summary="Repairs."),
                                                   Section("0002", "Shipping", (2, 2), summary="Delivery times.")))
    doc = make_doc(["a", "b"], root=root)
    assert TitleScorer(doc).score("What do the warranty terms say?", root.children) == [1.0, 0.0]
    prior = PriorScorer(doc).score("What do the warranty terms say?", root.children)
    assert prior[0] > prior[1] >= 0.0
    assert PriorScorer(doc, embedding_weight=0.0).score("What do the warranty terms say?", root.children)[1] == 0.0


def test_the_prior_ranks_sections_worded_differently_from_the_question():
    """No title shares a word with the question: the terms give both 0, the embedding tells them apart."""
    root = Section("0000", "Doc", (1, 2), children=(Section("0001", "Shipping", (1, 1), summary="Delivery times."),
                                                   Section("0002", "Warranty terms", (2, 2), summary="Repairs.")))
    doc = make_doc(["a", "b"], root=root)
    question = "How long is the guarantee if the device breaks?"
    assert PriorScorer(doc, embedding_weight=0.0).score(question, root.children) == [0.0, 0.0]
    shipping, warranty = PriorScorer(doc).score(question, root.children)
    assert warranty > shipping


def test_make_scorer_by_name(acme):
    assert isinstance(make_scorer("lexical", acme), LexicalScorer)
    with pytest.raises(ValueError, match="hybrid, lexical"):
        make_scorer("oracle", acme)



def test_question_words_are_not_topic_terms():
    from alphasearch.lang.text import terms

    assert terms("How many employees did the company have?") == ["employ", "compani"]
    assert "employ" in terms("They employed 315,000 people")  # employees and employed share a term


# --- saved rankers -----------------------------------------------------------------------
def test_a_saved_ranker_loads_with_the_same_scores_and_features(acme, tmp_path):
    built = PageRanker(acme)
    built.save(tmp_path / "r")
    loaded = PageRanker.load(acme, tmp_path / "r")
    for q in ("Who founded Acme and in which year?", "What was net income in 2023?", "page 2 risk factors"):
        assert np.allclose(loaded.scores(q), built.scores(q))
    assert (loaded.kinds, loaded.labels, loaded.df) == (built.kinds, built.labels, built.df)


def test_a_saved_ranker_of_another_document_is_refused(acme, tmp_path):
    PageRanker(make_doc(TEXT)).save(tmp_path / "r")
    with pytest.raises(ValueError):
        PageRanker.load(acme, tmp_path / "r")


def test_engine_saves_rankers_and_a_new_process_loads_instead_of_rebuilding(data_dir, sample_pdf, monkeypatch):
    from alphasearch import Engine, Settings

    q = "What was total revenue in 2023?"
    first = Engine(Settings(data_dir=data_dir, engine="offline"))
    doc = first.index_bytes(sample_pdf, "sample.pdf")
    expected = first.ask_document(doc, q, seed=1)
    saved = first.rankers.root / first.rankers.key(doc)
    assert saved.is_dir() and (saved / "ranker.json").is_file()

    def no_rebuild(self, doc):
        raise AssertionError("the saved ranker should have been loaded")

    monkeypatch.setattr(PageRanker, "__init__", no_rebuild)
    again = Engine(Settings(data_dir=data_dir, engine="offline")).ask_document(doc, q, seed=1)
    assert (again.text, again.pages, again.confidence) == (expected.text, expected.pages, expected.confidence)
    monkeypatch.undo()

    (saved / "ranker.json").write_text("{not json", "utf-8")  # damaged: rebuilt and saved again
    repaired = Engine(Settings(data_dir=data_dir, engine="offline")).ask_document(doc, q, seed=1)
    assert repaired.pages == expected.pages
    assert PageRanker.load(doc, saved).scores(q).shape == (doc.page_count,)


def test_a_section_titled_for_the_question_outranks_one_that_mentions_it_more():
    """The section judge gives the section's own title weight 0.3: the page evidence favours
    'Service visits' (its page repeats the words), the title 'Warranty terms' names the
    question; with the former weight 0.15 the service visits won."""
    texts = ["Service visits. The warranty terms are printed on the back of the invoice; ask the service desk "
             "about warranty terms and repair times. Warranty terms differ by region.",
             "Coverage lasts two years from delivery and includes parts and labour. The warranty ends if the seal "
             "is broken."]
    root = Section("0000", "Doc", (1, 2), children=(Section("0001", "Service visits", (1, 1)),
                                                   Section("0002", "Warranty terms", (2, 2))))
    doc = make_doc(texts, root=root)
    question = "What are the warranty terms?"
    lexical = LexicalScorer(doc).score(question, root.children)
    assert lexical[0] > lexical[1]  # the pages alone point at the service visits
    service, warranty = HybridScorer(doc).score(question, root.children)
    assert warranty > service
    old_service, old_warranty = HybridScorer(doc, weights=(0.85, 0.15, 0.0)).score(question, root.children)
    assert old_service > old_warranty


def test_printed_labels_in_running_footers(engine, make_pdf):
    # a brochure printed as spreads: each PDF page after the cover holds two printed pages, numbered in
    # running footers ("4  Riverside Handbook", "Riverside Handbook  5"); a question about "page 7"
    # means the PDF page holding printed page 7 (PDF page 4), not PDF page 7
    topics = ["apples", "pears", "plums", "cherries", "quinces", "apricots", "peaches"]
    pages = [["Riverside Handbook", "A guide for members."]]
    for i, fruit in enumerate(topics, start=1):
        left, right = 2 * i, 2 * i + 1
        pages.append([f"Growing {fruit}", f"How we prune and harvest {fruit} in the orchard every season.",
                      f"{left}  Riverside Handbook", f"Riverside Handbook  {right}"])
    doc = engine.index_bytes(make_pdf(pages), "handbook.pdf")
    texts = [p.text for p in doc.pages]
    labels = page_labels(texts)
    assert labels[0] == () and set(labels[3]) == {6, 7} and set(labels[7]) == {14, 15}
    ranker = PageRanker(doc)
    assert int(np.argmax(ranker.scores("How many trees are shown on page 7?"))) + 1 == 4
    assert int(np.argmax(ranker.scores("What is shown on page 12?"))) + 1 == 7
    # the answer's confidence sees the same printed numbers
    assert names_page("How many trees are on page 7?", 4, 8, texts[3], labels=labels[3])
    assert not names_page("How many trees are on page 7?", 4, 8, texts[3])  # from its text alone: no


def test_numbers_at_line_ends_that_are_not_page_numbers():
    # a heading ending in a number ("Note 12"), a table row ("Net income 245") and a number alone
    # in parentheses or dashes; only the last two are printed page numbers
    assert page_label("Body text\n(1)") == 1 and page_label("- 3 -\nBody text") == 3
    texts = [f"Note {i}\nSome accounting policy text.\nNet income {n}" for i, n in enumerate([245, 310, 388, 402, 517])]
    assert page_labels(texts) == [()] * 5  # "Note" names a note; "net income" recurs, growing faster than pages
    texts = [f"Body of page {i}.\nAnnual Report 2023 | {i + 10}" for i in range(1, 6)]
    assert page_labels(texts) == [(i + 10,) for i in range(1, 6)]
    # the same words ending in numbers that do not grow page after page: a recurring table row
    texts = [f"Body of page {i}.\nTotal members {n}" for i, n in enumerate([40, 12, 33, 7], start=1)]
    assert page_labels(texts) == [()] * 4


def test_a_statement_is_its_title_not_a_mention(engine, make_pdf):
    """A page is a primary statement when a line is the statement's title ("Consolidated Balance
    Sheets (Unaudited)", "U.S. GAAP Condensed Consolidated Statements of Income"); a note whose
    first lines mention the balance sheet, a column head ("Statement of Earnings Location") or
    an index listing every statement is none, though all are mostly figures."""
    rows = [f"Item {i} {100 + i} {90 + i}" for i in range(12)]
    pages = [
        ["Acme Corp", "Consolidated Balance Sheets (Unaudited)", "As of December 31, 2023 and 2022", *rows],
        ["U.S. GAAP Condensed Consolidated Statements of Income", "(in millions)", *rows],
        ["Intangible Assets", "Acquired intangibles, included in other assets on our consolidated balance sheets,",
         "consist of the following (in millions):", *rows],
        ["Amortization expense was as follows:", "Statement of Earnings Location", "Cost of sales", *rows],
        ["Index to Financial Statements", "Consolidated Statements of Operations 45",
         "Consolidated Balance Sheets 46", "Consolidated Statements of Cash Flows 47", *rows],
    ]
    doc = engine.index_bytes(make_pdf(pages), "statements.pdf")
    assert PageRanker(doc).kinds == ["balance", "income", "", "", ""]


def test_reasons_and_adjusted_measures_need_no_statement(engine, make_pdf):
    """The statement boost is for figures the statements print: a question asking what drove a
    change (its first sentence; "If not useful, explain why" asks no reason) or for an adjusted,
    non-GAAP measure ranks the page that discusses it above the income statement."""
    rows = ["Net sales 1,200 1,100", "Cost of sales 700 650", "Gross profit 500 450", "Operating income 150 160",
            "Interest expense 10 9", "Income tax 30 31", "Net income 110 120", "EBITDA 210 215"]
    pages = [
        ["Acme Corp", "Consolidated Statements of Income", "(In millions) 2023 2022", *rows],
        ["Results of operations", "Operating margin fell to 12.5% from 14.5% in 2022, driven by higher freight costs",
         "and lower prices of garden tools; the operating margin of the rake business held steady."],
        ["Non-GAAP measures", "Adjusted EBITDA was $260 million in 2023, before restructuring charges of $50 million.",
         "We use adjusted EBITDA to compare our businesses over time."],
    ]
    doc = engine.index_bytes(make_pdf(pages), "acme.pdf")
    ranker = PageRanker(doc)
    top = lambda q: int(np.argmax(ranker.scores(q))) + 1  # noqa: E731
    assert statements_needed("What was Acme's operating margin in 2023?") == {"income"}
    assert top("What was Acme's operating margin in 2023?") == 1
    assert statements_needed("What drove the operating margin change in 2023?") == frozenset()
    assert top("What drove the operating margin change in 2023?") == 2
    assert statements_needed("Is the operating margin improving? If not useful, explain why.") == {"income"}
    assert top("What was Acme's adjusted EBITDA in 2023?") == 3


def test_pages_named_in_words(engine, make_pdf):
    """'page three' is page 3 (its printed number, as 'page 3'), 'the first page' / 'the 4th
    slide' count pages from the start, 'the page at the second last' and 'the penultimate page'
    are the one before the last (the penultimate page was taken for the last)."""
    pages = [[f"Chapter {i}", f"How the cars of model {i} are built and tested, with photos of the cars."]
             for i in range(1, 7)]
    doc = engine.index_bytes(make_pdf(pages), "cars.pdf")
    ranker = PageRanker(doc)
    top = lambda q: int(np.argmax(ranker.scores(q))) + 1  # noqa: E731
    assert page_refs("How many cars appear on page three?") == [3] and top("How many cars appear on page three?") == 3
    assert page_refs("How many people appear on pages three and four?") == [3, 4]
    assert positional_refs("Who is named on the first page of the document?", 6) == [1]
    assert top("How many cars are shown on the 4th slide?") == 4
    assert positional_refs("In the figure at Page at the second last, how many cars?", 6) == [5]
    assert top("How many cars are on the penultimate page?") == 5
    assert page_refs("Which cars have three doors?") == [] and positional_refs("Is this the first model?", 6) == []


def test_a_question_about_a_picture_looks_at_pages_with_pictures(engine):
    """A page holds a picture of its own when an image of at least 150 x 150 pixels is on it and on
    few other pages: a logo on every page and a small icon are none. A question about what a map,
    photo or chart shows ranks the pages with pictures above one that only matches its words better;
    a question naming the page, or with no picture word, ranks as before."""
    from pdf_factory import picture_pdf

    pages = [["Company history", "Founded in 1950 by two brothers."],
             ["Products", "Garden tools, rakes and spades."],
             ["Regional offices", "Where we work."],
             ["Contact", "Write to the head office."],
             ["Regional offices", "The regional offices are North, South, East and West; each regional office "
                                  "serves the farms of its region."]]
    data = picture_pdf(pages, [((1, 2, 3, 4, 5), 200, 200),  # a logo on every page
                                         ((3,), 300, 200),  # the map
                                         ((4,), 40, 40)])  # an icon
    doc = engine.index_bytes(data, "offices.pdf")
    assert [p.pictures for p in doc.pages] == [0, 0, 1, 0, 0]
    ranker = PageRanker(doc)
    top = lambda q: int(np.argmax(ranker.scores(q))) + 1  # noqa: E731
    assert top("Which regional offices does the map show?") == 3
    assert top("Which regional offices are listed?") == 5  # no picture asked: the better text
    assert top("Which regional offices does the map on page 5 show?") == 5  # the page named


def test_words_naming_the_document_are_not_searched(engine, make_pdf):
    """'according to this report', 'in the paper' name the document, not what a page says: the page
    about the regulations comes first, not the page that talks about the report."""
    pages = [["About this report", "This report on the regulations was written by the inspectors. The report "
                                   "covers one visit; a report like this one is published every year."],
             ["Findings", "Two regulations were breached during the visit: staffing and safe care."],
             ["Contact", "Write to the head office for copies."]]
    doc = engine.index_bytes(make_pdf(pages), "inspection.pdf")
    ranker = PageRanker(doc)
    assert query_text("How many regulations are breached according to this report?").split() == [
        "How", "many", "regulations", "are", "breached", "according", "to", "?"]
    assert int(np.argmax(ranker.scores("Which regulations were breached according to this report?"))) + 1 == 2
    assert int(np.argmax(ranker.scores("Who wrote the inspectors' report?"))) + 1 == 1  # not after 'the'


def test_how_an_item_is_recorded_or_made_up_needs_no_statement(engine, make_pdf):
    """The balance sheet prints the inventories' total; how they are recorded, or what they are
    made of, is in the notes: such a question ranks the note above the statement."""
    rows = ["Cash 50 40", "Merchandise inventories 300 280", "Receivables 120 110", "Total assets 2,000 1,900",
            "Accounts payable 150 140", "Total liabilities 900 850"]
    pages = [["Acme Corp", "Consolidated Balance Sheets", "(In millions) 2023 2022", *rows],
             ["Merchandise inventories", "Merchandise inventories are recorded at the lower of cost or net "
              "realisable value; their components are finished goods and parts."]]
    doc = engine.index_bytes(make_pdf(pages), "acme.pdf")
    ranker = PageRanker(doc)
    top = lambda q: int(np.argmax(ranker.scores(q))) + 1  # noqa: E731
    assert top("What were Acme's merchandise inventories in 2023?") == 1
    assert statements_needed("How does Acme record merchandise inventories?") == frozenset()
    assert top("How does Acme record merchandise inventories?") == 2
    assert top("What are the components of Acme's merchandise inventories?") == 2
