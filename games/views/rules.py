"""Rules pages for players: every playable ruleset, and one page per version with its rules
text (in the member's language when there is one) and the table options explained.

Rules texts are Markdown written by organisers; they are rendered to HTML and then cleaned
with ``nh3`` (an allow-list sanitiser), so a text can never inject script into the page.
"""

from __future__ import annotations

from itertools import groupby

import markdown
import nh3
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import translation
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

from games.engines import get_engine
from games.models import Ruleset, RulesText
from games.roles import may_preview_drafts

# What Markdown produces for rules: text, lists, tables, emphasis, links, headings. Links get
# rel="noopener noreferrer" from nh3; everything else (script, style, on* attributes, iframes,
# javascript: URLs) is dropped.
ALLOWED_TAGS = {
    "a",
    "abbr",
    "blockquote",
    "br",
    "code",
    "dd",
    "del",
    "dl",
    "dt",
    "em",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "hr",
    "li",
    "ol",
    "p",
    "pre",
    "strong",
    "sub",
    "sup",
    "table",
    "tbody",
    "td",
    "th",
    "thead",
    "tr",
    "ul",
}
ALLOWED_ATTRIBUTES = {"a": {"href", "title"}, "abbr": {"title"}, "th": {"align"}, "td": {"align"}}
URL_SCHEMES = {"http", "https", "mailto"}


def rules_markdown_html(text: str) -> SafeString:
    """Markdown to HTML that is safe to put in a page, whatever the text contains."""
    html = markdown.markdown(text or "", extensions=["tables", "sane_lists"])
    cleaned = nh3.clean(
        html,
        tags=ALLOWED_TAGS,
        attributes=ALLOWED_ATTRIBUTES,
        url_schemes=URL_SCHEMES,
        link_rel="noopener noreferrer",
    )
    return mark_safe(cleaned)  # noqa: S308 - sanitised by nh3 just above


def rules_text_for(ruleset: Ruleset, language: str) -> tuple[str, str]:
    """``(text, language)``: the text in ``language``, else the English one, else the
    ruleset's own text (which is English)."""
    texts = {text.language: text.text for text in RulesText.objects.filter(ruleset=ruleset)}
    language = language or "en"
    # The exact language first ("pt-br"), then its generic form, as Django falls back.
    for candidate in (language, language.split("-")[0], "en"):
        if texts.get(candidate, "").strip():
            return texts[candidate], candidate
    return ruleset.rules_text, "en"


def _visible_rulesets(request: HttpRequest):
    """Players see published and retired versions (old games still point at them); rules
    editors also see drafts, to preview them (docs/roles.md)."""
    rulesets = Ruleset.objects.all()
    if not may_preview_drafts(request.user):
        rulesets = rulesets.exclude(status=Ruleset.Status.DRAFT)
    return rulesets


def rules_index(request: HttpRequest) -> HttpResponse:
    rulesets = list(_visible_rulesets(request).order_by("kind", "slug", "-version"))
    games = []
    for kind, of_kind in groupby(rulesets, key=lambda r: r.kind):
        entries = []
        for _slug, versions in groupby(of_kind, key=lambda r: r.slug):
            versions = list(versions)
            # The version a new table would use comes first; retired/draft ones after it.
            current = next(
                (v for v in versions if v.status == Ruleset.Status.PUBLISHED), versions[0]
            )
            entries.append(
                {"current": current, "others": [v for v in versions if v.pk != current.pk]}
            )
        games.append({"kind": kind, "name": Ruleset.Kind(kind).label, "entries": entries})
    return render(request, "rules/rules_index.html", {"games": games})


def _option_explained(option: dict, config: dict) -> dict:
    """An engine option with its English texts translated and this version's value named."""
    value = config.get(option["key"], option.get("default"))
    choices = [
        {**choice, "label": gettext(choice.get("label", str(choice.get("value"))))}
        for choice in option.get("choices", [])
        if isinstance(choice, dict)
    ]
    value_label = next((c["label"] for c in choices if c.get("value") == value), value)
    return {
        **option,
        "label": gettext(option["label"]),
        "help": gettext(option.get("help", "")) if option.get("help") else "",
        "choices": choices,
        "value": value,
        "value_label": value_label,
    }


def rules_detail(request: HttpRequest, slug: str, version: int) -> HttpResponse:
    ruleset = _visible_rulesets(request).filter(slug=slug, version=version).first()
    if ruleset is None:
        raise Http404("No such ruleset.")
    text, text_language = rules_text_for(ruleset, translation.get_language())
    engine = get_engine(ruleset.kind)
    options = [
        _option_explained(option, ruleset.config) for option in engine.options(ruleset.config)
    ]
    versions = Ruleset.objects.filter(slug=ruleset.slug).exclude(pk=ruleset.pk)
    if not may_preview_drafts(request.user):
        versions = versions.exclude(status=Ruleset.Status.DRAFT)
    return render(
        request,
        "rules/rules_detail.html",
        {
            "ruleset": ruleset,
            "rules_html": rules_markdown_html(text),
            "text_language": text_language,
            # Said when the text is the English fallback, not for "pt" text on a "pt-br" page.
            "in_english_instead": text_language == "en"
            and (translation.get_language() or "en").split("-")[0] != "en",
            "options": options,
            "engine_name": engine.name,
            "min_players": engine.min_players,
            "max_players": engine.max_players,
            "other_versions": versions.order_by("-version"),
        },
    )
