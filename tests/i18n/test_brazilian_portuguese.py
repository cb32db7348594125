"""The club's Portuguese is Brazilian, in the words of the Brazilian Colt Express guide: no
European form comes back into the catalogue, the default rules texts, the glossary or the pages
a member reads (Django's own messages on the account forms included)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from i18nkit import COLT_TM, reader, table_started, visible_texts

from games.models import Ruleset, RulesText
from games.services import rules_texts
from games.services.rulesets import rulesets_install_defaults

BASE_DIR = Path(settings.BASE_DIR)
CATALOGUE = BASE_DIR / "games" / "locale" / "pt" / "LC_MESSAGES" / "django.po"

# Words and signs a Brazilian reader knows as Portugal's (the Brazilian word in the comment).
EUROPEAN = re.compile(
    r"\bpalavras?-passe\b"  # senha
    r"|\butilizador(es)?\b"  # usuário
    r"|\becrã\b"  # tela
    r"|\btelemóve(l|is)\b"  # celular
    r"|\bpartilh\w*"  # compartilhar
    r"|\bregist(ar|ad[oa]s?|o|os)\b"  # registrar, registro
    r"|\bficheiros?\b"  # arquivo
    r"|\bcomboios?\b"  # trem
    r"|\brondas?\b"  # rodada (the guide's word)
    r"|\bequipas?\b"  # equipe
    r"|\bcontactos?\b"  # contato
    r"|\btem de\b"  # tem que / precisa
    r"|\bestá a \w+r\b"  # está jogando
    r"|\baté ao\b"  # até o
    r"|[«»]",  # “aspas”
    re.IGNORECASE,
)


def _msgstrs(path: Path) -> list[tuple[str, str]]:
    """(msgid, msgstr) for every translation in a .po file, plural forms one by one."""
    pairs, msgid, key, current = [], "", None, ""
    for line in [*path.read_text(encoding="utf-8").splitlines(), ""]:
        match = re.match(r"^(#~ )?(msgctxt|msgid|msgid_plural|msgstr(?:\[\d\])?) (\".*\")$", line)
        if match and not match.group(1):
            if key and key.startswith("msgstr"):
                pairs.append((msgid, current))
            key, current = match.group(2), ast.literal_eval(match.group(3))
            if key == "msgid":
                msgid = current
        elif line.startswith('"') and key:
            current += ast.literal_eval(line)
        else:
            if key and key.startswith("msgstr"):
                pairs.append((msgid, current))
            key, current = None, ""
    return [(msgid, msgstr) for msgid, msgstr in pairs if msgid]


def _european(text: str) -> list[str]:
    return [match.group(0) for match in EUROPEAN.finditer(text)]


def test_the_marker_list_catches_the_european_forms():
    # The list itself: each European form is caught, its Brazilian word is not.
    for european in (
        "a sua palavra-passe",
        "Nome de utilizador",
        "ecrã principal",
        "no telemóvel",
        "Partilhar",
        "Registar-se",
        "um ficheiro",
        "O comboio",
        "Ronda 2",
        "«Mover»",
        "tem de escolher",
        "está a decorrer",
        "até ao fim",
        "a equipa",
        "o contacto",
    ):
        assert _european(european), european
    for brazilian in (
        "sua senha",
        "Nome de usuário",
        "tela de início",
        "no celular",
        "Compartilhar",
        "Cadastre-se",
        "registrado",
        "Registro do jogo",
        "um arquivo",
        "O trem",
        "Rodada 2",
        "“Mover”",
        "precisa escolher",
        "está em andamento",
        "até o fim",
        "a equipe",
    ):
        assert not _european(brazilian), brazilian


def test_no_portuguese_translation_uses_a_european_form():
    pairs = _msgstrs(CATALOGUE)
    assert len(pairs) > 1000  # the whole catalogue was read
    found = {msgid: _european(msgstr) for msgid, msgstr in pairs if _european(msgstr)}
    assert found == {}


def test_the_portuguese_catalogue_uses_the_guides_terms():
    translated = dict(_msgstrs(CATALOGUE))
    # The Brazilian Colt Express guide's words (../shared/seeds): trem, rodada, Carta de Bala
    # Neutra, Armação!, Execução!, Mudar de Piso, cabine, Pistoleiro.
    assert translated["The train reaches the station: the game is over."].startswith("O trem")
    assert translated["Round %(number)s is over."] == "A rodada %(number)s terminou."
    assert "Carta de Bala Neutra" in translated["%(name)s takes a neutral bullet (%(why)s)."]
    assert translated["Schemin'"] == "Armação!"
    assert translated["Stealin'"] == "Execução!"
    assert translated["Floor change"] == "Mudar de Piso"
    assert translated["caboose"] == "cabine"
    assert translated["Gunslinger"] == "Pistoleiro"
    assert translated["Password"] == "Senha"
    assert translated["Username"] == "Nome de usuário"


def test_the_default_rules_texts_are_brazilian():
    parts = [value for value in vars(rules_texts).values() if isinstance(value, dict)]
    portuguese = [part["pt"] for part in parts if "pt" in part]
    assert len(portuguese) == 7
    assert [_european(text) for text in portuguese] == [[]] * 7
    assert "rodada" in rules_texts.COLT_RULES["pt"] and "trem" in rules_texts.NAPAD_RULES["pt"]


def test_the_glossarys_portuguese_column_is_brazilian():
    rows = [
        line.split("|")
        for line in (BASE_DIR / "docs" / "glossary.md").read_text(encoding="utf-8").splitlines()
        if line.startswith("|") and not line.startswith("|---")
    ]
    portuguese = [cells[-2] for cells in rows]  # the last column (a row ends with "|")
    assert len(portuguese) > 40
    assert [cell for cell in portuguese if _european(cell)] == []
    assert any("trem" in cell for cell in portuguese)
    assert any(cell.strip() == "rodada" for cell in portuguese)


@pytest.mark.django_db
def test_an_unedited_european_rules_text_becomes_brazilian_on_install():
    rulesets_install_defaults()
    colt = Ruleset.objects.get(slug="colt-express", version=1)
    napad = Ruleset.objects.get(slug="napad-designed-default", version=1)
    # A club installed before: its Portuguese texts are the European ones shipped then.
    shipped = (BASE_DIR / "tests" / "i18n" / "european_colt_rules_pt.md").read_text("utf-8")
    assert rules_texts.superseded(shipped)
    RulesText.objects.filter(ruleset=colt, language="pt").update(text=shipped)
    RulesText.objects.filter(ruleset=napad, language="pt").update(text="Corrigido pelo clube")

    rulesets_install_defaults()

    text = RulesText.objects.get(ruleset=colt, language="pt").text
    assert text == rules_texts.translated(
        [rules_texts.COLT_RULES, rules_texts.COLT_ROUND_DECK_PUBLISHED], "pt"
    )
    assert _european(text) == []
    # An organiser's own text is never replaced.
    assert RulesText.objects.get(ruleset=napad, language="pt").text == "Corrigido pelo clube"


@pytest.mark.django_db
def test_the_account_pages_and_their_errors_read_brazilian(alice):
    client = Client(HTTP_ACCEPT_LANGUAGE="pt")
    seen = []
    for name in ("login", "signup", "password_reset"):
        seen += visible_texts(client.get(reverse(name)).content.decode(), "pt")
    # Django's own messages: a failed log-in, a sign-up with a weak and mismatched password.
    seen += visible_texts(
        client.post(reverse("login"), {"username": "alice", "password": "wrong"}).content.decode(),
        "pt",
    )
    seen += visible_texts(
        client.post(
            reverse("signup"),
            {"username": "alice", "email": "x", "password1": "1234", "password2": "12345"},
        ).content.decode(),
        "pt",
    )
    page = " ".join(seen)
    assert "senha" in page and "usuário" in page
    assert _european(page) == []


@pytest.mark.django_db
def test_the_home_page_names_a_members_game_in_portuguese(alice, bob):
    game = table_started(COLT_TM, alice, bob)
    html = reader(alice, "pt").get(reverse("home")).content.decode()
    assert f"#{game.pk} · Colt Express + Máquina do Tempo" in html
    assert "Time Machine" not in " ".join(visible_texts(html, "pt"))
