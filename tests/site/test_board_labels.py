"""The boards' label filters (games/templatetags/board_labels.py) say exactly what the template
tags they replaced said, in every language the club speaks."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.template import Context, Template
from django.utils import translation

FILTERS_AND_TAGS = [
    ("napad_card_label", "{% blocktranslate with id=n %}Card {{ id }}{% endblocktranslate %}"),
    (
        "bullets_count",
        "{% blocktranslate count bullets=n %}{{ bullets }} bullet{% plural %}"
        "{{ bullets }} bullets{% endblocktranslate %}",
    ),
    (
        "cards_in_hand",
        "{% blocktranslate count cards=n %}{{ cards }} card in hand{% plural %}"
        "{{ cards }} cards in hand{% endblocktranslate %}",
    ),
    (
        "cards_in_hideout",
        "{% blocktranslate count cards=n %}{{ cards }} in the hideout{% plural %}"
        "{{ cards }} in the hideout{% endblocktranslate %}",
    ),
    (
        "wagons_captured",
        "{% blocktranslate count wagons=n %}{{ wagons }} wagon captured{% plural %}"
        "{{ wagons }} wagons captured{% endblocktranslate %}",
    ),
]
CARGO_TAG = (
    '{% if cargo == "gold" %}{% translate "gold" %}{% elif cargo == "dynamite" %}'
    '{% translate "dynamite" %}{% elif cargo == "money" %}{% translate "money" %}'
    "{% else %}{{ cargo }}{% endif %}"
)


def _render(source: str, **context) -> str:
    return Template("{% load i18n board_labels %}" + source).render(Context(context))


@pytest.mark.parametrize("language", [code for code, _name in settings.LANGUAGES])
@pytest.mark.parametrize(("name", "tag"), FILTERS_AND_TAGS)
def test_each_count_filter_says_what_its_blocktranslate_said(language, name, tag):
    with translation.override(language):
        for n in (0, 1, 2, 3, 4, 5, 11, 12, 21, 22, 25, 1001):
            assert _render(f"{{{{ n|{name} }}}}", n=n) == _render(tag, n=n)


@pytest.mark.parametrize("language", [code for code, _name in settings.LANGUAGES])
def test_the_cargo_filter_says_what_the_cargo_template_said(language):
    with translation.override(language):
        for cargo in ("gold", "dynamite", "money", "<b>other</b>"):
            assert _render("{{ cargo|cargo_name }}", cargo=cargo) == _render(CARGO_TAG, cargo=cargo)


@pytest.mark.parametrize("language", [code for code, _name in settings.LANGUAGES])
def test_the_colt_card_filter_names_every_card(language):
    with translation.override(language):
        named = {card: _render("{{ card|colt_card_name }}", card=card) for card in ("move", "fire")}
        assert named["move"] == translation.gettext("Move")
        assert named["fire"] == translation.gettext("Fire")
        assert _render("{{ card|colt_card_name }}", card="bullet:2") == translation.gettext(
            "Bullet"
        )
        assert _render("{{ card|colt_card_name }}", card="<i>") == "&lt;i&gt;"
