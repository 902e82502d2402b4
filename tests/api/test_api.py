"""The HTTP API through a real ``python -m alphasearch serve`` on a free loopback port, with httpx: a
document from upload to a cited page's PNG, a folder from creation to a routed question and its
follow-up, answers as server-sent events, and every bad request's documented status in one line."""
from __future__ import annotations

import io
import subprocess
import sys

import httpx
import pytest
from PIL import Image

from api_helpers import AUTH, TOKEN, api_process, assert_error, events, wait_job, without_seconds
from app_helpers import ROOT
from folder_helpers import topic_pdf, topic_pdfs
from alphasearch.library.sample import SAMPLE_NAME, sample_pdf_bytes

QUESTION = "What was the total revenue in 2025?"
SAMPLE = sample_pdf_bytes()


@pytest.fixture(scope="module")
def url(tmp_path_factory):
    with api_process(tmp_path_factory.mktemp("api")) as u:
        yield u


@pytest.fixture
def client(url):
    with httpx.Client(base_url=url, headers=AUTH, timeout=60) as c:
        yield c


@pytest.fixture(scope="module")
def sample_id(url):
    with httpx.Client(base_url=url, headers=AUTH, timeout=60) as c:
        r = c.post("/v1/documents", files={"file": (SAMPLE_NAME, SAMPLE, "application/pdf")})
    assert r.status_code == 201, r.text
    return r.json()["id"]


def test_upload_then_query_then_the_cited_page_as_png(client, sample_id):
    again = client.post("/v1/documents", files={"file": (SAMPLE_NAME, SAMPLE, "application/pdf")})
    assert again.status_code == 201
    assert {k: again.json()[k] for k in ("id", "name", "pages")} == {"id": sample_id, "name": SAMPLE_NAME, "pages": 9}
    assert client.get(f"/v1/jobs/{again.json()['job']}").json()["status"] == "done"

    card = client.get(f"/v1/documents/{sample_id}").json()
    assert card["name"] == SAMPLE_NAME and card["pages"] == 9 and card["sections"] > 1 and card["outline"]
    tree = client.get(f"/v1/documents/{sample_id}/tree").json()
    assert tree["pages"] == [1, 9] and tree["children"]

    answer = client.post(f"/v1/documents/{sample_id}/query", json={"question": QUESTION}).json()
    assert "412.6" in answer["answer"] and not answer["fallback"] and answer["trace"] is None
    cite = answer["citations"][0]
    assert cite["doc"] == SAMPLE_NAME and cite["snippet"]
    traced = client.post(f"/v1/documents/{sample_id}/query?trace=true", json={"question": QUESTION}).json()
    assert traced["trace"]["nodes"] and traced["trace"]["steps"]
    assert without_seconds({**traced, "trace": None}) == without_seconds(answer)

    page = cite["pages"][0]
    plain = client.get(f"/v1/documents/{sample_id}/pages/{page}.png")
    marked = client.get(f"/v1/documents/{sample_id}/pages/{page}.png", params={"highlight": cite["snippet"]})
    assert plain.headers["content-type"] == marked.headers["content-type"] == "image/png"
    a, b = Image.open(io.BytesIO(plain.content)), Image.open(io.BytesIO(marked.content))
    assert a.size == b.size and a.size[0] > 500
    assert a.tobytes() != b.tobytes()  # the passage is highlighted
    assert_error(client.get(f"/v1/documents/{sample_id}/pages/99.png"), 404, "no page 99")


def test_a_slide_deck_is_uploaded_asked_and_its_slide_drawn(client):
    """Another format through HTTP: converted to PDF, asked, the cited slide drawn; an unread type is one line."""
    import format_factory

    deck = format_factory.pptx_bytes()
    r = client.post("/v1/documents", files={"file": ("deck.pptx", deck, "application/octet-stream")})
    assert r.status_code == 201, r.text
    doc = r.json()
    assert doc["name"] == "deck.pptx" and doc["pages"] == 3
    answer = client.post(f"/v1/documents/{doc['id']}/query",
                         json={"question": "What is the sales growth guidance for 2025?"}).json()
    cite = answer["citations"][0]
    assert "7%" in answer["answer"] and cite["section"] == "Slide 3: Outlook" and cite["pages"][0] == 3
    png = client.get(f"/v1/documents/{doc['id']}/pages/3.png")
    assert png.headers["content-type"] == "image/png" and Image.open(io.BytesIO(png.content)).size[0] > 500
    sheet = {"file": ("book.xlsx", b"PK\x03\x04" + bytes(64), "application/octet-stream")}
    assert_error(client.post("/v1/documents", files=sheet), 422, "book.xlsx is not a type AlphaSearch reads")


def test_delete_forgets_the_document(client, make_pdf):
    r = client.post("/v1/documents", files={"file": ("memo.pdf", make_pdf(["A memo about parking."]), "application/pdf")})
    doc = r.json()["id"]
    assert client.delete(f"/v1/documents/{doc}").json() == {"deleted": doc}
    assert_error(client.get(f"/v1/documents/{doc}"), 404, "no document")
    assert_error(client.delete(f"/v1/documents/{doc}"), 404)


COMETS = topic_pdf("Comets", [("Nucleus", "A comet's nucleus is a loose ball of ice and dust a few kilometres wide."),
                               ("Tails", "The ion tail points straight away from the Sun, pushed by the solar wind."),
                               ("Periodic Comets", "Halley's Comet returns every 76 years; it last passed in 1986.")])


def test_folder_add_job_routed_ask_and_a_follow_up_in_the_same_folder(client):
    pdfs = {**topic_pdfs(), "Astronomy": {**topic_pdfs()["Astronomy"], "comets.pdf": COMETS}}
    for folder in ("Astronomy", "Kitchen"):
        created = client.post("/v1/folders", json={"name": folder})
        assert created.status_code == 201 and created.json()["name"] == folder
        files = [("file", (name, data, "application/pdf")) for name, data in pdfs[folder].items()]
        started = client.post(f"/v1/folders/{folder}/documents", files=files)
        assert started.status_code == 202 and started.json()["job"]
        job = wait_job(client, started.json()["job"])
        assert job["status"] == "done", job
        assert [r["status"] for r in job["result"]] == ["indexed"] * len(files)
    assert {f["name"]: f["documents"] for f in client.get("/v1/folders").json()} == {"Astronomy": 3, "Kitchen": 2}
    assert_error(client.post("/v1/folders", json={"name": "Kitchen"}), 409)

    first = client.post("/v1/ask", json={"question": "How wide is the mirror in the Kestrel Observatory dome?",
                                         "conversation": "chat-api"}).json()
    assert first["folder"] == "Astronomy" and "61 centimetres" in first["answer"]
    assert first["citations"][0]["doc"] == "telescopes.pdf" and "folder_trace" not in first
    cite = first["citations"][0]
    png = client.get(f"/v1/folders/Astronomy/documents/{cite['doc']}/pages/{cite['pages'][0]}.png",
                     params={"highlight": cite["snippet"]})
    assert png.headers["content-type"] == "image/png" and png.content.startswith(b"\x89PNG")
    assert_error(client.get("/v1/folders/Astronomy/documents/nope.pdf/pages/1.png"), 404)
    follow = client.post("/v1/ask", json={"question": "and the other one?", "conversation": "chat-api"}).json()
    assert follow["folder"] == "Astronomy" and follow["routing"]["followup"]
    turns = client.get("/v1/conversations/chat-api").json()
    assert [t["role"] for t in turns] == ["user", "assistant", "user", "assistant"]

    named = client.post("/v1/folders/Kitchen/ask?trace=true", json={"question": "How long does the chicken stock simmer?"})
    assert named.json()["folder"] == "Kitchen" and named.json()["folder_trace"]["chosen"]
    facts = client.get("/v1/folders/Astronomy/facts").json()
    assert sorted(f["doc"] for f in facts) == sorted(pdfs["Astronomy"])

    renamed = client.patch("/v1/folders/Kitchen", json={"name": "Cooking"})
    assert renamed.json()["name"] == "Cooking"
    assert client.delete("/v1/folders/Cooking/documents/soups-and-stews.pdf").json()["name"] == "soups-and-stews.pdf"
    assert client.delete("/v1/folders/Cooking").json()["name"] == "Cooking"
    assert_error(client.get("/v1/folders/Cooking"), 404)


def test_an_answer_streams_as_events_ending_with_the_plain_answer_object(client, sample_id):
    plain = client.post(f"/v1/documents/{sample_id}/query", json={"question": QUESTION, "seed": 3}).json()
    seen = []
    with client.stream("POST", f"/v1/documents/{sample_id}/query", json={"question": QUESTION, "seed": 3},
                       headers={"Accept": "text/event-stream"}) as r:
        assert r.headers["content-type"].startswith("text/event-stream")
        for name, data in events(r):
            seen.append((name, data))
    names = [n for n, _ in seen]
    assert names[-1] == "answer" and set(names[:-1]) == {"progress"}
    steps = [d for n, d in seen if n == "progress"]
    assert [s["iteration"] for s in steps] == list(range(1, len(steps) + 1))
    assert all(s["label"] == SAMPLE_NAME and s["path"][0] == "0000" for s in steps)
    assert without_seconds(seen[-1][1]) == without_seconds(plain)


def test_a_folder_answer_streams_too(client):
    client.post("/v1/folders", json={"name": "Finance"})
    files = [("file", (n, d, "application/pdf")) for n, d in topic_pdfs()["Finance"].items()]
    assert wait_job(client, client.post("/v1/folders/Finance/documents", files=files).json()["job"])["status"] == "done"
    body = {"question": "What was the quarterly dividend per share in fiscal 2024?", "folder": "Finance"}
    with client.stream("POST", "/v1/ask", json=body, headers={"Accept": "text/event-stream"}) as r:
        seen = list(events(r))
    labels = {d["label"] for n, d in seen if n == "progress"}
    assert "documents" in labels and "annual-report-2024.pdf" in labels  # Phase 1, then the document's search
    assert seen[-1][0] == "answer" and "0.42" in seen[-1][1]["answer"]


def test_bad_requests_get_their_documented_status_in_one_line(url, client, sample_id):
    query = f"/v1/documents/{sample_id}/query"
    assert_error(client.post(query, content=b'{"question": "revenue?"', headers={"Content-Type": "application/json"}),
                 422, "not valid JSON")
    assert_error(client.post(query, json={"question": "x", "temperature": 2}), 422, "temperature")
    assert_error(client.post(query, json={}), 422, "question is missing")
    assert_error(client.post(query, json={"question": "revenue? " * 11_400}), 413, "the limit is 2,000")
    assert_error(client.post(query, content=b'{"question": "' + b"a" * 2_000_000 + b'"}',
                             headers={"Content-Type": "application/json"}), 413, "over the limit")
    with httpx.Client(base_url=url, timeout=30) as anonymous:
        assert_error(anonymous.get("/v1/folders"), 401, "Authorization: Bearer")
        assert_error(anonymous.post(query, json={"question": "revenue?"}), 401)
        assert_error(anonymous.get("/v1/folders", headers={"Authorization": "Bearer wrong-" + TOKEN}), 401, "wrong")
        assert anonymous.get("/v1/health").json()["auth"] is True  # health needs no token
    for path in ("/v1/documents/..%2F..%2Fetc%2Fpasswd", "/v1/documents/../../etc/passwd",
                 "/v1/documents/%2e%2e%2fcatalog.sqlite3/tree", "/v1/documents/" + "0" * 64,
                 "/v1/folders/nope", "/v1/jobs/nope", "/v1/nothing-here"):
        assert_error(client.get(path), 404)
    assert_error(client.post("/v1/documents/" + "f" * 64 + "/query", json={"question": "revenue?"}), 404, "no document")
    assert_error(client.post("/v1/ask", json={"question": "revenue?", "folder": "nope"}), 404)
    assert_error(client.post("/v1/documents", files={"wrong": ("a.pdf", b"%PDF-1.7", "application/pdf")}), 422,
                 "file is missing")
    assert client.get("/v1/health").status_code == 200  # still serving


def test_without_a_token_the_server_refuses_to_listen_beyond_loopback(tmp_path):
    env = {"ALPHASEARCH_DATA_DIR": str(tmp_path), "PATH": "/usr/bin:/bin"}
    r = subprocess.run([sys.executable, "-m", "alphasearch", "serve", "--host", "0.0.0.0", "--port", "9"],
                       cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.startswith("error: Refusing to listen on 0.0.0.0 without a token: set ALPHASEARCH_API_TOKEN")
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr


def test_a_callers_folder_add_takes_one_index_worker_at_a_time_and_its_job_says_where_it_waits(client):
    """The API's caller (its token) is one visitor (index/turns.py): the second of two scanned files waits for
    the first, and the job's progress says so while it waits."""
    import time

    from app_helpers import long_pdf
    from pdf_factory import scanned

    assert client.post("/v1/folders", json={"name": "Scans"}).status_code == 201
    files = [("file", (f"scan-{i}.pdf", scanned(long_pdf(12 + i)), "application/pdf")) for i in range(2)]
    job_id = client.post("/v1/folders/Scans/documents", files=files).json()["job"]
    stages, deadline = [], time.monotonic() + 300
    while time.monotonic() < deadline:
        job = client.get(f"/v1/jobs/{job_id}").raise_for_status().json()
        stages.append(job["progress"]["stage"])
        if job["status"] in ("done", "failed"):
            break
        time.sleep(1.0)  # within the rate limit
    assert job["status"] == "done" and [r["status"] for r in job["result"]] == ["indexed", "indexed"], job
    assert any(s.endswith("waiting for an index worker: next in line") for s in stages), sorted(set(stages))
