"""Paths from users and files stay inside their directory (issue 14, item 3)."""
from __future__ import annotations

import pytest

from alphasearch.errors import OutsideDirectoryError
from alphasearch.evaluation.paths import inside, inside_any


@pytest.mark.parametrize("name", ["../x.pdf", "/etc/passwd", "a/../../x.pdf", "", " ", "a\x00b.pdf", "link/x.pdf"])
def test_names_that_leave_the_directory_are_refused(tmp_path, name):
    root = tmp_path / "root"
    (root / "a").mkdir(parents=True)
    (root / "link").symlink_to(tmp_path)
    with pytest.raises(OutsideDirectoryError) as err:
        inside(root, name, what="PDF")
    assert "\n" not in str(err.value)


def test_names_inside_resolve(tmp_path):
    (tmp_path / "a").mkdir()
    assert inside(tmp_path, "a/../b.pdf") == (tmp_path / "b.pdf").resolve()
    assert inside(tmp_path, str(tmp_path / "a" / "c.pdf")) == (tmp_path / "a" / "c.pdf").resolve()


def test_inside_any_of_several_roots(tmp_path):
    one, two = tmp_path / "one", tmp_path / "two"
    one.mkdir(), two.mkdir()
    assert inside_any([one, two], str(two / "set")) == (two / "set").resolve()
    assert inside_any([one, two], str(one)) == one.resolve()
    with pytest.raises(OutsideDirectoryError, match="is not inside"):
        inside_any([one, two], str(tmp_path))
