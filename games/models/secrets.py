"""Which fields hold a secret: one registry, declared on the models themselves.

A model that stores something a member may not see (a game's seed or state, a face-down card,
a private event, a push key) names those fields in a ``SECRET_FIELDS`` class attribute. The
admin reads this registry (``games/admin/secrets.py``) to refuse filters, searches, orderings
and columns on them, and so does a field reached through a relation (``game__seed``). A new
model with a secret is covered by declaring it here, nowhere else.
"""

from __future__ import annotations

from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.exceptions import FieldDoesNotExist
from django.db import models

# Models of other apps, which cannot carry the attribute: (app label, model name) -> fields.
OTHER_APPS_SECRET_FIELDS: dict[tuple[str, str], tuple[str, ...]] = {}


def secret_fields(model: type[models.Model]) -> frozenset[str]:
    """The names of ``model``'s fields that hold a secret."""
    declared = set(getattr(model, "SECRET_FIELDS", ()))
    meta = model._meta
    declared.update(OTHER_APPS_SECRET_FIELDS.get((meta.app_label, meta.model_name), ()))
    if model is get_user_model():
        declared.add("password")
    return frozenset(declared)


def models_with_secrets() -> list[type[models.Model]]:
    """Every installed model that declares a secret field."""
    return [model for model in apps.get_models() if secret_fields(model)]


def lookup_touches_secret(model: type[models.Model], lookup: str) -> bool:
    """Whether a query lookup (``seed__startswith``, ``game__state__hand__0``, ``-seed``,
    ``events__action``) starting on ``model`` reads a secret field, through relations too."""
    parts = lookup.lstrip("-").split("__")
    for part in parts:
        try:
            field = model._meta.get_field(part)
        except FieldDoesNotExist:
            # A transform or a lookup name: the path of fields ends here.
            return False
        if field.name in secret_fields(model) or part in secret_fields(model):
            return True
        if not field.is_relation or field.related_model is None:
            return False
        model = field.related_model
    return False
