"""The table's Jinja2 environment (games/table/templating.py) reads its plain-dict context as
Django's templates do: ``a.b`` is the dict's key "b" when it has one (a breakdown's "values", a
group's "items"), else the attribute; a value it does not have prints nothing."""

from __future__ import annotations

from django.template import engines


def _render(source: str, **context) -> str:
    return engines["jinja2"].from_string(source).render(context)


def test_a_dicts_key_comes_before_its_method():
    line = {"values": [6, 4], "items": "three wagons"}
    assert _render("{{ line.values|join(' + ') }} · {{ line.items }}", line=line) == (
        "6 + 4 · three wagons"
    )


def test_a_dict_without_the_key_keeps_its_methods_and_missing_values_print_nothing():
    totals = {"yellow": 2}
    assert _render(
        "{% for k, v in totals.items() %}{{ k }}={{ v }}{% endfor %}", totals=totals
    ) == ("yellow=2")
    assert _render("[{{ seat.name }}][{{ nobody.seat.name }}]", seat={}) == "[][]"
