"""A ruleset's life: clone into a new draft, edit the draft (validated by the engine), publish,
retire; and a readable diff between two versions.

A published version never changes (``games.models.rules_admin`` guards ``Ruleset.save`` too):
editing means cloning into a new draft. Games copy the config when they are created and
leagues pin a version, so publishing or retiring a version never changes a game under way.
"""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from games.engines import ConfigError, get_engine
from games.models import Ruleset, RulesText
from games.text.wording import config_problems


class RulesetError(Exception):
    """The lifecycle refuses a request (e.g. editing a published version)."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def _refuse_unless_draft(ruleset: Ruleset) -> None:
    if ruleset.status != Ruleset.Status.DRAFT:
        raise RulesetError(
            _("%(ruleset)s is %(status)s and can never be changed; clone it to edit.")
            % {"ruleset": ruleset, "status": ruleset.get_status_display()}
        )


def ruleset_config_validate(*, kind: str, config: Any) -> dict[str, Any]:
    """The engine's normalised config; raises ``ConfigError`` listing every problem by path."""
    return get_engine(kind).validate_config(config)


def ruleset_next_version(slug: str) -> int:
    return (Ruleset.objects.filter(slug=slug).aggregate(top=Max("version"))["top"] or 0) + 1


def ruleset_clone(
    *,
    ruleset: Ruleset,
    user: AbstractBaseUser | None,
    slug: str | None = None,
    name: str | None = None,
) -> Ruleset:
    """A new draft with the same config, rules text and translations.

    Same ``slug``: the next version of it. Another slug (house rules): version 1 of that, or
    its next version if it exists already.
    """
    slug = slug or ruleset.slug
    for _attempt in range(3):
        try:
            with transaction.atomic():
                clone = Ruleset.objects.create(
                    kind=ruleset.kind,
                    name=name or ruleset.name,
                    slug=slug,
                    version=ruleset_next_version(slug),
                    status=Ruleset.Status.DRAFT,
                    config=json.loads(json.dumps(ruleset.config)),
                    rules_text=ruleset.rules_text,
                    cloned_from=ruleset,
                    created_by=user if user is not None and user.is_authenticated else None,
                )
                RulesText.objects.bulk_create(
                    RulesText(ruleset=clone, language=text.language, text=text.text)
                    for text in ruleset.texts.all()
                )
                return clone
        except IntegrityError:
            # Two organisers cloned the same slug at once; the next version number is free.
            continue
    raise RulesetError(_("Could not pick a new version number; try again."))


def ruleset_update_draft(
    *,
    ruleset: Ruleset,
    config: Any = None,
    rules_text: str | None = None,
    name: str | None = None,
) -> Ruleset:
    """Change a draft. The config is validated by the engine first: a ``ConfigError`` (its
    ``as_dict()`` maps each path to its messages) leaves everything unsaved."""
    _refuse_unless_draft(ruleset)
    changes: dict[str, Any] = {}
    if config is not None:
        changes["config"] = ruleset_config_validate(kind=ruleset.kind, config=config)
    if rules_text is not None:
        changes["rules_text"] = rules_text
    if name is not None:
        changes["name"] = name
    if not changes:
        return ruleset
    with transaction.atomic():
        # Only while it is still a draft: a publish racing this edit wins, the edit is refused.
        updated = Ruleset.objects.filter(pk=ruleset.pk, status=Ruleset.Status.DRAFT).update(
            **changes
        )
        if not updated:
            ruleset.refresh_from_db()
            _refuse_unless_draft(ruleset)
    for key, value in changes.items():
        setattr(ruleset, key, value)
    return ruleset


def ruleset_publish(*, ruleset: Ruleset, user: AbstractBaseUser | None = None) -> Ruleset:
    """Make a draft playable. Its config is validated once more: the engine may have become
    stricter since the draft was saved."""
    _refuse_unless_draft(ruleset)
    try:
        config = ruleset_config_validate(kind=ruleset.kind, config=ruleset.config)
    except ConfigError as error:
        raise RulesetError(
            _("This draft's config is not valid any more: %(problems)s")
            % {"problems": "; ".join(f"{path}: {text}" for path, text in config_problems(error))}
        ) from None
    now = timezone.now()
    updated = Ruleset.objects.filter(pk=ruleset.pk, status=Ruleset.Status.DRAFT).update(
        status=Ruleset.Status.PUBLISHED, published_at=now, config=config
    )
    if not updated:
        ruleset.refresh_from_db()
        _refuse_unless_draft(ruleset)
    ruleset.refresh_from_db()
    return ruleset


def ruleset_retire(*, ruleset: Ruleset, user: AbstractBaseUser | None = None) -> Ruleset:
    """No new tables with this version. Games and leagues already on it play on unchanged."""
    updated = Ruleset.objects.filter(pk=ruleset.pk, status=Ruleset.Status.PUBLISHED).update(
        status=Ruleset.Status.RETIRED
    )
    if not updated:
        ruleset.refresh_from_db()
        raise RulesetError(
            _("Only a published version can be retired; %(ruleset)s is %(status)s.")
            % {"ruleset": ruleset, "status": ruleset.get_status_display()}
        )
    ruleset.refresh_from_db()
    return ruleset


# -- diff -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ConfigChange:
    """One setting that differs. ``change`` is "added", "removed" or "changed"."""

    path: str
    change: str
    old: Any = None
    new: Any = None

    @property
    def old_json(self) -> str:
        return json.dumps(self.old, ensure_ascii=False)

    @property
    def new_json(self) -> str:
        return json.dumps(self.new, ensure_ascii=False)


@dataclass(frozen=True)
class RulesetDiff:
    old: Ruleset
    new: Ruleset
    fields: list[tuple[str, Any, Any]] = field(default_factory=list)
    config: list[ConfigChange] = field(default_factory=list)
    rules_text: list[str] = field(default_factory=list)

    @property
    def is_empty(self) -> bool:
        return not (self.fields or self.config or self.rules_text)


def _join(path: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


def _config_changes(old: Any, new: Any, path: str = "") -> list[ConfigChange]:
    """Per-path differences, with paths written as the engine's errors write them
    (``gang_cards[3][1][1]``), so an organiser recognises them."""
    if isinstance(old, dict) and isinstance(new, dict):
        changes = []
        for key in sorted(set(old) | set(new), key=str):
            if key not in new:
                changes.append(ConfigChange(_join(path, key), "removed", old=old[key]))
            elif key not in old:
                changes.append(ConfigChange(_join(path, key), "added", new=new[key]))
            else:
                changes.extend(_config_changes(old[key], new[key], _join(path, key)))
        return changes
    if isinstance(old, list) and isinstance(new, list):
        changes = []
        for index in range(max(len(old), len(new))):
            if index >= len(new):
                changes.append(ConfigChange(_join(path, index), "removed", old=old[index]))
            elif index >= len(old):
                changes.append(ConfigChange(_join(path, index), "added", new=new[index]))
            else:
                changes.extend(_config_changes(old[index], new[index], _join(path, index)))
        return changes
    # ``1 == True`` in Python; a switch turned into a number is still a change.
    if old != new or type(old) is not type(new):
        return [ConfigChange(path or "(config)", "changed", old=old, new=new)]
    return []


def ruleset_diff(a: Ruleset, b: Ruleset) -> RulesetDiff:
    """What changed from ``a`` to ``b``: name and game, every config setting by path, and a
    unified diff of the English rules text."""
    fields = [
        (label, getattr(a, name), getattr(b, name))
        for name, label in (("kind", _("game")), ("name", _("name")))
        if getattr(a, name) != getattr(b, name)
    ]
    text_diff = list(
        difflib.unified_diff(
            (a.rules_text or "").splitlines(),
            (b.rules_text or "").splitlines(),
            fromfile=f"{a.slug} v{a.version}",
            tofile=f"{b.slug} v{b.version}",
            lineterm="",
        )
    )
    return RulesetDiff(
        old=a,
        new=b,
        fields=fields,
        config=_config_changes(a.config, b.config),
        rules_text=text_diff,
    )


def rulesets_playable():
    """The versions a new table (or league) may choose: published ones only, never a draft or
    a retired version."""
    return Ruleset.objects.filter(status=Ruleset.Status.PUBLISHED)
