"""The create-a-table form: game and ruleset version, the engine's options, seats, clock, bots,
and who may join. Options and bot kinds come from the engines, so a new variant needs no form
change. A bot seat is chosen by level (easy / medium / hard, ``games.text.bots``); the value posted
is the level's bot name, the one the seat stores."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _

from games.engines import get_engine
from games.forms.fields import WholeNumberField
from games.models import Player, Ruleset
from games.table.rendering import option_choices
from games.text.bots import bot_choices as bot_choices_of
from games.text.bots import bot_kind_for

MAX_SEATS = 6
TURN_TIME_LIMITS = {
    "5m": (timedelta(minutes=5), _("5 minutes (a live table)")),
    "1h": (timedelta(hours=1), _("1 hour")),
    "12h": (timedelta(hours=12), _("12 hours")),
    "24h": (timedelta(hours=24), _("24 hours")),
    "72h": (timedelta(hours=72), _("72 hours")),
}


def playable_rulesets():
    """Published rulesets whose engine is installed."""
    kinds = []
    for kind in Ruleset.Kind.values:
        try:
            get_engine(kind)
        except ImportError:
            continue
        kinds.append(kind)
    return Ruleset.objects.filter(status=Ruleset.Status.PUBLISHED, kind__in=kinds).order_by(
        "kind", "name", "-version"
    )


def ruleset_option_values(ruleset: Ruleset) -> dict[str, Any]:
    """What the ruleset's own config says for each of its engine's table options: the form
    starts from these, so a table of a version plays that version unless the member changes
    something (a "+ Time Machine" ruleset has the Time Machine on)."""
    engine = get_engine(ruleset.kind)
    values = {}
    for option in engine.options(ruleset.config):
        value = ruleset.config.get(option["key"], option.get("default"))
        values[option["key"]] = bool(value) if option["type"] == "bool" else value
    return values


class RulesetSelect(forms.Select):
    """Each option carries its game (``data-kind``, so the page shows only its options), the
    option values its config sets (``data-options``) and the seats its game takes."""

    def create_option(self, name, value, *args, **kwargs):
        option = super().create_option(name, value, *args, **kwargs)
        instance = getattr(value, "instance", None)
        if instance is not None:
            engine = get_engine(instance.kind)
            option["attrs"]["data-kind"] = instance.kind
            option["attrs"]["data-options"] = json.dumps(ruleset_option_values(instance))
            option["attrs"]["data-min-seats"] = engine.min_players
            option["attrs"]["data-max-seats"] = min(engine.max_players, MAX_SEATS)
        return option


class RulesetChoiceField(forms.ModelChoiceField):
    widget = RulesetSelect

    def label_from_instance(self, obj: Ruleset) -> str:
        return f"{obj.get_kind_display()} — {obj.display_name} (v{obj.version})"


class TableCreateForm(forms.Form):
    ruleset = RulesetChoiceField(label=_("Game and ruleset"), queryset=Ruleset.objects.none())
    seats = WholeNumberField(label=_("Seats"), min_value=2, max_value=MAX_SEATS, initial=2)
    turn_time_limit = forms.ChoiceField(
        label=_("Turn time limit"),
        choices=[(key, label) for key, (_delta, label) in TURN_TIME_LIMITS.items()],
        initial="24h",
    )
    invite_only = forms.BooleanField(
        label=_("Invite only"),
        required=False,
        help_text=_("Only the members you invite can see and join the table."),
    )
    invitees = forms.CharField(
        label=_("Invite members"),
        required=False,
        help_text=_("Usernames, separated by commas or spaces."),
    )

    def __init__(self, *args: Any, user=None, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.user = user
        self.fields["ruleset"].queryset = playable_rulesets()
        # One field per option and per bot seat, across every installed engine; only those of
        # the chosen game apply (the template groups option fields by game).
        self.option_fields: dict[str, list[tuple[str, dict[str, Any]]]] = {}
        bot_choices: dict[str, str] = {}
        for ruleset in self.fields["ruleset"].queryset.order_by("kind").distinct():
            engine = get_engine(ruleset.kind)
            for bot, label in bot_choices_of(engine):
                bot_choices.setdefault(bot, label)
            if ruleset.kind in self.option_fields:
                continue
            self.option_fields[ruleset.kind] = []
            for option in engine.options(ruleset.config):
                name = f"option_{ruleset.kind}_{option['key']}"
                if option["type"] == "bool":
                    field = forms.BooleanField(required=False)
                else:
                    field = forms.ChoiceField(
                        required=False,
                        choices=[("", _("as the ruleset says"))]
                        + [(str(value), _(label)) for value, label in option_choices(option)],
                    )
                # The engines mark their labels and help (gettext_noop): said here, lazily.
                field.label = _(option["label"])
                field.help_text = _(option["help"]) if option.get("help") else ""
                self.fields[name] = field
                self.option_fields[ruleset.kind].append((name, option))
        self.bot_field_names = []
        for position in range(MAX_SEATS):
            name = f"bot_{position}"
            self.fields[name] = forms.ChoiceField(
                label=_("Seat %(seat)s") % {"seat": position + 1},
                required=False,
                choices=[("", _("a member"))] + list(bot_choices.items()),
            )
            self.bot_field_names.append(name)
        if not self.is_bound:
            self._start_from(self.initial.get("ruleset") or self.fields["ruleset"].queryset.first())

    def _start_from(self, ruleset: Ruleset | None) -> None:
        """Options as the (first or chosen) ruleset sets them, for a page without JavaScript;
        the page's script does the same whenever another ruleset is chosen."""
        if not isinstance(ruleset, Ruleset):
            return
        self.initial["ruleset"] = ruleset.pk
        for key, value in ruleset_option_values(ruleset).items():
            name = f"option_{ruleset.kind}_{key}"
            if name in self.fields:
                self.initial[name] = value if isinstance(value, bool) else str(value)

    def option_groups(self):
        """(kind, game name, [bound fields]) for the template."""
        return [
            (kind, dict(Ruleset.Kind.choices)[kind], [self[name] for name, _option in fields])
            for kind, fields in self.option_fields.items()
            if fields
        ]

    def bot_fields(self):
        return [self[name] for name in self.bot_field_names]

    def clean_turn_time_limit(self) -> timedelta:
        return TURN_TIME_LIMITS[self.cleaned_data["turn_time_limit"]][0]

    def clean_invitees(self) -> list[Player]:
        names = self.cleaned_data["invitees"].replace(",", " ").split()
        if not names:
            return []
        users = get_user_model().objects.filter(username__in=names).select_related("player")
        found = {u.username: u for u in users}
        unknown = [name for name in names if name not in found]
        if unknown:
            raise forms.ValidationError(
                _("No member is called %(names)s.") % {"names": ", ".join(unknown)}
            )
        missing = [name for name, u in found.items() if not hasattr(u, "player")]
        if missing:
            raise forms.ValidationError(
                _("%(names)s cannot play yet.") % {"names": ", ".join(missing)}
            )
        return [found[name].player for name in dict.fromkeys(names)]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        ruleset = cleaned.get("ruleset")
        seats = cleaned.get("seats")
        if ruleset is None:
            return cleaned
        options = {}
        # Only what differs from the chosen version's own config is the table's option.
        configured = ruleset_option_values(ruleset)
        for name, option in self.option_fields.get(ruleset.kind, []):
            value = cleaned.get(name)
            if option["type"] == "bool":
                if bool(value) != bool(configured.get(option["key"])):
                    options[option["key"]] = bool(value)
            elif value not in ("", None):
                values = {str(choice): choice for choice, _label in option_choices(option)}
                chosen = values.get(value, value)
                if chosen != configured.get(option["key"]):
                    options[option["key"]] = chosen
        cleaned["options"] = options
        engine = get_engine(ruleset.kind)
        bot_seats = {}
        for position, name in enumerate(self.bot_field_names):
            bot = cleaned.get(name)
            if not bot:
                continue
            bot = bot_kind_for(engine, bot) or bot
            if seats is not None and position >= seats:
                self.add_error(name, _("This seat is not at the table."))
            elif bot not in engine.bots:
                self.add_error(name, _("%(game)s has no such bot.") % {"game": engine.name})
            else:
                bot_seats[position] = bot
        cleaned["bot_seats"] = bot_seats
        return cleaned

    def add_service_problems(self, problems: dict[str | None, list[str]]) -> None:
        """Show a service's refusal next to the field it names (or above the form)."""
        for key, messages in problems.items():
            for message in messages:
                self.add_error(key if key in self.fields else None, message)
