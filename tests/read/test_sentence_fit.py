"""A sentence leads as the direct answer to a figure question only when it holds enough of what is asked
(alphasearch/answer/extractive.py ``SENTENCE_MIN_FIT``): a survey's methods sentence ("conducted June 16 to
July 14, 2020, among 1,003 adults") was stated first for what share of Republicans rate China's response good."""
from __future__ import annotations

import pdf_factory
from alphasearch.answer.extractive import extractive_answer
from alphasearch.index import indexer

METHODS = ("These are among the findings of a new survey by Harbor Research Center, conducted June 16 to July 14, "
           "2020, among 1,003 adults in the United States.")
TITLE = "Americans fault China for its role in the spread of the pandemic"
RIGHT = "About 15% of Republicans and Republican-leaning independents say China has done a good job on the pandemic."


def _report(with_answer: bool) -> bytes:
    first = [TITLE, METHODS, "Republicans are more critical than Democrats."] + ([RIGHT] if with_answer else [])
    return pdf_factory.make_pdf([first, ["Most adults follow the news about the outbreak closely."]])


def test_a_sentence_about_something_else_is_not_the_direct_answer(df_of):
    doc = indexer.build_index(_report(False), "survey.pdf")
    question = "What percentage of Republicans rate China's response to the pandemic as good?"
    ex = extractive_answer(doc, question, [1, 2], df_of(doc))
    assert ex.direct is None or "survey" not in ex.direct.text, ex.direct
    # no line states the figure asked: the answer says so, and the closest passages are shown as what was read
    assert ex.fallback and "No line of the pages read states the figure asked" in ex.text, ex.text
    assert any("1,003" in p["text"] for p in ex.structured["looked_at"]["passages"]), ex.structured["looked_at"]


def test_a_sentence_that_says_what_is_asked_still_leads(df_of):
    doc = indexer.build_index(_report(True), "survey.pdf")
    question = "What percentage of Republicans rate China's response to the pandemic as good?"
    ex = extractive_answer(doc, question, [1, 2], df_of(doc))
    assert ex.direct is not None and "15%" in ex.direct.text, ex.direct


STORES = ["Harbor Retail", "At the end of fiscal 2022 we operated 2,130 locations across the United States.",
          "Our stores average 40,000 square feet.", "We plan to open new stores in 2023."]


def test_a_count_named_in_other_words_still_answers(df_of):
    """A document names what it counts in its own words: "2,130 locations" answers how many stores, though the
    document also says "stores" (a check that the line name the thing counted, tried in the ninth session, dropped
    such answers, and "participants" for patients, "branch offices" for branches; it was not kept)."""
    doc = indexer.build_index(pdf_factory.make_pdf([STORES]), "stores.pdf")
    ex = extractive_answer(doc, "How many stores did Harbor Retail operate at the end of fiscal 2022?", [1], df_of(doc))
    assert ex.direct is not None and "2,130 locations" in ex.direct.text, ex.direct


WAREHOUSES = [["Harbor Club annual report", "Item 7 - Management's Discussion and Analysis of Financial Condition and "
               "Results of Operations (amounts in millions, except per share, membership fee, and warehouse count data)",
               "Membership fees rose with the number of paid members."],
              ["Item 2. Properties", "At August 29, 2021, Harbor Club operated 815 warehouses worldwide: 564 in the "
               "United States and 251 in other countries."]]


def test_a_count_asked_as_the_number_or_the_count_of_things_is_read_like_how_many(df_of):
    """"What was Costco's count of membership warehouses in operation?" was answered by the heading "Item 7 - …
    warehouse count data" of the page read: "count of" asked no number, and "number" or "count" in a question is
    its form, not its topic, like "how many". A count is looked for on the other pages when the pages read state
    none."""
    doc = indexer.build_index(pdf_factory.make_pdf(WAREHOUSES), "warehouses.pdf")
    for question in ("What was Harbor Club's count of membership warehouses in operation in 2021?",
                     "What was the number of membership warehouses Harbor Club had in operation in 2021?",
                     "How many membership warehouses did Harbor Club operate in 2021?"):
        ex = extractive_answer(doc, question, [1], df_of(doc))
        assert ex.direct is not None and "815 warehouses" in ex.direct.text, (question, ex.direct)


DEBT = [["Harbor Stores annual report", "Results of operations for fiscal 2022.",
         "Loss on extinguishment of debt was $2.4 billion in fiscal 2022 due to the early retirement of certain "
         "higher rate long-term debt to reduce interest expense in future periods.",
         "Net sales grew across every segment."]]


def test_a_figure_whose_cause_names_the_item_is_not_that_items_figure(df_of):
    """Walmart: "Loss on extinguishment of debt was $2.4 billion … due to the early retirement of … debt to reduce
    interest expense" holds "interest expense", but in the cause it gives; the $2.4 billion is the loss. It is no
    answer to what the interest expense was; the same sentence still answers what the loss was."""
    doc = indexer.build_index(pdf_factory.make_pdf(DEBT), "debt.pdf")
    ex = extractive_answer(doc, "What was Harbor Stores' interest expense in fiscal 2022?", [1], df_of(doc))
    assert ex.direct is None or "2.4 billion" not in ex.direct.text, ex.direct
    ex = extractive_answer(doc, "What was Harbor Stores' loss on extinguishment of debt in fiscal 2022?", [1], df_of(doc))
    assert ex.direct is not None and "2.4 billion" in ex.direct.text, ex.direct


PEOPLE = [["Harbor Foods annual report", "The Employer Identification Number assigned by the Internal Revenue Service "
           "to Harbor Foods is 36-2361282.", "Voluntary employees' beneficiary association reimbursements totaling $95 "
           "million are expected to be paid under the IRC 401(h) plan.", "Net sales grew across every segment."]]


def test_a_count_is_not_answered_by_an_identifier_an_amount_or_a_code(df_of):
    """"What was McDonald's headcount?" was answered by the cover's "Employer Identification Number … is 36-2361282",
    Pfizer's by "$95 million" of reimbursements: neither is a count. A line stating a count still answers."""
    from alphasearch.answer.shape import states_figure_asked

    question = "What was Harbor Foods' number of employees in 2022?"
    assert not any(states_figure_asked(question, line) for line in PEOPLE[0][1:3])
    assert states_figure_asked("How many dollars were reimbursed?", PEOPLE[0][2])  # an amount asked as "how many"
    assert states_figure_asked(question, "Walmart employs approximately 2.1 million associates.")
    # a clause's number is no count (eBay's bylaw "(1) owns 15% or more", CVS's plan "1.4 “Eligible Employee”")
    assert not states_figure_asked(question, "An interested stockholder is a person that (1) owns 15% or more of the "
                                             "outstanding voting stock or (2) is an affiliate (as defined in Section "
                                             "203) of the corporation.")
    assert not states_figure_asked(question, "1.4 “Eligible Employee” shall mean an individual employed on a regular "
                                             "basis.")
    counted = [[*PEOPLE[0], "As of December 31, 2022, Harbor Foods had approximately 36,000 employees globally."]]
    doc = indexer.build_index(pdf_factory.make_pdf(counted), "people2.pdf")
    ex = extractive_answer(doc, "How many employees did Harbor Foods have in 2022?", [1], df_of(doc))
    assert ex.direct is not None and "36,000 employees" in ex.direct.text, ex.direct


def test_a_year_before_the_cause_is_no_figure_of_it(df_of):
    """"In fiscal 2022, driven by our store remodel program, capital expenditures were $1.9 billion": the year dates
    the figure; the cause follows the year, not the figure, so the item's words still say what the figure is."""
    doc = indexer.build_index(pdf_factory.make_pdf([[
        "Harbor Stores annual report", "Results of operations for fiscal 2022.",
        "In fiscal 2022, driven by our store remodel program, capital expenditures were $1.9 billion.",
        "Net sales grew across every segment."]]), "capex.pdf")
    ex = extractive_answer(doc, "How much did Harbor Stores spend on capital expenditures in fiscal 2022?", [1],
                           df_of(doc))
    assert ex.direct is not None and "1.9 billion" in ex.direct.text, ex.direct
