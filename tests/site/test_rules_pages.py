"""Rules pages: the index, one page per version in the member's language, Markdown that can
never inject script, and the table options explained."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from django.test import Client
from django.urls import reverse
from playkit import napad_game, napad_ruleset

from games.models import Ruleset, RulesText
from games.services.ruleset_admin import ruleset_clone, ruleset_retire, ruleset_update_draft
from games.services.rulesets import rulesets_install_defaults
from games.views.rules import rules_markdown_html
from tests.personakit import client_for, rules_editor

pytestmark = pytest.mark.django_db


class _MarkupAudit(HTMLParser):
    """Collects every tag or attribute that could run script, as a browser would parse it."""

    def __init__(self):
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag in {"script", "iframe", "svg", "img", "object", "embed", "style"}:
            self.found.append(tag)
        for name, value in attrs:
            if name.startswith("on") or name == "style":
                self.found.append(f"{tag}[{name}]")
            if name in {"href", "src"} and (value or "").strip().lower().startswith("javascript"):
                self.found.append(f"{tag}[{name}={value}]")


def _dangerous_markup(html: str) -> list[str]:
    audit = _MarkupAudit()
    audit.feed(html)
    return audit.found


def _detail_url(ruleset: Ruleset) -> str:
    return reverse("rules_detail", args=[ruleset.slug, ruleset.version])


def test_the_index_lists_playable_versions_but_not_drafts(db):
    ruleset = napad_ruleset()
    draft = ruleset_clone(ruleset=ruleset, user=None)
    assert reverse("rules_index") == "/rules/"
    page = Client().get(reverse("rules_index")).content.decode()
    assert _detail_url(ruleset) in page
    assert _detail_url(Ruleset.objects.get(slug="napad-variant-a")) in page
    assert _detail_url(draft) not in page
    assert Client().get(_detail_url(draft)).status_code == 404
    # Organisers preview drafts.
    assert client_for(rules_editor()).get(_detail_url(draft)).status_code == 200


def test_a_rules_page_renders_the_markdown_and_explains_the_options(db):
    ruleset = napad_ruleset()
    assert _detail_url(ruleset) == "/rules/napad-designed-default/v1/"
    response = Client().get(_detail_url(ruleset))
    assert response.status_code == 200
    page = response.content.decode()
    assert "<strong>To jest napad!</strong>" in page
    assert "<blockquote>" in page  # the designed-default card data note
    # Every engine option, with whether this version switches it on.
    assert "Variant A: scoring with bullets" in page
    assert "Variant B: bonus for wagons of value 2" in page
    assert "off in this version" in page
    variant_b = Client().get(_detail_url(Ruleset.objects.get(slug="napad-variant-b")))
    assert "on in this version" in variant_b.content.decode()


def test_colt_choice_options_name_the_version_s_choice(db):
    napad_ruleset()
    guide = Ruleset.objects.get(slug="colt-express-5-of-7")
    page = Client().get(_detail_url(guide)).content.decode()
    assert "this version: 5 of the 7 round cards, no station" in page


@pytest.mark.parametrize(
    "attack",
    [
        "<script>alert('x')</script>",
        "<img src=x onerror=alert('x')>",
        "[click](javascript:alert('x'))",
        '<a href="javascript:alert(1)">x</a>',
        "<iframe src='https://evil.example'></iframe>",
        '<p style="background:url(javascript:alert(1))" onclick="alert(1)">hi</p>',
        "<svg onload=alert('x')></svg>",
    ],
)
def test_rules_text_cannot_inject_script(db, attack):
    draft = ruleset_clone(ruleset=napad_ruleset(), user=None)
    ruleset_update_draft(ruleset=draft, rules_text=f"**Rules** {attack} end")
    html = str(rules_markdown_html(draft.rules_text))
    assert _dangerous_markup(html) == []
    assert "<strong>Rules</strong>" in html
    page = client_for(rules_editor()).get(_detail_url(draft)).content.decode()
    article = page[page.index('<article class="rules-text"') : page.index("</article>")]
    assert _dangerous_markup(article) == []


def test_links_are_kept_safe(db):
    html = str(rules_markdown_html("[the rulebook](https://example.org/rules.pdf)"))
    assert 'href="https://example.org/rules.pdf"' in html
    assert 'rel="noopener noreferrer"' in html


def test_the_page_follows_the_member_s_language_with_english_fallback(db):
    ruleset = napad_ruleset()
    # The default rulesets come with Polish and Portuguese texts: start this one without.
    RulesText.objects.filter(ruleset=ruleset).delete()
    RulesText.objects.create(ruleset=ruleset, language="pl", text="**Zasady** po polsku")
    polish = Client(HTTP_ACCEPT_LANGUAGE="pl").get(_detail_url(ruleset)).content.decode()
    assert "<strong>Zasady</strong> po polsku" in polish
    # No Portuguese text: the English one, and a note saying so.
    portuguese = Client(HTTP_ACCEPT_LANGUAGE="pt").get(_detail_url(ruleset))
    assert "<strong>To jest napad!</strong>" in portuguese.content.decode()
    assert portuguese.context["text_language"] == "en"
    # An English RulesText wins over the ruleset's own text.
    RulesText.objects.create(ruleset=ruleset, language="en", text="*English override*")
    english = Client(HTTP_ACCEPT_LANGUAGE="en").get(_detail_url(ruleset)).content.decode()
    assert "<em>English override</em>" in english


def test_a_retired_version_keeps_its_page(db):
    ruleset = napad_ruleset()
    ruleset_retire(ruleset=ruleset)
    response = Client().get(_detail_url(ruleset))
    assert response.status_code == 200 and "retired" in response.content.decode()


def test_the_game_page_and_the_navigation_link_to_the_rules(alice, bob, alice_client):
    game = napad_game(alice, bob)
    page = alice_client.get(reverse("game_detail", args=[game.pk])).content.decode()
    assert _detail_url(game.ruleset) in page
    lobby = alice_client.get(reverse("lobby")).content.decode()
    assert reverse("rules_index") in lobby


def test_the_default_rulesets_come_with_their_rules_in_polish_and_portuguese(db):
    ruleset = napad_ruleset()
    polish = Client(HTTP_ACCEPT_LANGUAGE="pl").get(_detail_url(ruleset))
    assert polish.context["text_language"] == "pl"
    assert "Podział łupów" in polish.content.decode()
    portuguese = Client(HTTP_ACCEPT_LANGUAGE="pt").get(_detail_url(ruleset))
    assert portuguese.context["text_language"] == "pt-br"
    assert "Divisão do saque" in portuguese.content.decode()
    # Installing again never replaces a text an organiser corrected.
    RulesText.objects.filter(ruleset=ruleset, language="pl").update(text="Poprawione")
    rulesets_install_defaults()
    assert RulesText.objects.get(ruleset=ruleset, language="pl").text == "Poprawione"
