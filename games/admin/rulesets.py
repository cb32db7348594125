"""Admin for rules editors: rulesets (clone, edit drafts with the engine's validation, publish,
retire, diff), their translated rules texts, and balance simulation runs.

The admin stays thin: every change goes through ``games.services.ruleset_admin`` or
``games.services.simulation``, and each one is written to Django's admin log.
"""

from __future__ import annotations

import json
import math
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.admin.secrets import SecretFieldsAdminMixin
from games.engines import ConfigError, get_engine
from games.forms.fields import WholeNumberField
from games.models import Ruleset, RulesText, SimulationRun
from games.services.ruleset_admin import (
    RulesetError,
    ruleset_clone,
    ruleset_config_validate,
    ruleset_diff,
    ruleset_next_version,
    ruleset_publish,
    ruleset_retire,
    ruleset_update_draft,
)
from games.services.simulation import SimulationError, simulation_start, simulation_summary
from games.templatetags.board_labels import gang_name
from games.text.bots import bot_choices, bot_kind_for, seat_bot_label
from games.text.parsing import strict_int
from games.text.wording import config_problems

# -- ruleset form -----------------------------------------------------------------------------


class PrettyJSONField(forms.JSONField):
    """A JSON textarea that shows the config indented, one setting per line."""

    def prepare_value(self, value: Any) -> str:
        if isinstance(value, forms.fields.InvalidJSONInput):
            return value
        return json.dumps(value, ensure_ascii=False, indent=2, cls=self.encoder)


class RulesetAdminForm(forms.ModelForm):
    """Validates the config with the game's engine; each problem is shown with its path."""

    config = PrettyJSONField(
        label=gettext_lazy("config (JSON)"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 28, "cols": 100, "class": "vLargeTextField"}),
        help_text=gettext_lazy(
            "The ruleset as data. Leave empty on a new ruleset to start from the game's "
            "defaults. Problems are listed below with the path of each setting."
        ),
    )

    class Meta:
        model = Ruleset
        fields = ["kind", "name", "slug", "version", "config", "rules_text"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # (path, message) pairs of the last validation, for the template to show as a table.
        self.config_problems: list[tuple[str, str]] = []

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        stored = Ruleset.objects.filter(pk=self.instance.pk).first() if self.instance.pk else None
        if stored is not None and stored.status != Ruleset.Status.DRAFT:
            # The fields are read-only on the page; a crafted POST still gets a clear no.
            posted = [name for name in ("config", "rules_text", "name") if name in self.data]
            if posted:
                raise ValidationError(
                    _(
                        "%(ruleset)s is %(status)s and can never be changed. "
                        "Clone it to make a new version."
                    ),
                    params={"ruleset": stored, "status": stored.get_status_display()},
                    code="ruleset_frozen",
                )
            return cleaned
        if "config" not in self.fields:
            return cleaned
        kind = cleaned.get("kind") or (stored.kind if stored else None)
        config = cleaned.get("config")
        if not kind or "config" in self.errors:
            return cleaned
        engine = get_engine(kind)
        if config in (None, "", {}):
            config = engine.default_config()
        try:
            cleaned["config"] = ruleset_config_validate(kind=kind, config=config)
        except ConfigError as error:
            self.config_problems = config_problems(error)
            self.add_error(
                "config",
                [
                    ValidationError("%(path)s: %(message)s", params={"path": p, "message": m})
                    for p, m in self.config_problems
                ],
            )
        return cleaned


class RulesTextInline(SecretFieldsAdminMixin, admin.StackedInline):
    model = RulesText
    extra = 0
    fields = ["language", "text"]
    verbose_name_plural = gettext_lazy(
        "rules texts per language (English falls back to the ruleset's own text)"
    )


@admin.register(RulesText)
class RulesTextAdmin(SecretFieldsAdminMixin, admin.ModelAdmin):
    list_display = ["ruleset", "language", "updated_at"]
    list_filter = ["language", "ruleset__kind"]
    list_select_related = ["ruleset"]
    search_fields = ["ruleset__name", "ruleset__slug", "text"]


# -- ruleset admin ----------------------------------------------------------------------------


class SimulationStartForm(forms.Form):
    games = WholeNumberField(
        label=gettext_lazy("games"),
        min_value=SimulationRun.MIN_GAMES,
        max_value=SimulationRun.MAX_GAMES,
        initial=500,
    )
    players = forms.TypedChoiceField(label=gettext_lazy("players"), coerce=int)
    bots = forms.MultipleChoiceField(
        label=gettext_lazy("bots"),
        widget=forms.CheckboxSelectMultiple,
        help_text=gettext_lazy(
            "The chosen bots share the seats; the line-up moves one seat each game. A hard bot "
            "thinks up to a second per move: a few hundred games with it take an hour."
        ),
    )
    compare_with_parent = forms.BooleanField(
        label=gettext_lazy("compare with the version it was cloned from"),
        required=False,
        initial=True,
    )

    def __init__(self, *args, ruleset: Ruleset, **kwargs):
        super().__init__(*args, **kwargs)
        engine = get_engine(ruleset.kind)
        counts = range(engine.min_players, engine.max_players + 1)
        self.fields["players"].choices = [(n, n) for n in counts]
        self.fields["players"].initial = min(4, engine.max_players)
        self.fields["bots"].choices = bot_choices(engine)
        # Easy and medium by default: quick runs; the hard bot is there to be picked.
        self.fields["bots"].initial = [
            name for name in (bot_kind_for(engine, "easy"), bot_kind_for(engine, "medium")) if name
        ]
        if ruleset.cloned_from is None:
            del self.fields["compare_with_parent"]


@admin.register(Ruleset)
class RulesetAdmin(SecretFieldsAdminMixin, admin.ModelAdmin):
    form = RulesetAdminForm
    change_form_template = "admin/games/ruleset/change_form.html"
    list_display = ["name", "kind", "slug", "version", "status", "published_at", "cloned_from"]
    list_filter = ["kind", "status"]
    search_fields = ["name", "slug"]
    ordering = ["kind", "slug", "-version"]
    inlines = [RulesTextInline]
    actions = ["clone_selected", "publish_selected", "retire_selected"]

    # -- which fields, and when ------------------------------------------------------------

    def get_fields(self, request, obj=None):
        fields = ["kind", "name", "slug", "version", "status", "config", "rules_text"]
        if obj is not None:
            fields += ["cloned_from", "created_by", "created_at", "published_at"]
        return fields

    def get_readonly_fields(self, request, obj=None):
        if obj is None:
            return ["status"]
        meta = ["status", "cloned_from", "created_by", "created_at", "published_at"]
        if obj.status == Ruleset.Status.DRAFT:
            return ["kind", "slug", "version", *meta]
        # Published and retired versions are frozen: editing means cloning.
        return ["kind", "name", "slug", "version", "config", "rules_text", *meta]

    def get_changeform_initial_data(self, request):
        initial = super().get_changeform_initial_data(request)
        initial.setdefault("version", 1)
        return initial

    def save_model(self, request, obj, form, change):
        if not change:
            obj.status = Ruleset.Status.DRAFT
            obj.created_by = request.user
            obj.version = obj.version or ruleset_next_version(obj.slug)
            obj.save()
            return
        if obj.status != Ruleset.Status.DRAFT:
            # Only the inline translations were edited; the version itself stays as it is.
            return
        ruleset_update_draft(
            ruleset=obj,
            config=form.cleaned_data["config"],
            rules_text=form.cleaned_data["rules_text"],
            name=form.cleaned_data["name"],
        )

    def render_change_form(self, request, context, add=False, change=False, form_url="", obj=None):
        form = context["adminform"].form
        context["config_problems"] = getattr(form, "config_problems", [])
        if obj is not None:
            context.update(self._object_tools_context(request, obj))
        return super().render_change_form(request, context, add, change, form_url, obj)

    def _object_tools_context(self, request, obj: Ruleset) -> dict[str, Any]:
        return {
            "may_clone": self.has_add_permission(request),
            "may_change_status": self.has_change_permission(request, obj),
            "may_simulate": request.user.has_perm("games.add_simulationrun"),
            "simulation_runs": obj.simulation_runs.all()[:10],
            "rules_url": reverse("rules_detail", args=[obj.slug, obj.version]),
        }

    # -- buttons (custom views) ------------------------------------------------------------

    def get_urls(self):
        wrap = self.admin_site.admin_view
        return [
            path("<int:pk>/clone/", wrap(self.clone_view), name="games_ruleset_clone"),
            path("<int:pk>/publish/", wrap(self.publish_view), name="games_ruleset_publish"),
            path("<int:pk>/retire/", wrap(self.retire_view), name="games_ruleset_retire"),
            path("<int:pk>/diff/", wrap(self.diff_view), name="games_ruleset_diff"),
            path("<int:pk>/simulate/", wrap(self.simulate_view), name="games_ruleset_simulate"),
            *super().get_urls(),
        ]

    def _change_url(self, ruleset: Ruleset) -> str:
        return reverse("admin:games_ruleset_change", args=[ruleset.pk])

    def clone_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        if not self.has_add_permission(request):
            raise PermissionDenied
        source = get_object_or_404(Ruleset, pk=pk)
        clone = ruleset_clone(ruleset=source, user=request.user)
        self.log_addition(request, clone, _("Cloned from %s") % source)
        messages.success(request, _("%(clone)s is a new draft: edit it here.") % {"clone": clone})
        return HttpResponseRedirect(self._change_url(clone))

    def _status_view(self, request: HttpRequest, pk: int, service, done: str) -> HttpResponse:
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        ruleset = get_object_or_404(Ruleset, pk=pk)
        if not self.has_change_permission(request, ruleset):
            raise PermissionDenied
        try:
            service(ruleset=ruleset, user=request.user)
        except RulesetError as error:
            messages.error(request, error.message)
        else:
            self.log_change(request, ruleset, done % {"ruleset": ruleset})
            messages.success(request, done % {"ruleset": ruleset})
        return HttpResponseRedirect(self._change_url(ruleset))

    def publish_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        return self._status_view(request, pk, ruleset_publish, _("Published %(ruleset)s."))

    def retire_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        return self._status_view(
            request, pk, ruleset_retire, _("Retired %(ruleset)s: no new tables can use it.")
        )

    def diff_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        ruleset = get_object_or_404(Ruleset, pk=pk)
        if not self.has_view_permission(request, ruleset):
            raise PermissionDenied
        others = Ruleset.objects.filter(kind=ruleset.kind).exclude(pk=ruleset.pk)
        against_id = strict_int(request.GET.get("against"), minimum=1)
        against = None
        if against_id is not None:
            against = others.filter(pk=against_id).first()
        if against is None:
            against = ruleset.cloned_from or others.filter(slug=ruleset.slug).first()
        diff = ruleset_diff(against, ruleset) if against is not None else None
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": _("Changes in %(ruleset)s") % {"ruleset": ruleset},
            "original": ruleset,
            "against": against,
            "others": others,
            "diff": diff,
        }
        return TemplateResponse(request, "admin/games/ruleset/diff.html", context)

    def simulate_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        ruleset = get_object_or_404(Ruleset, pk=pk)
        if not request.user.has_perm("games.add_simulationrun"):
            raise PermissionDenied
        form = SimulationStartForm(request.POST or None, ruleset=ruleset)
        if request.method == "POST" and form.is_valid():
            try:
                run = simulation_start(
                    ruleset=ruleset,
                    games=form.cleaned_data["games"],
                    players=form.cleaned_data["players"],
                    bots=form.cleaned_data["bots"],
                    user=request.user,
                    compare_with_parent=form.cleaned_data.get("compare_with_parent", False),
                )
            except SimulationError as error:
                form.add_error(None, error.message)
            else:
                self.log_addition(request, run, [{"added": {}}])
                self.log_change(request, ruleset, _("Started simulation run %s") % run.pk)
                return HttpResponseRedirect(
                    reverse("admin:games_simulationrun_change", args=[run.pk])
                )
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": _("Simulate bot games with %(ruleset)s") % {"ruleset": ruleset},
            "original": ruleset,
            "form": form,
        }
        return TemplateResponse(request, "admin/games/ruleset/simulate.html", context)

    # -- list actions ----------------------------------------------------------------------

    @admin.action(description=gettext_lazy("Clone into new drafts"), permissions=["add"])
    def clone_selected(self, request, queryset):
        for ruleset in queryset:
            clone = ruleset_clone(ruleset=ruleset, user=request.user)
            self.log_addition(request, clone, _("Cloned from %s") % ruleset)
            messages.success(
                request,
                _("Cloned %(ruleset)s into %(clone)s.")
                % {
                    "ruleset": ruleset,
                    "clone": clone,
                },
            )

    def _status_action(self, request, queryset, service, done: str) -> None:
        for ruleset in queryset:
            try:
                service(ruleset=ruleset, user=request.user)
            except RulesetError as error:
                messages.error(request, error.message)
            else:
                self.log_change(request, ruleset, done % {"ruleset": ruleset})
                messages.success(request, done % {"ruleset": ruleset})

    @admin.action(description=gettext_lazy("Publish the selected drafts"), permissions=["change"])
    def publish_selected(self, request, queryset):
        self._status_action(request, queryset, ruleset_publish, _("Published %(ruleset)s."))

    @admin.action(description=gettext_lazy("Retire the selected versions"), permissions=["change"])
    def retire_selected(self, request, queryset):
        self._status_action(request, queryset, ruleset_retire, _("Retired %(ruleset)s."))


# -- simulation runs --------------------------------------------------------------------------

CHART_WIDTH = 640
CHART_HEIGHT = 220
CHART_MARGIN = 30
CHART_MAX_BINS = 30


def score_chart(summary: dict | None, baseline: dict | None) -> dict[str, Any] | None:
    """Geometry of a score histogram (share of seat results per score bin), the run and its
    baseline side by side in each bin, for a server-rendered SVG."""
    series = [s for s in (summary, baseline) if s]
    if not series:
        return None
    scores = [score for s in series for score in s["scores"]]
    low, high = min(scores), max(scores)
    width = max(1, math.ceil((high - low + 1) / CHART_MAX_BINS))
    bins = list(range(low, high + 1, width))

    def shares(s: dict | None) -> list[float]:
        if not s:
            return []
        total = sum(s["scores"].values()) or 1
        counts = [0] * len(bins)
        for score, count in s["scores"].items():
            counts[(score - low) // width] += count
        return [count / total for count in counts]

    run_shares, base_shares = shares(summary), shares(baseline)
    top = max(run_shares + base_shares) or 1
    plot_w = CHART_WIDTH - 2 * CHART_MARGIN
    plot_h = CHART_HEIGHT - 2 * CHART_MARGIN
    slot = plot_w / len(bins)
    bar_w = slot / (2 if baseline else 1) * 0.9
    bars = []
    for index, start in enumerate(bins):
        label = str(start) if width == 1 else f"{start}–{start + width - 1}"
        for offset, (share_list, css) in enumerate(
            [(run_shares, "run"), (base_shares, "baseline")]
        ):
            if not share_list:
                continue
            height = share_list[index] / top * plot_h
            bars.append(
                {
                    "x": round(CHART_MARGIN + index * slot + offset * bar_w, 2),
                    "y": round(CHART_HEIGHT - CHART_MARGIN - height, 2),
                    "width": round(bar_w, 2),
                    "height": round(height, 2),
                    "css": css,
                    "title": f"{label}: {share_list[index]:.1%}",
                }
            )
    step = max(1, len(bins) // 8)
    ticks = [
        {"x": round(CHART_MARGIN + index * slot + slot / 2, 2), "label": bins[index]}
        for index in range(0, len(bins), step)
    ]
    return {
        "width": CHART_WIDTH,
        "height": CHART_HEIGHT,
        "bars": bars,
        "ticks": ticks,
        "axis_y": CHART_HEIGHT - CHART_MARGIN,
        "axis_x_end": CHART_WIDTH - CHART_MARGIN,
        "top_share": f"{top:.0%}",
        "margin": CHART_MARGIN,
    }


def comparison_tables(summary: dict | None, baseline: dict | None) -> list[dict[str, Any]]:
    """Win rate and mean score per seat, per gang / character and per bot, run beside
    baseline (rows present in either)."""
    if not summary:
        return []
    tables = []
    seats = max(len(summary["per_seat"]), len(baseline["per_seat"]) if baseline else 0)
    seat_rows = []
    for index in range(seats):
        run_row = summary["per_seat"][index] if index < len(summary["per_seat"]) else None
        base_row = (
            baseline["per_seat"][index] if baseline and index < len(baseline["per_seat"]) else None
        )
        seat_rows.append(_row(_("Seat %(n)s") % {"n": index + 1}, run_row, base_row))
    tables.append({"title": _("Per seat"), "rows": seat_rows})
    # Gangs and bot kinds in the organiser's language (the board's and the log's words).
    named = {"per_identity": gang_name, "per_bot": seat_bot_label}
    for key, title in (("per_identity", _("Per gang / character")), ("per_bot", _("Per bot"))):
        names = sorted(set(summary[key]) | set(baseline[key] if baseline else ()))
        rows = [
            _row(
                str(named[key](name)),
                summary[key].get(name),
                baseline[key].get(name) if baseline else None,
            )
            for name in names
        ]
        tables.append({"title": title, "rows": rows})
    return tables


def _row(label: str, run: dict | None, base: dict | None) -> dict[str, Any]:
    def delta(key: str) -> float | None:
        if run is None or base is None:
            return None
        return run[key] - base[key]

    return {
        "label": label,
        "run": run,
        "baseline": base,
        "win_rate_delta": delta("win_rate"),
        "mean_score_delta": delta("mean_score"),
    }


@admin.register(SimulationRun)
class SimulationRunAdmin(SecretFieldsAdminMixin, admin.ModelAdmin):
    list_display = ["pk", "ruleset", "status", "progress", "players", "created_at", "created_by"]
    list_filter = ["status", "ruleset__kind"]
    list_select_related = ["ruleset", "created_by"]

    @admin.display(description=gettext_lazy("progress"))
    def progress(self, run: SimulationRun) -> str:
        return format_html("{} / {}", run.games_done, run.games_requested)

    # Runs are started from a ruleset's page and written by the task only.
    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def get_urls(self):
        wrap = self.admin_site.admin_view
        return [
            path(
                "<int:pk>/progress/",
                wrap(self.progress_view),
                name="games_simulationrun_progress",
            ),
            *super().get_urls(),
        ]

    def _run_context(self, run: SimulationRun) -> dict[str, Any]:
        summary = simulation_summary(run.results)
        baseline = run.baseline
        baseline_summary = simulation_summary(baseline.results) if baseline else None
        return {
            "run": run,
            "baseline": baseline,
            "summary": summary,
            "baseline_summary": baseline_summary,
            "tables": comparison_tables(summary, baseline_summary),
            "chart": score_chart(summary, baseline_summary),
            "still_running": not run.is_done or (baseline is not None and not baseline.is_done),
        }

    def change_view(self, request, object_id, form_url="", extra_context=None):
        run = get_object_or_404(
            SimulationRun.objects.select_related("ruleset", "baseline__ruleset"), pk=object_id
        )
        if not self.has_view_permission(request, run):
            raise PermissionDenied
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": _("Simulation of %(ruleset)s") % {"ruleset": run.ruleset},
            "original": run,
            **self._run_context(run),
        }
        return TemplateResponse(request, "admin/games/simulationrun/results.html", context)

    def progress_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        """The progress bars for HTMX polling; once every run is done the page reloads to
        show the results."""
        run = get_object_or_404(SimulationRun.objects.select_related("baseline"), pk=pk)
        if not self.has_view_permission(request, run):
            raise PermissionDenied
        context = {**self._run_context(run), "opts": self.model._meta}
        response = TemplateResponse(
            request, "admin/games/simulationrun/results.html#progress", context
        )
        if not context["still_running"]:
            response["HX-Refresh"] = "true"
        return response
