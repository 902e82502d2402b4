from alphasearch.lang import glyphs


def test_a_code_and_its_ocr_misreadings_share_a_key():
    asked = glyphs.question_codes("What's the geographic market name for EPS Code AR01?")
    assert asked == ["~ar01"]
    for misread in ("AROI", "ARO1", "AROl", "AR0I"):
        assert glyphs.ocr_codes(f"Little Rock {misread}") == ["~ar01"], misread
    assert glyphs.ocr_codes("City of Houston TXI7 TXIG") == ["~tx17", "~tx16"]


def test_only_codes_get_keys():
    assert glyphs.question_codes("What was revenue in 2023, in $1,234 million?") == []  # numbers are no codes
    assert glyphs.ocr_codes("Little Rock ARKANSAS 2023 1,234") == []  # a long capital word, plain numbers
    assert glyphs.key("TOTAL") == "~t0ta1"  # a key no question's code will ask for: the word keeps its term
    assert glyphs.key("OIL") is None  # folds to digits only
