"""``{% move_button action_json label ... %}``: one move's form, rendered by its template
(templates/games/_act_form.html) — what ``{% include "games/_act_form.html" with ... %}``
renders. The table's own templates include the form; this tag remains for the boards' hand
tags (napad_board.py, colt_board.py) that still call it, and goes once they no longer do."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.safestring import SafeString

register = template.Library()

ACT_FORM_TEMPLATE = "games/_act_form.html"


@register.simple_tag(takes_context=True)
def move_button(
    context: template.Context,
    action_json: Any,
    label: Any,
    *,
    button_class: Any = "",
    form_class: Any = "",
    aria_label: Any = "",
    marks: Any = "",
) -> SafeString:
    """``{% move_button action.json action.label marks=action.marks %}``: the form of one
    move, rendered in the calling template's context (its ``act_url``, ``game.version`` and
    CSRF token) as an include with these values would."""
    form = context.template.engine.get_template(ACT_FORM_TEMPLATE)
    values = {
        "action_json": action_json,
        "label": label,
        "button_class": button_class,
        "form_class": form_class,
        "aria_label": aria_label,
        "marks": marks,
    }
    with context.push(values):
        return form.render(context)
