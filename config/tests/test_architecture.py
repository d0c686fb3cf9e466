"""The layout stays true: imports run one way between the project's packages, no module imports
itself back through others, and modules stay small enough to read in one sitting.

The map of packages is ``docs/architecture.md``. Every import counts, also those inside functions
(a late import is still a dependency). Tests and migrations are not checked: tests may reach into
anything, migrations are generated.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
APPS = ("rules", "accounts", "scoring", "tournaments", "config")
MAX_LINES = 400

# What each part of the project may import from the project, besides itself. A module belongs to
# the longest prefix listed here. Third-party packages are free, except that the pure packages
# must not import Django (checked below).
SHARED = ("tournaments.models", "tournaments.formats", "tournaments.errors", "tournaments.access",
          "tournaments.http", "tournaments.selectors", "config.inputs", "config.parsers",
          "config.limits")  # fmt: skip
PURE = ("tournaments.pairing", "tournaments.standings")
# Leaves of config that check input before anything reads it (JSON depth, NUL, invisible
# characters in names); they import nothing of the project, so every app may use them.
INPUTS = ("config.inputs", "config.parsers", "config.limits")
ALLOWED: dict[str, tuple[str, ...]] = {
    "rules": (),
    "tournaments.pairing": (),
    "tournaments.standings": (),
    "accounts": ("config.throttling",),
    "scoring": ("rules", "accounts", *INPUTS),
    # the tournaments app's shared layer: models, errors, who may do what, the base of pages
    "tournaments.models": ("rules", "tournaments.formats", *INPUTS),
    "tournaments.formats": ("rules",),
    "tournaments.errors": (),
    "tournaments.access": ("accounts", "tournaments.models", "tournaments.errors"),
    "tournaments.selectors": ("tournaments.models",),
    "tournaments.http": ("tournaments.models", "tournaments.errors", "tournaments.access"),
    # template filters of the tournaments' pages
    "tournaments.templatetags": INPUTS,
    # the concerns, innermost first
    # scoring for the words of the rules (``scoring.rules_words``), which the sheet shows too
    "tournaments.registration": ("rules", "accounts", "scoring", *SHARED),
    "tournaments.results": ("rules", "accounts", "scoring", *SHARED, *PURE),
    "tournaments.ratings": ("rules", "scoring", *SHARED),
    "tournaments.seasons": ("rules", "accounts", "scoring", *SHARED, *PURE,
                            "tournaments.results"),  # fmt: skip
    # the final stage: its setup, its bracket read from the knock-out's rounds
    "tournaments.stages": ("rules", "accounts", "scoring", *SHARED, *PURE, "tournaments.results"),
    # categories, clubs and the prize list: cut from the standings and a final stage's ranking
    "tournaments.prizes": ("rules", "accounts", "scoring", *SHARED, *PURE, "tournaments.results",
                           "tournaments.stages", "tournaments.registry"),  # fmt: skip
    # the shared registry kept clean: records edited and merged by those allowed to
    "tournaments.registry": ("accounts", "scoring", *SHARED, "tournaments.registration",
                             "tournaments.ratings"),  # fmt: skip
    # «Генерал» «на вылет»: the queue at one table, its standings and page
    "tournaments.rotation": ("scoring", *SHARED, *PURE, "tournaments.results"),
    "tournaments.rounds": ("rules", "accounts", "scoring", *SHARED, *PURE,
                           "tournaments.registration", "tournaments.results",
                           "tournaments.ratings", "tournaments.stages",
                           "tournaments.rotation"),  # fmt: skip
    "tournaments.discipline": ("rules", "accounts", "scoring", *SHARED, *PURE,
                               "tournaments.registration", "tournaments.results"),  # fmt: skip
    "tournaments.audit": ("accounts", "scoring", *SHARED),
    # an entry's own page by its personal link: its table, results and place
    "tournaments.personal": ("rules", "accounts", "scoring", *SHARED, *PURE,
                             "tournaments.results", "tournaments.stages"),  # fmt: skip
    # pages that update themselves and the live board: the shared layer and scoring only
    "tournaments.live": ("rules", "accounts", "scoring", *SHARED),
    "tournaments.substitutes": ("accounts", "scoring", *SHARED, "tournaments.rounds"),
    "tournaments.archive": ("rules", "accounts", "scoring", *SHARED, *PURE,
                            "tournaments.registration", "tournaments.rounds",
                            "tournaments.results", "tournaments.discipline",
                            "tournaments.ratings"),  # fmt: skip
}
# Wiring: routes, app configs, the admin, commands and the project's settings put the parts
# together and may import any of them (still without a circle).
WIRING = ("config", "tournaments.apps", "tournaments.urls", "tournaments.api", "tournaments.admin",
          "tournaments.management", "accounts.apps", "scoring.apps")  # fmt: skip
NO_DJANGO = ("rules", "tournaments.pairing", "tournaments.standings",
             "tournaments.prizes.allocation", "tournaments.prizes.membership")  # fmt: skip


def _modules() -> dict[str, Path]:
    found = {}
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if "tests" in parts or "migrations" in parts:
                continue
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found[name] = path
    return found


MODULES = _modules()


def _imports(name: str, path: Path) -> Iterator[tuple[str, int]]:
    """Every module ``name`` imports (absolute names; submodules where they are one)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            for alias in node.names:
                sub = f"{module}.{alias.name}"
                yield (sub if sub in MODULES else module), node.lineno


def _project(module: str) -> str | None:
    """The project module an import names (a package or a module), or None for others."""
    while module and module not in MODULES:
        module = module.rpartition(".")[0]
    return module or None


def _part(module: str, table: tuple[str, ...] | dict[str, tuple[str, ...]]) -> str | None:
    best = None
    for prefix in table:
        if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > len(best or ""):
            best = prefix
    return best


def _graph() -> dict[str, set[str]]:
    edges: dict[str, set[str]] = {name: set() for name in MODULES}
    for name, path in MODULES.items():
        for imported, _line in _imports(name, path):
            target = _project(imported)
            if target and target != name:
                edges[name].add(target)
    return edges


def test_the_module_finder_sees_the_packages() -> None:
    # guards the test itself: a wrong ROOT would check nothing and pass
    for expected in ("rules.engine", "scoring.services", "tournaments.rounds.services",
                     "tournaments.results.ledger", "tournaments.archive.reader"):  # fmt: skip
        assert expected in MODULES
    assert len(MODULES) > 80


def test_imports_run_one_way() -> None:
    wrong = []
    for name, path in MODULES.items():
        if _part(name, WIRING) or name in APPS:  # an app's own __init__ holds no code
            continue
        part = _part(name, ALLOWED)
        assert part is not None, f"{name} belongs to no part of ALLOWED: add it to the map"
        for imported, line in _imports(name, path):
            target = _project(imported)
            if target is None or _part(target, (part,)):
                continue
            if _part(target, ALLOWED[part]) is None:
                wrong.append(f"{path.relative_to(ROOT)}:{line} ({part}) imports {target}")
    assert not wrong, "imports against the layout:\n" + "\n".join(wrong)


def test_pure_packages_import_no_django() -> None:
    wrong = [f"{path.relative_to(ROOT)}:{line} imports {imported}"
             for name, path in MODULES.items() if _part(name, NO_DJANGO)
             for imported, line in _imports(name, path)
             if imported.split(".")[0] in ("django", "rest_framework", "celery")]  # fmt: skip
    assert not wrong, "\n".join(wrong)


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_the_cycle_finder_finds_a_circle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_no_module_imports_itself_back() -> None:
    assert _cycles(_graph()) == []


def test_the_allowed_directions_form_no_circle() -> None:
    parts = {part: {p for p in allowed if p in ALLOWED and p != part}
             for part, allowed in ALLOWED.items()}  # fmt: skip
    assert _cycles(parts) == []


def test_every_module_says_what_it_owns_and_fits_in_one_reading() -> None:
    long, silent = [], []
    for path in MODULES.values():
        text = path.read_text()
        if text.count("\n") > MAX_LINES:
            long.append(f"{path.relative_to(ROOT)}: {text.count(chr(10))} lines")
        if text.strip() and not ast.get_docstring(ast.parse(text)):
            silent.append(str(path.relative_to(ROOT)))
    assert not long, f"modules above {MAX_LINES} lines (split them):\n" + "\n".join(long)
    assert not silent, "modules without a docstring:\n" + "\n".join(silent)
