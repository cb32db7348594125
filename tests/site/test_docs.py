"""The documentation a newcomer reads first: a short README with the two commands on its first
screen, a test command that is the one CI runs, links that lead somewhere, decision records
in their index, and code paths that exist."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
DECISIONS = DOCS / "decisions"
CI_RUN = ROOT / ".ci" / "run"

README_MAX_LINES = 250
# What a terminal or a repository page shows before anyone scrolls.
FIRST_SCREEN_LINES = 30

LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
# A path in backticks: `games/…`, `benchmarks/…`, `napad_site/…`, `tests/…`, `templates/…`,
# `static/…`, or a template's name (found under templates/).
CODE_PATH = re.compile(r"`((?:games|benchmarks|napad_site|tests|templates|static|docs)/[^`\s]*)`")


def _markdown_files() -> list[Path]:
    return [README, *sorted(DOCS.rglob("*.md"))]


def _slug(heading: str) -> str:
    """The anchor a repository page gives a heading (GitHub's rule)."""
    text = heading.strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    headings = [line.lstrip("#").strip() for line in path.read_text().splitlines()]
    return {
        _slug(heading)
        for heading, line in zip(headings, path.read_text().splitlines())
        if line.startswith("#")
    }


def test_the_readme_is_short():
    lines = README.read_text().splitlines()
    assert len(lines) <= README_MAX_LINES, f"README.md has {len(lines)} lines"


def test_the_two_commands_are_on_the_first_screen():
    first_screen = "\n".join(README.read_text().splitlines()[:FIRST_SCREEN_LINES])
    assert "manage.py runclub" in first_screen
    assert "bash .ci/run" in first_screen


def test_the_readmes_quick_test_command_is_the_one_ci_runs():
    readme = README.read_text()
    quick = re.search(r"`[^`]*-m pytest -p no:cacheprovider -m \"([^\"]+)\"`", readme)
    assert quick is not None, "README.md names no quick pytest command"
    ci = CI_RUN.read_text()
    assert '.venv/bin/python -m pytest -p no:cacheprovider "$@"' in ci
    assert f'run_tests -m "{quick.group(1)}"' in ci


def test_every_link_in_the_docs_leads_somewhere():
    broken = []
    for page in _markdown_files():
        for target in LINK.findall(page.read_text()):
            if target.startswith(("http://", "https://", "mailto:")):
                continue
            file_part, _hash, anchor = target.partition("#")
            linked = (page.parent / file_part).resolve() if file_part else page
            if not linked.exists():
                broken.append(f"{page.relative_to(ROOT)}: {target}")
            elif anchor and linked.suffix == ".md" and anchor not in _anchors(linked):
                broken.append(f"{page.relative_to(ROOT)}: {target} (no such heading)")
    assert broken == []


# A template is named as its engine finds it: "games/napad/board.html" (Jinja2's folder) or
# "games/lobby.html" (Django's).
TEMPLATE_DIRS = (ROOT / "templates" / "jinja2", ROOT / "templates")


def test_every_code_path_the_docs_name_exists():
    missing = []
    for page in _markdown_files():
        for path in CODE_PATH.findall(page.read_text()):
            # A template partial ("leagues/detail.html#seat_list") names its file.
            path = path.rstrip(".,:;").partition("#")[0]
            if "<" in path or "…" in path:
                continue  # a pattern, e.g. games/engines/<game>/wording.py
            if "*" in path or "{" in path:
                pattern = re.sub(r"\{[^}]*\}", "*", path)
                if not list(ROOT.glob(pattern)):
                    missing.append(f"{page.relative_to(ROOT)}: {path}")
            elif not any((base / path).exists() for base in (ROOT, *TEMPLATE_DIRS)):
                missing.append(f"{page.relative_to(ROOT)}: {path}")
    assert missing == []


def test_every_decision_record_is_indexed_and_complete():
    index = (DECISIONS / "README.md").read_text()
    records = sorted(DECISIONS.glob("[0-9][0-9][0-9][0-9]-*.md"))
    assert records, "no decision records"
    for record in records:
        assert f"({record.name})" in index, f"{record.name} is not in the index"
        text = record.read_text()
        for section in ("## Context", "## Decision", "## What it saves or costs",
                        "## When to revisit"):  # fmt: skip
            assert section in text, f"{record.name} has no {section!r}"
    numbers = [record.name[:4] for record in records]
    assert len(numbers) == len(set(numbers)), "two records share a number"
