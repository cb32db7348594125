"""League forms: a club-night result (players, places, scores) and a new season."""

from __future__ import annotations

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.engines import get_engine
from games.forms.fields import WholeNumberField
from games.models import League, Membership, Player

MAX_TABLE = 6


class ClubNightResultForm(forms.Form):
    """One row per seat; rows left without a player are ignored."""

    played_on = forms.DateField(
        label=_("Played on"), widget=forms.DateInput(attrs={"type": "date"})
    )

    def __init__(self, *args, league: League, **kwargs):
        super().__init__(*args, **kwargs)
        self.league = league
        engine = get_engine(league.kind)
        self.rows = min(MAX_TABLE, engine.max_players)
        members = Player.objects.filter(
            memberships__league=league, memberships__status=Membership.Status.ACTIVE
        ).order_by("display_name")
        identities = [("", _("—"))] + [
            (name, name) for name in engine.identities(league.ruleset.config)
        ]
        self.fields["played_on"].initial = timezone.localdate()
        for index in range(1, self.rows + 1):
            self.fields[f"player_{index}"] = forms.ModelChoiceField(
                members, required=False, label=_("Player %(n)s") % {"n": index}
            )
            self.fields[f"place_{index}"] = WholeNumberField(
                min_value=1, max_value=self.rows, required=False, label=_("Place")
            )
            self.fields[f"score_{index}"] = WholeNumberField(required=False, label=_("Score"))
            self.fields[f"identity_{index}"] = forms.ChoiceField(
                choices=identities, required=False, label=_("Gang or character")
            )

    def seat_rows(self):
        """The bound fields grouped per seat, for the template."""
        return [
            [self[f"{name}_{index}"] for name in ("player", "place", "score", "identity")]
            for index in range(1, self.rows + 1)
        ]

    def clean_played_on(self):
        played_on = self.cleaned_data["played_on"]
        if played_on > timezone.localdate():
            raise forms.ValidationError(_("A result cannot be from the future."))
        return played_on

    def clean(self):
        cleaned = super().clean()
        seats = []
        for index in range(1, self.rows + 1):
            player = cleaned.get(f"player_{index}")
            if player is None:
                continue
            place = cleaned.get(f"place_{index}")
            if place is None:
                self.add_error(f"place_{index}", _("Give this player's place."))
                continue
            seats.append(
                {
                    "player": player,
                    "place": place,
                    "score": cleaned.get(f"score_{index}"),
                    "identity": cleaned.get(f"identity_{index}") or "",
                }
            )
        cleaned["seats"] = seats
        return cleaned


class SeasonCreateForm(forms.Form):
    starts_on = forms.DateField(
        label=_("First round opens on"), widget=forms.DateInput(attrs={"type": "date"})
    )
    rounds = WholeNumberField(label=_("Rounds"), min_value=1, max_value=52, initial=6)
