"""Generated PDFs on distinct subjects, for folder-mode tests (routing, Phase 1, purge).

Each document has a cover and three chapters of plain prose; one sentence per
document is a unique planted fact. Page numbers are 1-based.
"""
from __future__ import annotations

from functools import lru_cache

from alphasearch.pdf import TextBlock, write_pdf

H = lambda t: TextBlock(t, 18, True)  # noqa: E731

TOPICS: dict[str, dict[str, list[tuple[str, str]]]] = {
    "Kitchen": {
        "bread-baking.pdf": [
            ("Sourdough Starter", "Feed the sourdough starter with rye flour and water every morning. A lively starter "
             "doubles in volume within six hours and smells pleasantly sour."),
            ("Kneading and Proofing", "Knead the dough for twelve minutes until it passes the windowpane test. Let it "
             "proof in a floured banneton overnight in the refrigerator."),
            ("Baking", "Bake the loaf in a preheated Dutch oven at 250 degrees Celsius for twenty minutes with the lid "
             "on. The oven at Marigold Bakery is named Big Bertha."),
        ],
        "soups-and-stews.pdf": [
            ("Stocks", "A chicken stock simmers for four hours with onions, carrots, celery and peppercorns. Skim the "
             "foam from the pot regularly."),
            ("Lentil Soup", "Red lentils cook in twenty minutes with cumin, garlic and tomato. Finish the soup with "
             "lemon juice and fresh coriander."),
            ("Beef Stew", "Brown the beef in batches, deglaze the casserole with red wine and braise it slowly with "
             "potatoes and thyme for three hours."),
        ],
    },
    "Astronomy": {
        "telescopes.pdf": [
            ("Refractors", "A refracting telescope gathers starlight with an objective lens. Apochromatic lenses reduce "
             "chromatic aberration around bright planets."),
            ("Reflectors", "A Newtonian reflector uses a parabolic primary mirror. Collimate the mirrors before every "
             "observing session of galaxies and nebulae."),
            ("Mounts", "An equatorial mount tracks stars across the night sky. The Kestrel Observatory dome houses a "
             "mirror 61 centimetres wide."),
        ],
        "planets.pdf": [
            ("Jupiter", "Jupiter is the largest planet of the solar system. Its Great Red Spot is an anticyclonic storm "
             "larger than Earth, and its moons orbit in resonance."),
            ("Saturn", "Saturn's rings are made of ice particles and rocky debris. The moon Titan has a thick nitrogen "
             "atmosphere and lakes of liquid methane."),
            ("Mars", "Mars has the tallest volcano in the solar system, Olympus Mons. Dust storms on the red planet "
             "can cover the whole globe for months."),
        ],
    },
    "Finance": {
        "annual-report-2024.pdf": [
            ("Financial Highlights", "Revenue in fiscal 2024 was 812 million dollars, up 9 percent. Operating margin "
             "improved to 14 percent on lower freight costs and higher prices."),
            ("Balance Sheet", "Total assets were 2.3 billion dollars and long-term debt was 640 million dollars. The "
             "company repurchased shares worth 55 million dollars."),
            ("Dividends", "The board declared a quarterly dividend of 0.42 dollars per share. Cash flow from operations "
             "funded capital expenditures of 97 million dollars."),
        ],
        "annual-report-2023.pdf": [
            ("Financial Highlights", "Revenue in fiscal 2023 was 745 million dollars, up 6 percent. Operating margin "
             "was 12 percent as freight costs stayed elevated."),
            ("Balance Sheet", "Total assets were 2.1 billion dollars and long-term debt was 700 million dollars at "
             "the end of fiscal 2023."),
            ("Dividends", "The quarterly dividend was 0.38 dollars per share. Capital expenditures were 88 million "
             "dollars, mostly new distribution warehouses."),
        ],
    },
}


def topic_pdf(title: str, chapters: list[tuple[str, str]]) -> bytes:
    pages = [[TextBlock(title, 24, True), f"This document is about {title.lower()}."]]
    for head, body in chapters:
        pages.append([H(head), body, body])
    return write_pdf(pages, title=title)


@lru_cache(maxsize=None)
def topic_pdfs() -> dict[str, dict[str, bytes]]:
    """Folder name → {file name → PDF bytes} (see TOPICS)."""
    return {folder: {name: topic_pdf(name.removesuffix(".pdf").replace("-", " ").title(), chapters)
                     for name, chapters in docs.items()}
            for folder, docs in TOPICS.items()}


def build_library(library, folders: tuple[str, ...] = tuple(TOPICS)) -> None:
    """Create the given topic folders in ``library`` and add their PDFs."""
    pdfs = topic_pdfs()
    for folder in folders:
        library.create_folder(folder)
        results = library.add_many(folder, list(pdfs[folder].items()))
        assert all(r.status == "indexed" for r in results), results


def tree_files(root) -> set[str]:
    """Every file path under ``root`` (relative, as strings)."""
    return {str(p.relative_to(root)) for p in root.rglob("*") if p.is_file()}
