"""A move button, ``{% move_button action_json label ... %}``: the markup that
``{% include "games/_act_form.html" with ... %}`` drew (tests/site/test_move_button.py),
without a template lookup and a context push per button."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.safestring import SafeString, mark_safe

from games.templatetags.drawing import csrf_input
from games.templatetags.escaping import escaped

register = template.Library()


# One move button, as templates/games/_act_form.html drew it when included (the same markup,
# byte for byte): the action's form posting to the board's act_url with the page's version.
_MOVE_BUTTON = (
    '<form method="post" action="{url}" hx-post="{url}" hx-target="#game-live"'
    ' hx-swap="outerHTML"{form_class}>{csrf}'
    '\n  <input type="hidden" name="action" value="{action}">'
    '\n  <input type="hidden" name="version" value="{version}">'
    '\n  <button class="button {button_class}"{aria_label}{marks}>{label}</button>'
    "\n</form>\n"
)
_ACT_URL, _GAME_VERSION = template.Variable("act_url"), template.Variable("game.version")


def _looked_up(variable: template.Variable, context: template.Context) -> Any:
    """``{{ variable }}``'s value, or ``""`` where the template would print nothing."""
    try:
        return variable.resolve(context)
    except template.VariableDoesNotExist:
        return ""


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
    move, what ``{% include "games/_act_form.html" with ... %}`` drew, without a template
    lookup and a context push per button (a hand shows up to 19 buttons)."""
    html = _MOVE_BUTTON.format(
        url=escaped(_looked_up(_ACT_URL, context)),
        form_class=f' class="{escaped(form_class)}"' if form_class else "",
        csrf=csrf_input(context),
        action=escaped(action_json),
        version=escaped(_looked_up(_GAME_VERSION, context)),
        button_class=escaped(button_class or "button--action"),
        aria_label=f' aria-label="{escaped(aria_label)}"' if aria_label else "",
        marks=f' data-names="{escaped(marks)}"' if marks else "",
        label=escaped(label),
    )
    return mark_safe(html)  # noqa: S308 (every value escaped)
