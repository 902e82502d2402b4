"""Every hostile file of the reliability corpus (tests/hostile_cases.py) uploaded through HTTP: a file the
engine rejects gets its one-line error with its status (413 too large, 422 otherwise), a file it accepts
is indexed (with its warning), and the server goes on serving. One uvicorn server per distinct set of the
cases' limits (e.g. max_pages 4), each in a thread of this process over its own engine."""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

from api_helpers import AUTH, TOKEN, api_thread, assert_error
from hostile_cases import CASES
from alphasearch.config import Settings

pytestmark = pytest.mark.timeout(600)


def _groups() -> dict[tuple, list]:
    groups: dict[tuple, list] = {}
    for case in CASES:
        groups.setdefault(tuple(sorted(case.settings.items())), []).append(case)
    return groups


@pytest.mark.parametrize("limits", list(_groups()), ids=lambda k: ",".join(f"{a}={b}" for a, b in k) or "defaults")
def test_every_hostile_upload_gets_its_one_line_answer_and_the_server_keeps_serving(limits, tmp_path, sample_pdf):
    settings = Settings(data_dir=tmp_path, engine="offline", api_token=TOKEN, api_rate_limit=0,
                        api_wait_seconds=120, **dict(limits))
    with api_thread(settings) as url, httpx.Client(base_url=url, headers=AUTH, timeout=180) as client:

        def upload(case) -> None:
            r = client.post("/v1/documents",
                            files={"file": (f"{case.id}{case.suffix}", case.build(), "application/octet-stream")})
            if case.error is None:
                assert r.status_code == 201, (case.id, r.text[:300])
                assert r.json()["pages"] >= 1
                if case.warning:
                    assert any(case.warning in w for w in r.json()["warnings"]), (case.id, r.json()["warnings"])
            else:
                status = 413 if case.id == "too-large" else 422
                assert_error(r, status, case.message)
            assert client.get("/v1/health").status_code == 200, case.id

        with ThreadPoolExecutor(max_workers=2) as pool:  # two uploads at once, as the job pool takes them
            list(pool.map(upload, _groups()[limits]))
        if not any(case.settings.get("max_pages", 9) < 9 for case in _groups()[limits]):
            doc = client.post("/v1/documents", files={"file": ("sample.pdf", sample_pdf, "application/pdf")}).json()
            answer = client.post(f"/v1/documents/{doc['id']}/query", json={"question": "What was the revenue?"})
            assert answer.status_code == 200 and answer.json()["citations"]
