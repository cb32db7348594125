"""A move button (``{% move_button %}``, games/templatetags/move_buttons.py) is the markup the
include of templates/games/_act_form.html drew, for every way the table's templates use it:
the actions' list (with the board's spots it names), a hand's pass and draw buttons."""

from __future__ import annotations

import pytest
from django.template import Context, Template

INCLUDED = (
    '{% load i18n %}{% include "games/_act_form.html" with action_json=json label=label'
    " marks=marks button_class=button_class form_class=form_class aria_label=aria_label %}"
)
TAG = (
    "{% load move_buttons %}{% move_button json label marks=marks button_class=button_class"
    " form_class=form_class aria_label=aria_label %}"
)
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
def test_a_move_button_is_what_the_include_drew(button, token, game):
    context = {"act_url": "/games/3/act/?a&b", **button}
    if game is not None:
        context["game"] = game
    if token is not None:
        context["csrf_token"] = token
    drawn = Template(TAG).render(Context(context))
    assert drawn == Template(INCLUDED).render(Context(context))
    assert "<Belle>" not in drawn
