"""The layout shows the architecture (docs/architecture.md, "Where things are"): the root of
``games/`` holds only the app's wiring, at most ten modules, and every package of ``games`` and
of ``benchmarks`` says in its ``__init__.py`` what lives there."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GAMES = ROOT / "games"
ROOT_MODULES_MAX = 10


def _packages(top: Path) -> list[Path]:
    """Every folder under ``top`` (itself included) that Python imports as a package."""
    return sorted(
        init.parent
        for init in top.rglob("__init__.py")
        if "__pycache__" not in init.parts and "locale" not in init.relative_to(top).parts
    )


def test_the_root_of_games_holds_at_most_ten_modules():
    modules = sorted(path.name for path in GAMES.glob("*.py"))
    assert len(modules) <= ROOT_MODULES_MAX, (
        f"games/ holds {len(modules)} modules: {', '.join(modules)}; "
        "give the newest its package (docs/architecture.md)"
    )


def test_every_package_says_what_lives_there():
    undocumented = []
    for top in (GAMES, ROOT / "benchmarks"):
        for package in _packages(top):
            if package.name == "migrations":
                continue  # Django's own folder: the migrations say what they change
            init = package / "__init__.py"
            docstring = ast.get_docstring(ast.parse(init.read_text()))
            if not docstring or not docstring.strip():
                undocumented.append(str(init.relative_to(ROOT)))
    assert undocumented == []


def test_the_finder_sees_the_packages_it_checks():
    # The test above must not pass by finding nothing.
    found = {str(package.relative_to(ROOT)) for package in _packages(GAMES)}
    assert {"games", "games/selectors", "games/table", "games/admin"} <= found
    assert (ROOT / "benchmarks" / "__init__.py").is_file()
