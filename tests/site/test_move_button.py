"""A move button (templates/games/_act_form.html) as a member's browser reads it, for every way
the table uses it — the actions' list (with the board's spots it names), a hand's pass and draw
buttons, a button with its own accessible name —: a form that posts the action and the page's
version to the table's move URL (HTMX swapping #game-live), with the CSRF token, the label as
text."""

from __future__ import annotations

import pytest
from django.template import Context, Template

from tests.markupkit import parse

INCLUDED = (
    '{% load i18n %}{% include "games/_act_form.html" with action_json=json label=label'
    " marks=marks button_class=button_class form_class=form_class aria_label=aria_label %}"
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
@pytest.mark.parametrize("token", ["t0k3n<&>", None], ids=["csrf", "no-csrf"])
@pytest.mark.parametrize("game", [{"version": 12}, None], ids=["game", "no-game"])
def test_a_move_button_posts_its_action_and_the_pages_version(button, token, game):
    context = {"act_url": ACT_URL, **button}
    if game is not None:
        context["game"] = game
    if token is not None:
        context["csrf_token"] = token
    html = Template(INCLUDED).render(Context(context))
    form = parse(html).find("form")
    assert form.attrs["method"] == "post"
    assert form.attrs["action"] == form.attrs["hx-post"] == ACT_URL
    assert form.attrs["hx-target"] == "#game-live"
    assert form.attrs["hx-swap"] == "outerHTML"
    assert form.attrs.get("class") == button.get("form_class")
    hidden = {i.attrs["name"]: i.attrs["value"] for i in form.find_all("input", type="hidden")}
    expected = {"action": button["json"], "version": "12" if game else ""}
    if token is not None:
        expected["csrfmiddlewaretoken"] = token
    assert hidden == expected
    pressed = form.find("button")
    assert pressed.classes == ["button", *(button.get("button_class") or "button--action").split()]
    assert pressed.text == button["label"]
    assert pressed.attrs.get("aria-label") == button.get("aria_label")
    assert pressed.attrs.get("data-names") == button.get("marks")
    assert "<Belle>" not in html
