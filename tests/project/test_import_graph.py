"""The engine's import graph, read from the source with ``ast``: imports go one way, down the stages, and
no module imports itself back through others (imports inside functions count too)."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "alphasearch"

# Top to bottom. A module may import its own stage's modules and any stage below its own, never one above.
STAGES = (
    ("__main__", "cli", "api", "evaluation"),  # the faces inside the package (pages/ and app.py sit above them all)
    ("pipeline",),
    ("engines",),
    ("folder",),
    ("library",),
    ("answer",),
    ("search",),
    ("read",),
    ("index",),
    ("llm",),
    ("pdf",),
    ("lang",),
    ("config", "errors", "models", "data"),
)
RANK = {stage: rank for rank, names in enumerate(STAGES) for stage in names}
# What each stage is: the folder tree is the architecture diagram.
PACKAGES = {"cli", "api", "evaluation", "engines", "folder", "library", "answer", "search", "read", "index", "llm", "pdf",
            "lang"}
TOP_MODULES = {"__init__", "__main__", "config", "errors", "models", "pipeline"}


def _modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def _imports(path: Path, name: str, modules: set[str]) -> set[str]:
    """Every alphasearch module ``path`` imports, at the top or inside a function."""
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                target = ".".join(parts[:len(parts) - node.level + 1] + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for alias in node.names:
                found.add(f"{target}.{alias.name}" if f"{target}.{alias.name}" in modules else target)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
    return {m for m in found if m in modules and m != name}


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: _imports(path, name, set(modules)) for name, path in modules.items()}


def _stage(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def test_the_package_holds_only_the_stages_and_what_ties_them():
    entries = {p.name for p in PACKAGE.iterdir() if not p.name.startswith((".", "__pycache__"))}
    packages = {n for n in entries if (PACKAGE / n).is_dir() and (PACKAGE / n / "__init__.py").exists()}
    modules = {n[:-3] for n in entries if n.endswith(".py")}
    assert packages == PACKAGES
    assert modules == TOP_MODULES
    assert set(RANK) >= packages | modules - {"__init__"}
    for name in packages:  # each stage says what it does and what it hands on
        doc = ast.get_docstring(ast.parse((PACKAGE / name / "__init__.py").read_text("utf-8")))
        assert doc and len(doc) > 80, f"alphasearch/{name}/__init__.py says what the stage does"


def test_imports_go_down_the_stages():
    against = []
    for name, deps in sorted(_graph().items()):
        if name == "alphasearch":  # the public API names each stage's exports lazily
            continue
        for dep in sorted(deps):
            if dep == "alphasearch":
                continue
            if RANK[_stage(dep)] < RANK[_stage(name)]:
                against.append(f"{name} -> {dep}")
    assert not against, "imports against the stage order:\n" + "\n".join(against)


def test_no_import_cycle():
    graph = _graph()
    state: dict[str, int] = {}

    def visit(name: str, trail: list[str]) -> None:  # depth-first; state 1: on the current trail
        state[name] = 1
        for dep in sorted(graph[name]):
            loop = trail + [name]
            assert state.get(dep) != 1, "import cycle: " + " -> ".join(loop[loop.index(dep):] + [dep])
            if dep not in state:
                visit(dep, loop)
        state[name] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name, [])


def test_the_graph_reader_sees_an_upward_import_and_a_cycle(tmp_path):
    """The checks above can fail: a literal module importing upward is reported."""
    fake = tmp_path / "alphasearch" / "pdf"
    fake.mkdir(parents=True)
    (fake / "x.py").write_text("from ..search import mcts\nfrom . import y\n")
    deps = _imports(fake / "x.py", "alphasearch.pdf.x", {"alphasearch.search.mcts", "alphasearch.pdf.y"})
    assert deps == {"alphasearch.search.mcts", "alphasearch.pdf.y"}
    assert RANK[_stage("alphasearch.search.mcts")] < RANK[_stage("alphasearch.pdf.x")]


def test_no_module_is_over_700_lines():
    long = {str(p.relative_to(ROOT)): n for p in PACKAGE.rglob("*.py")
            if (n := len(p.read_text("utf-8").splitlines())) > 700}
    assert not long, long
