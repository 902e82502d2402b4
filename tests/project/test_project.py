"""The project's promises about itself: README commands, CI script, requirements, layout rules."""
from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text("utf-8")
STDLIB = set(sys.stdlib_module_names)
# import name -> distribution name, where they differ
DIST = {"pymupdf": "pymupdf", "PIL": "pillow", "Stemmer": "PyStemmer", "streamlit_agraph": "streamlit-agraph",
        "pytest_timeout": "pytest-timeout", "pptx": "python-pptx", "markdown_it": "markdown-it-py", "docx": "python-docx"}


def _bash_blocks(text: str) -> list[str]:
    return re.findall(r"```bash\n(.*?)```", text, flags=re.S)


def _readme_commands() -> tuple[str, str]:
    blocks = _bash_blocks(README)
    run = next(b.strip() for b in blocks if "streamlit run app.py" in b)
    test = next(b.strip() for b in blocks if "pytest" in b and "\n" not in b.strip())
    return run, test


def _pins(name: str) -> dict[str, str]:
    pins = {}
    for line in (ROOT / name).read_text("utf-8").splitlines():
        line = line.split("#")[0].strip()
        if not line or line.startswith("-r"):
            continue
        assert "==" in line, f"{name}: {line!r} is not pinned"
        dist, version = line.split("==")
        pins[dist.strip().lower()] = version.strip()
    return pins


def _third_party_imports(paths: list[Path]) -> set[str]:
    local = {"alphasearch", "pages"} | {p.stem for p in (ROOT / "tests").glob("*.py")} \
        | {p.stem for p in (ROOT / "benchmarks").glob("*.py")}
    found = set()
    for path in paths:
        tree = ast.parse(path.read_text("utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for n in names:
                top = n.split(".")[0]
                if top not in STDLIB and top not in local and top != "__future__":
                    found.add(top)
    return found


def test_readme_has_the_two_commands_and_ci_runs_exactly_the_test_command():
    run, test = _readme_commands()
    assert "\n" not in run and "pip install -r requirements.txt" in run and run.endswith("streamlit run app.py")
    assert "pip install -r requirements-dev.txt" in test and test.endswith("-m pytest")
    ci = (ROOT / ".ci" / "run").read_text("utf-8")
    assert ci.startswith("#!/usr/bin/env bash") and "set -euo pipefail" in ci
    command_lines = [ln for ln in ci.splitlines() if "pytest" in ln and not ln.lstrip().startswith("#")
                     and "echo" not in ln]
    assert len(command_lines) == 1 and command_lines[0].startswith(test + " ")
    assert "apt-get install -y" in ci and "chromium" in ci and '-eq 5' in ci


def test_ci_script_is_executable_and_valid_bash():
    ci = ROOT / ".ci" / "run"
    assert ci.stat().st_mode & 0o111
    assert subprocess.run(["bash", "-n", str(ci)], capture_output=True).returncode == 0


def test_requirements_are_pinned_and_dev_includes_runtime():
    runtime, dev = _pins("requirements.txt"), _pins("requirements-dev.txt")
    for needed in ("streamlit", "openai", "pymupdf", "pandas", "plotly", "streamlit-agraph", "diskcache",
                   "bm25s", "pystemmer", "wordllama"):
        assert needed in runtime
    assert {"pytest", "pytest-timeout"} <= set(dev)
    assert "-r requirements.txt" in (ROOT / "requirements-dev.txt").read_text("utf-8")
    assert not set(runtime) & set(dev)  # test tools kept apart, nothing pinned twice


def test_every_third_party_import_is_a_requirement():
    runtime = set(_pins("requirements.txt"))
    optional = set(_pins("requirements-ray.txt"))  # imported only when a cluster is asked for
    assert optional == {"ray"} and "-r requirements-ray.txt" in (ROOT / "requirements-dev.txt").read_text("utf-8")
    dev = runtime | optional | set(_pins("requirements-dev.txt"))
    product = [*(ROOT / "alphasearch").rglob("*.py"), *(ROOT / "pages").glob("*.py"), ROOT / "app.py"]
    product = [p for p in product if p.exists()]
    for top in _third_party_imports(product):
        where = runtime | optional if top == "ray" else runtime
        assert DIST.get(top, top).lower().replace("_", "-") in where, f"{top} is imported but not in requirements.txt"
    for top in _third_party_imports(list((ROOT / "tests").glob("*.py"))):
        assert DIST.get(top, top).lower().replace("_", "-") in dev, f"{top} is imported by tests but not required"


def test_only_the_pdf_package_imports_pymupdf_and_the_engine_never_imports_streamlit():
    for path in (ROOT / "alphasearch").rglob("*.py"):
        imports = _third_party_imports([path])
        if path.parent.name != "pdf":
            assert "pymupdf" not in imports and "fitz" not in imports, path.name
        assert "streamlit" not in imports, path.name
        if "api" not in path.relative_to(ROOT / "alphasearch").parts:  # the web framework only in the API's face
            assert not imports & {"fastapi", "starlette", "uvicorn", "mcp", "pydantic"}, path.name


def test_the_eval_set_is_never_copied_into_the_repository():
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True).stdout.split()
    assert not [f for f in tracked if f.endswith(".pdf")]
    assert "questions.jsonl" not in {Path(f).name for f in tracked}
