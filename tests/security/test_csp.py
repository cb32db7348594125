"""The Content-Security-Policy: every answer carries it (self only, nothing inline), and no
template needs more — no inline <script> body, no on*= handler, no hx-on, no style= attribute
and no <style> element anywhere in templates/ (JSON data islands are not scripts). The browser
tests (tests/e2e) fail on any violation the pages still cause."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.test import Client

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = sorted((ROOT / "templates").rglob("*.html"))

TAG = re.compile(r"<[a-zA-Z][^>]*>", re.S)
INLINE_SCRIPT = re.compile(r"<script\b(?![^>]*\bsrc=)(?![^>]*type=\"application/json\")[^>]*>")
HANDLER = re.compile(r"\s(on[a-z]+|hx-on[-:a-z]*|data-hx-on[-:a-z]*)\s*=", re.I)
STYLE_ATTRIBUTE = re.compile(r"\sstyle\s*=", re.I)


def test_the_templates_need_nothing_inline():
    problems = []
    for path in TEMPLATES:
        text = path.read_text()
        name = path.relative_to(ROOT)
        if INLINE_SCRIPT.search(text):
            problems.append(f"{name}: inline <script>")
        if re.search(r"<style\b", text):
            problems.append(f"{name}: <style> element")
        for tag in TAG.findall(text):
            if HANDLER.search(tag):
                problems.append(f"{name}: event handler in {tag[:80]}")
            if STYLE_ATTRIBUTE.search(tag):
                problems.append(f"{name}: style attribute in {tag[:80]}")
    assert problems == []


def test_the_scan_finds_what_it_looks_for():
    assert INLINE_SCRIPT.search("<script>alert(1)</script>")
    assert not INLINE_SCRIPT.search('<script src="/static/js/x.js" defer></script>')
    assert HANDLER.search('<form hx-on::after-request="x">')
    assert HANDLER.search('<button onclick="x">')
    assert not HANDLER.search('<button class="once" data-on="1">')
    assert STYLE_ATTRIBUTE.search('<code style="x">')


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/", "/accounts/login/", "/api/docs", "/healthz", "/nowhere/"])
def test_every_answer_carries_the_policy(path):
    policy = Client().get(path)["Content-Security-Policy"]
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";"))
    assert directives["default-src"] == "'self'"
    assert directives["script-src"] == "'self'"
    assert directives["style-src"] == "'self'"
    assert directives["frame-ancestors"] == "'none'"
    assert "unsafe" not in policy


@pytest.mark.django_db
def test_the_api_docs_use_the_sites_own_files():
    page = Client().get("/api/docs").content.decode()
    assert "cdn." not in page
    assert "/static/ninja/swagger-ui-bundle" in page
