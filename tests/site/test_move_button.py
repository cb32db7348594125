"""A move button (the ``act_form`` macro, templates/jinja2/games/_act_form.html) as a member's
browser reads it, for every way the table uses it — the actions' list (with the board's spots it
names), a hand's pass and draw buttons, a button with its own accessible name —: a form that
posts the action and the page's version to the table's move URL (HTMX swapping #game-live), with
the CSRF token, the label as text."""

from __future__ import annotations

import pytest
from django.template import engines
from django.test import RequestFactory

from tests.markupkit import parse

CALLED = (
    '{% from "games/_act_form.html" import act_form %}'
    "{{ act_form(json, label, act_url, game.version, csrf_input, **options) }}"
)
ACT_URL = "/games/3/act/?a&b"
BUTTONS = [
    {
        "json": '{"type": "pass"}',
        "label": "Pass",
        "button_class": "button--quiet button--small",
        "form_class": "hand__pass",
    },
    {
        "json": '{"target": 2, "type": "punch"}',
        "label": "Punch <Belle> & run",
        "marks": "bandit-2 spot-3-roof",
    },
    {"json": '{"type": "draw"}', "label": "Dobierz karty", "aria_label": 'say "draw"'},
    {"json": "", "label": ""},
]


@pytest.mark.parametrize("button", BUTTONS)
@pytest.mark.parametrize("token", ["t0k3n" * 6 + "ab", None], ids=["csrf", "no-csrf"])
@pytest.mark.parametrize("game", [{"version": 12}, None], ids=["game", "no-game"])
def test_a_move_button_posts_its_action_and_the_pages_version(button, token, game):
    options = {
        key: button[key]
        for key in ("marks", "button_class", "form_class", "aria_label")
        if key in button
    }
    context = {"act_url": ACT_URL, "options": options, **button}
    if game is not None:
        context["game"] = game
    # With the request, the backend gives the template the CSRF input (as the views do).
    request = None
    if token is not None:
        request = RequestFactory().get("/")
        request.META["CSRF_COOKIE"] = token
    html = engines["jinja2"].from_string(CALLED).render(context, request)
    form = parse(html).find("form")
    assert form.attrs["method"] == "post"
    assert form.attrs["action"] == form.attrs["hx-post"] == ACT_URL
    assert form.attrs["hx-target"] == "#game-live"
    assert form.attrs["hx-swap"] == "outerHTML"
    assert form.attrs.get("class") == button.get("form_class")
    hidden = {i.attrs["name"]: i.attrs["value"] for i in form.find_all("input", type="hidden")}
    expected = {"action": button["json"], "version": "12" if game else ""}
    if token is not None:
        assert hidden.pop("csrfmiddlewaretoken")  # the token, masked as Django masks it
    assert hidden == expected
    pressed = form.find("button")
    assert pressed.classes == ["button", *(button.get("button_class") or "button--action").split()]
    assert pressed.text == button["label"]
    assert pressed.attrs.get("aria-label") == button.get("aria_label")
    assert pressed.attrs.get("data-names") == button.get("marks")
    assert "<Belle>" not in html
