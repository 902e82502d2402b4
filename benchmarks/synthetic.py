"""A synthetic library for the scale benchmark: distinct generated reports, deterministic by seed.

Report ``i`` of seed ``s`` is always the same bytes. Each has an organisation with an
invented name, a year, a domain (of ten, each with its own vocabulary), 5-50 pages
(85% have 5-15), chapters with headings and an outline, sentences with figures, and
one planted fact (page and question known) so latency runs ask answerable questions.
"""
from __future__ import annotations

import random
import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from alphasearch.pdf import TextBlock, write_pdf  # noqa: E402

DOMAINS = {
    "energy": ("turbine grid substation megawatt outage tariff solar wind battery transmission "
               "emissions maintenance capacity feeder transformer").split(),
    "health": ("clinic patient ward nurse vaccination admission discharge pharmacy surgery "
               "outpatient triage referral screening bed staffing").split(),
    "transport": ("tram ferry bus depot timetable ridership fare route bridge signal platform "
                  "freight corridor junction fleet").split(),
    "education": ("school pupil teacher curriculum enrolment exam library tutoring scholarship "
                  "classroom attendance graduation campus lecture").split(),
    "water": ("reservoir pipeline leakage treatment sewer drainage pumping meter aquifer "
              "flood rainfall turbidity chlorine basin").split(),
    "housing": ("tenant rent dwelling construction permit renovation mortgage vacancy "
                "apartment insulation landlord zoning eviction estate").split(),
    "retail": ("store inventory margin customer checkout warehouse supplier promotion loyalty "
               "basket shrinkage footfall franchise pricing").split(),
    "mining": ("ore shaft tonnage smelter drilling assay tailings haulage excavation "
               "concentrate deposit royalty blasting ventilation").split(),
    "software": ("release server latency outage subscription churn deployment licence uptime "
                 "backlog sprint incident encryption api").split(),
    "agriculture": ("harvest yield orchard irrigation fertiliser livestock dairy grain silo "
                    "pasture tractor seedling drought cooperative").split(),
}
_SYL = "ka lo mi ra ven tor bel dun sar fen gri hal jor kel mar nor pel quin ros tam ul vor wen yar zel".split()
_SUFFIX = ["Holdings", "Group", "Authority", "Trust", "Cooperative", "Partners", "Council", "Works"]
_MONTHS = ("January February March April May June July August September October November December").split()
_VERBS = ["rose", "fell", "stayed flat", "doubled", "recovered", "slowed", "improved", "worsened"]
_CHAPTERS = ["Overview", "Operations", "Finances", "Risks", "Outlook", "Governance", "Staff", "Projects",
             "Customers", "Environment", "Investments", "Appendix"]
_FACT_KINDS = ["budget", "headcount", "incidents", "sites"]


@dataclass(frozen=True)
class Report:
    """One generated report: its file name, bytes, page count and planted fact."""

    name: str
    data: bytes
    pages: int
    question: str
    answer: str
    fact_page: int  # 1-based


def org_name(rng: random.Random) -> str:
    word = "".join(rng.choice(_SYL) for _ in range(rng.randint(2, 3))).capitalize()
    return f"{word} {rng.choice(_SUFFIX)}"


def _sentence(rng: random.Random, words: list[str], org: str, year: int) -> str:
    a, b, c = rng.sample(words, 3)
    forms = [
        f"In {rng.choice(_MONTHS)} {year} the {a} {b} {rng.choice(_VERBS)} by {rng.randint(2, 60)} percent.",
        f"{org} reported {rng.randint(3, 900)} {a} cases linked to {b} and {c}.",
        f"Spending on {a} reached {rng.uniform(0.5, 95):.1f} million, {rng.choice(['above', 'below', 'close to'])} "
        f"the {b} plan.",
        f"The {a} team reviewed {rng.randint(2, 80)} {b} sites and flagged {c} as the main concern.",
        f"Compared with {year - 1}, {a} {rng.choice(_VERBS)} while {b} {rng.choice(_VERBS)}.",
        f"A new {a} programme for {b} starts in {year + 1} with {rng.randint(5, 400)} staff.",
    ]
    return rng.choice(forms)


def file_name(i: int, seed: int = 0) -> str:
    """The file name of :func:`report` ``(i, seed)`` without building its PDF (same random draws)."""
    rng = random.Random(seed * 1_000_003 + i)
    domain = rng.choice(list(DOMAINS))
    rng.sample([w for d in DOMAINS.values() for w in d], 8)
    org = org_name(rng)
    return _file_name(org, rng.randint(2012, 2025), i)


def _file_name(org: str, year: int, i: int) -> str:
    return f"{org.replace(' ', '-').lower()}-{year}-{i:05d}.pdf"


def report(i: int, seed: int = 0) -> Report:
    """Report number ``i`` (distinct for every ``i``) of the library ``seed``."""
    rng = random.Random(seed * 1_000_003 + i)
    domain = rng.choice(list(DOMAINS))
    words = DOMAINS[domain] + rng.sample([w for d in DOMAINS.values() for w in d], 8)
    org = org_name(rng)
    year = rng.randint(2012, 2025)
    n = rng.randint(5, 15) if rng.random() < 0.85 else rng.randint(16, 50)
    chapters = rng.sample(_CHAPTERS, min(len(_CHAPTERS), max(2, n // 4)))
    per = max(1, n // len(chapters))
    fact_page = rng.randint(2, n)
    kind = rng.choice(_FACT_KINDS)
    value = f"{rng.randint(11, 989)},{rng.randint(100, 999)}"
    site = "".join(rng.choice(_SYL) for _ in range(3)).capitalize()
    fact = f"The {site} {kind} of {org} for {year} was {value}, as confirmed by the annual audit."
    question = f"What was the {site} {kind} of {org} for {year}?"
    pages, toc = [], []
    for p in range(n):
        blocks: list[TextBlock | str] = []
        if p == 0:
            blocks += [TextBlock(f"{org}: {domain.title()} Report {year}", 22, True),
                       f"Report number {seed}-{i}. Prepared by the {domain} office of {org}."]
        if p % per == 0 and p // per < len(chapters):
            title = chapters[p // per]
            blocks.append(TextBlock(title, 16, True))
            toc.append((1, title, p + 1))
        paras = [" ".join(_sentence(rng, words, org, year) for _ in range(rng.randint(3, 5)))
                 for _ in range(rng.randint(2, 4))]
        if p + 1 == fact_page:
            paras.insert(rng.randint(0, len(paras)), fact)
        blocks.append("\n".join(paras))  # one text box per page body: PyMuPDF's cost is per box
        pages.append(blocks)
    data = write_pdf(pages, toc=toc, title=f"{org} {domain} report {year}")
    return Report(_file_name(org, year, i), data, n, question, value, fact_page)
