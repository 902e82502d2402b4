"""The app's tests (AppTest and a real browser) wait for conditions, each under a generous ceiling; on a machine
busy with other work a whole test may take several times as long as on a quiet one, so their per-test limit is
raised from pytest.ini's 180 s."""
from __future__ import annotations

from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
APP_TEST_SECONDS = 900


def pytest_collection_modifyitems(items):
    for item in items:
        marker = item.get_closest_marker("timeout")
        if HERE in Path(str(item.fspath)).resolve().parents and (marker is None or marker.args[0] < APP_TEST_SECONDS):
            item.add_marker(pytest.mark.timeout(APP_TEST_SECONDS))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """Each phase's report on the test item (``item.rep_call``), so a fixture can tell that its test failed."""
    outcome = yield
    rep = outcome.get_result()
    setattr(item, f"rep_{rep.when}", rep)
