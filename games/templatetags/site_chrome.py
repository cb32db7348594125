"""The layout's parts that depend on nothing but the reader's language: drawn once per language
and process, then copied into every page (templates/base.html).

Why: every page draws the same head (style sheets, scripts and icons, each a ``{% static %}``
or ``{% url %}`` lookup), the same menu and the same language buttons; on a game page that
was a noticeable share of its time (docs/performance.md). Static files' names and the site's
URLs change only with a new release, which starts new processes; a test that changes the
settings empties the memo.

- ``{% per_language %}…{% endper_language %}``: its body drawn once per language. It is drawn
  with an empty context, so a variable put inside by mistake shows as nothing at once instead
  of one member's value reaching everybody.
- ``{% site_nav %}``: partials/nav.html, which marks the menu entry of the page being read —
  drawn once per language and menu entry (any other page: none marked).
"""

from __future__ import annotations

import re
from types import SimpleNamespace
from typing import Any

from django import template
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.template.loader import render_to_string
from django.urls import get_script_prefix, get_urlconf
from django.utils.translation import get_language

register = template.Library()

NAV_TEMPLATE = "partials/nav.html"
NAV_LINK = re.compile(r'<a href="([^"]+)"')

# The menu's drawings and its pages' paths; each ``per_language`` block keeps its own.
_DRAWN: dict[tuple, Any] = {}
# Bumped by a settings change: every drawing made before it is stale.
_generation = 0


@receiver(setting_changed)
def _settings_changed(**_kwargs: Any) -> None:
    global _generation
    _generation += 1
    _DRAWN.clear()


def _key(*parts: Any) -> tuple:
    # What a drawing depends on besides the language: the URLs (a request's own urlconf, the
    # script prefix the site is served under) and the settings (their generation).
    return (_generation, get_language(), get_script_prefix(), get_urlconf(), *parts)


def _nav_drawn(marked: str) -> str:
    key = _key("nav", marked)
    drawn = _DRAWN.get(key)
    if drawn is None:
        # The template reads only ``request.path``: the marked entry's, or one matching none.
        drawn = render_to_string(NAV_TEMPLATE, {"request": SimpleNamespace(path=marked)})
        _DRAWN[key] = drawn
    return drawn


def _nav_paths() -> frozenset[str]:
    # The menu's own links, read off its unmarked drawing: the template is the one list.
    key = _key("nav-paths")
    if key not in _DRAWN:
        _DRAWN[key] = frozenset(NAV_LINK.findall(_nav_drawn("")))
    return _DRAWN[key]


class PerLanguageNode(template.Node):
    def __init__(self, nodelist: template.NodeList):
        self.nodelist = nodelist
        # Kept on the node, which lives as long as its compiled template: a template parsed
        # again (a changed file in development, ``from_string``) starts with nothing.
        self.drawn: dict[tuple, str] = {}

    def render(self, context: template.Context) -> str:
        key = _key()
        drawn = self.drawn.get(key)
        if drawn is None:
            if any(k[0] != _generation for k in self.drawn):
                self.drawn = {}  # drawn under older settings
            drawn = self.nodelist.render(context.new())
            self.drawn[key] = drawn
        return drawn


@register.tag
def per_language(parser: template.base.Parser, token: template.base.Token) -> PerLanguageNode:
    nodelist = parser.parse(("endper_language",))
    parser.delete_first_token()
    return PerLanguageNode(nodelist)


@register.simple_tag(takes_context=True)
def site_nav(context: template.Context) -> str:
    path = getattr(context.get("request"), "path", "")
    return _nav_drawn(path if path in _nav_paths() else "")
