"""What every ``ModelAdmin`` of the club mixes in: no list filter, search, ordering or column
on a field that holds a secret, and no filter value a column cannot hold (404, as for such a
number in a path).

The secret fields are declared on the models (``games/models/secrets.py``); this mixin reads
that registry, so a model that declares a secret is covered in every admin at once. A refused
filter makes Django answer 400 (``DisallowedModelAdminLookup``); refused search fields,
orderings and columns are dropped, so the page never depends on a secret. This holds for every
staff account, superusers included: nobody needs to filter a game on its seed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from django.core.exceptions import FieldDoesNotExist
from django.db import models
from django.http import Http404

from games.models.secrets import lookup_touches_secret

# The date parts a lookup may take (``created_at__year``): each compares a whole number.
DATE_TRANSFORMS = frozenset(
    {
        "year",
        "iso_year",
        "month",
        "day",
        "week",
        "week_day",
        "iso_week_day",
        "quarter",
        "hour",
        "minute",
        "second",
    }
)
# Python's dates (and so Django's year lookups) stop at these years.
YEAR_RANGE = (1, 9999)
# What a 64-bit integer column (the widest the club has) can hold.
INTEGER_RANGE = (-(2**63), 2**63 - 1)
# A month, day, hour...: the date drill-down builds a ``datetime`` from them, which takes a C
# int (anything wider is an OverflowError, not the ValueError the admin turns into a message).
DATE_PART_RANGE = (-(2**31), 2**31 - 1)
WHOLE_NUMBER = re.compile(r"\s*[+-]?\d+\s*")
# Lookups whose value is a comma-separated list (as the admin's query string gives them).
LIST_LOOKUPS = frozenset({"in", "range"})


def _search_field_name(search_field: str) -> str:
    # "=pk", "^name", "@text": the prefix says how to search, the rest names the field.
    return search_field.lstrip("=^@")


def _numbers_range(model: type[models.Model], lookup: str) -> tuple[int, int] | None:
    """The whole numbers a filter ``lookup`` on ``model`` can compare with, or ``None`` when
    it compares no number (a text field, a JSON key)."""
    parts = lookup.split("__")
    field = None
    rest: list[str] = []
    for index, part in enumerate(parts):
        try:
            field = model._meta.get_field(part)
        except FieldDoesNotExist:
            if field is None:
                return None
            rest = parts[index:]
            break
        if field.is_relation and field.related_model is not None:
            model = field.related_model
            # A lookup ending on a relation compares the related row's key.
            field = model._meta.pk
    if field is None:
        return None
    if isinstance(field, models.DateField | models.DateTimeField | models.TimeField):
        if any(name in ("year", "iso_year") for name in rest):
            return YEAR_RANGE
        if any(name in DATE_TRANSFORMS for name in rest):
            return DATE_PART_RANGE
        return None
    if isinstance(
        field, models.IntegerField | models.AutoField | models.FloatField | models.DecimalField
    ):
        return INTEGER_RANGE
    return None


def filter_value_fits(model: type[models.Model], lookup: str, value: str) -> bool:
    """False when a whole number in ``value`` lies past what the lookup's column (or date
    part) can hold: such a filter would fail in the database, not find nothing."""
    bounds = _numbers_range(model, lookup)
    if bounds is None or not isinstance(value, str):
        return True
    values = value.split(",") if lookup.rsplit("__", 1)[-1] in LIST_LOOKUPS else [value]
    low, high = bounds
    for item in values:
        if WHOLE_NUMBER.fullmatch(item) and not low <= int(item) <= high:
            return False
    return True


class SecretFieldsAdminMixin:
    """Mixed into every club ``ModelAdmin`` (and inline): secret fields are never a filter,
    a search field, an ordering, a column or a form field."""

    def _without_secrets(self, names: Iterable) -> list:
        kept = []
        for name in names:
            lookup = name if isinstance(name, str) else getattr(name, "__name__", "")
            if isinstance(name, list | tuple):
                lookup = name[0] if name and isinstance(name[0], str) else ""
            if lookup and lookup_touches_secret(self.model, _search_field_name(lookup)):
                continue
            order_field = getattr(getattr(self, lookup, None), "admin_order_field", None)
            if isinstance(order_field, str) and lookup_touches_secret(self.model, order_field):
                continue
            kept.append(name)
        return kept

    def lookup_allowed(self, lookup, value, request=None):
        if lookup_touches_secret(self.model, lookup):
            return False
        if not filter_value_fits(self.model, lookup, value):
            # No row can match a number no column holds: the list it asks for does not
            # exist, as a page whose path has such a number does not (games/web/converters.py).
            raise Http404("no such number in this column")
        return super().lookup_allowed(lookup, value, request)

    def get_search_fields(self, request) -> Sequence[str]:
        return self._without_secrets(super().get_search_fields(request))

    def get_ordering(self, request) -> Sequence[str]:
        return self._without_secrets(super().get_ordering(request) or ())

    def get_sortable_by(self, request) -> Sequence[str]:
        return self._without_secrets(super().get_sortable_by(request))

    def get_list_display(self, request) -> Sequence:
        return self._without_secrets(super().get_list_display(request))

    def get_list_filter(self, request) -> Sequence:
        return self._without_secrets(super().get_list_filter(request))

    def get_fields(self, request, obj=None) -> Sequence:
        return self._without_secrets(super().get_fields(request, obj))

    def get_readonly_fields(self, request, obj=None) -> Sequence:
        return self._without_secrets(super().get_readonly_fields(request, obj))
