"""The Jinja2 environment the table's templates render with (``templates/jinja2/``).

The table — the game page's live parts, its HTMX answers and socket pushes, the boards, the
log, the replay — is rendered by Django's Jinja2 backend; the rest of the site by Django's own
templates. Why: [decision 0021](../../docs/decisions/0021-the-table-on-jinja2.md).

What the table's templates find here, beside Jinja's own filters:

- ``_``, ``gettext``, ``ngettext``, ``pgettext`` — Django's translations (Jinja's i18n
  extension, new style: ``_("Round %(round)s of %(rounds)s", round=…, rounds=…)`` fills and
  escapes the values). The msgids are the ones ``{% translate %}`` and ``{% blocktranslate %}``
  made, and ``manage.py makemessages`` extracts them (games/management/commands/makemessages.py).
- ``url(name, *args)``, ``static(path)``, ``language()``, ``time_zone()``; ``csrf_input``
  comes from the backend when a template is rendered with the request.
- ``{% cache timeout, "name", vary, … %}…{% endcache %}`` — Django's ``{% cache %}``: the same
  keys (``make_template_fragment_key``) in the same ``template_fragments`` cache.
- The site's template filters the table uses (``games/templatetags/``): the boards' names
  and counts, the dates (``when``, ``until_when``, ``on_date``), Django's ``date`` and ``localize``.
- ``clock_panel_context`` and ``expected_places`` for the clock panel and the league line.
"""

from __future__ import annotations

from typing import Any

from django.core.cache import caches
from django.core.cache.utils import make_template_fragment_key
from django.template.defaultfilters import date
from django.templatetags.static import static
from django.urls import reverse
from django.utils import formats, timezone, translation
from jinja2 import ChainableUndefined, Environment, nodes
from jinja2.ext import Extension

from games.models import Game
from games.selectors.leagues import game_expected_places_data
from games.selectors.tables import game_fixture
from games.services.clock_panel import clock_panel_context
from games.templatetags import board_labels, when_tags


class FragmentCacheExtension(Extension):
    """``{% cache 86400, "napad_seat", seat, language() %}…{% endcache %}``: Django's
    ``{% cache %}`` tag for Jinja (the timeout, the fragment's name, what it varies on)."""

    tags = {"cache"}

    def parse(self, parser):
        lineno = next(parser.stream).lineno
        timeout = parser.parse_expression()
        parser.stream.expect("comma")
        name = parser.parse_expression()
        vary_on = []
        while parser.stream.skip_if("comma"):
            vary_on.append(parser.parse_expression())
        body = parser.parse_statements(("name:endcache",), drop_needle=True)
        call = self.call_method("_cached", [timeout, name, nodes.List(vary_on)])
        return nodes.CallBlock(call, [], [], body).set_lineno(lineno)

    def _cached(self, timeout: int, name: str, vary_on: list[Any], caller) -> str:
        # A call block's output is written as it is (the body was escaped when rendered).
        fragments = caches["template_fragments"]
        key = make_template_fragment_key(name, vary_on)
        html = fragments.get(key)
        if html is None:
            html = str(caller())
            fragments.set(key, html, timeout)
        return html


class TableEnvironment(Environment):
    """Jinja's environment with ``a.b`` on a dict looking the key up first, as Django's
    templates do: the table's context is plain dicts (games/table/boards.py), and Jinja's own
    order (the attribute first) raises and catches an AttributeError on every such lookup, and
    finds ``line.values`` to be the dict's method rather than its "values"."""

    def getattr(self, obj: Any, attribute: str) -> Any:
        if type(obj) is dict and attribute in obj:
            return obj[attribute]
        return super().getattr(obj, attribute)


def url(name: str, *args: Any) -> str:
    return reverse(name, args=args)


def local_date(value: Any, arg: str | None = None) -> str:
    """Django's ``date`` filter on a moment in the member's time zone, as Django's templates
    convert it before the filter."""
    return date(timezone.template_localtime(value), arg)


def expected_places(game: Game) -> dict[str, Any]:
    """The league line (leagues/expected_places.html): the place the ratings expect for each
    member at the table, and the league round the game belongs to, if any (the game page read
    it with the game: games/selectors/tables.py game_with_seats)."""
    return {
        "rows": game_expected_places_data(game),
        "fixture": game_fixture(game),
        "finished": game.is_over,
    }


def environment(**options: Any) -> Environment:
    # A variable a template does not get, or an attribute of one, prints as nothing, as in
    # Django's templates (the backend's default under DEBUG prints its name, which would
    # reach members).
    options["undefined"] = ChainableUndefined
    # Every value is escaped, as in Django's templates (the backend's default too).
    options.pop("autoescape", None)
    env = TableEnvironment(
        autoescape=True, extensions=["jinja2.ext.i18n", FragmentCacheExtension], **options
    )
    env.install_gettext_callables(
        translation.gettext,
        translation.ngettext,
        newstyle=True,
        pgettext=translation.pgettext,
        npgettext=translation.npgettext,
    )
    env.globals.update(
        url=url,
        static=static,
        language=translation.get_language,
        time_zone=timezone.get_current_timezone_name,
        relative_words=when_tags.relative_words,
        clock_panel_context=clock_panel_context,
        expected_places=expected_places,
    )
    for library in (board_labels, when_tags):
        env.filters.update(library.register.filters)
    env.filters.update(date=local_date, localize=formats.localize)
    return env
