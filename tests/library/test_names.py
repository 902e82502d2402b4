"""Names that print the same are one name (issue 31): invisible format characters (Unicode category Cf) are
removed from folder and document names, and names are compared after NFKC normalisation and case folding.
Before, "Reports", "Re\\u200bports", "Reports\\u200e" and "Rep\\ufefforts" were four folders."""
from __future__ import annotations

import unicodedata

import pytest

from alphasearch.errors import AlreadyExistsError, InvalidNameError
from alphasearch.library import Library, name_key, validate_name
from folder_helpers import topic_pdfs

BREAD = topic_pdfs()["Kitchen"]["bread-baking.pdf"]
SOUP = topic_pdfs()["Kitchen"]["soups-and-stews.pdf"]
LOOKALIKES = ["Re\u200bports", "Reports\u200e", "Rep\ufefforts", "\u2060Reports", "Re\u00adports", "REPORTS",
              "\uff32\uff45\uff50\uff4f\uff52\uff54\uff53"]  # zero-width space, LRM, BOM, word joiner, soft hyphen, case, full-width


@pytest.mark.parametrize("name", LOOKALIKES)
def test_names_that_print_alike_have_one_key(name):
    assert name_key(name) == name_key("Reports")
    shown = validate_name(name)
    assert not any(unicodedata.category(ch) == "Cf" for ch in shown)


def test_a_lookalike_folder_is_the_same_folder(data_dir):
    lib = Library(data_dir)
    lib.create_folder("Reports")
    for name in LOOKALIKES:
        with pytest.raises(AlreadyExistsError):
            lib.create_folder(name)
    assert [f.name for f in lib.folders()] == ["Reports"]
    lib.create_folder("Other")
    with pytest.raises(AlreadyExistsError):
        lib.rename_folder("Other", "Re\u200bports")
    assert lib.add("Re\u200bports", "bread.pdf", BREAD).status == "indexed"  # found by a lookalike too
    assert [d.name for d in lib.documents("Reports")] == ["bread.pdf"]


def test_a_lookalike_document_name_replaces_the_document(data_dir):
    lib = Library(data_dir)
    lib.create_folder("Kitchen")
    lib.add("Kitchen", "bread\u200b.pdf", BREAD)
    assert [d.name for d in lib.documents("Kitchen")] == ["bread.pdf"]
    assert lib.add("Kitchen", "BREAD\ufeff.pdf", SOUP).status == "replaced"
    assert len(lib.documents("Kitchen")) == 1


def test_direction_overrides_are_still_refused():
    with pytest.raises(InvalidNameError):
        validate_name("evil\u202etxt.pdf")
