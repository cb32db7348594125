"""The club's Portuguese is Brazilian, in the words of the Brazilian Colt Express guide: no
European form comes back into the catalogue, the default rules texts, the glossary or the pages
a member reads (Django's own messages on the account forms and the admin included). The code is
``pt-br``; a cookie, a browser or a stored profile that says ``pt`` still reads Brazilian."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from django.urls import reverse
from i18nkit import COLT_TM, reader, table_started, visible_texts

from games.models import Ruleset, RulesText
from games.services import rules_texts
from games.services.rulesets import rulesets_install_defaults

BASE_DIR = Path(settings.BASE_DIR)
CATALOGUE = BASE_DIR / "games" / "locale" / "pt_BR" / "LC_MESSAGES" / "django.po"

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
    portuguese = [part["pt-br"] for part in parts if "pt-br" in part]
    assert len(portuguese) == 7
    assert [_european(text) for text in portuguese] == [[]] * 7
    assert "rodada" in rules_texts.COLT_RULES["pt-br"]
    assert "trem" in rules_texts.NAPAD_RULES["pt-br"]


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
    RulesText.objects.filter(ruleset=colt, language="pt-br").update(text=shipped)
    RulesText.objects.filter(ruleset=napad, language="pt-br").update(text="Corrigido pelo clube")

    rulesets_install_defaults()

    text = RulesText.objects.get(ruleset=colt, language="pt-br").text
    assert text == rules_texts.translated(
        [rules_texts.COLT_RULES, rules_texts.COLT_ROUND_DECK_PUBLISHED], "pt-br"
    )
    assert _european(text) == []
    # An organiser's own text is never replaced.
    assert RulesText.objects.get(ruleset=napad, language="pt-br").text == "Corrigido pelo clube"


@pytest.mark.django_db
def test_the_account_pages_and_their_errors_read_brazilian(alice):
    # A browser that asks for plain "pt" gets the club's Portuguese, which is Brazilian.
    client = Client(HTTP_ACCEPT_LANGUAGE="pt")
    seen = []
    for name in ("login", "signup", "password_reset"):
        seen += visible_texts(client.get(reverse(name)).content.decode(), "pt-br")
    # Django's own messages: a failed log-in, a sign-up with a weak and mismatched password.
    seen += visible_texts(
        client.post(reverse("login"), {"username": "alice", "password": "wrong"}).content.decode(),
        "pt-br",
    )
    seen += visible_texts(
        client.post(
            reverse("signup"),
            {"username": "alice", "email": "x", "password1": "1234", "password2": "12345"},
        ).content.decode(),
        "pt-br",
    )
    page = " ".join(seen)
    assert "senha" in page and "usuário" in page
    assert _european(page) == []


@pytest.mark.django_db
def test_the_home_page_names_a_members_game_in_portuguese(alice, bob):
    game = table_started(COLT_TM, alice, bob)
    html = reader(alice, "pt-br").get(reverse("home")).content.decode()
    assert f"#{game.pk} · Colt Express + Máquina do Tempo" in html
    assert "Time Machine" not in " ".join(visible_texts(html, "pt-br"))


# Django's own words that European Portuguese says otherwise: the admin's and auth's.
DJANGO_EUROPEAN = ("Gravar", "Guardar", "Utilizador", "História")


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("cookie", "accept_language"),
    [("pt", ""), ("pt-br", ""), ("", "pt"), ("", "pt-PT,pt;q=0.9,en;q=0.5"), ("", "pt-BR")],
)
def test_any_portuguese_a_browser_asks_for_is_brazilian(cookie, accept_language):
    # A cookie set before the code became "pt-br", or a browser in Portugal, gets the club's
    # Portuguese, with Django's own messages in Brazilian too (the admin's log-in page).
    client = Client(HTTP_ACCEPT_LANGUAGE=accept_language)
    if cookie:
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = cookie
    page = client.get(reverse("login")).content.decode()
    admin = client.get(reverse("admin:login")).content.decode()
    for html in (page, admin):
        assert '<html lang="pt-br"' in html
    assert "Esqueceu sua senha?" in page
    assert "Administração do Django" in admin or "Administração" in admin
    assert "Nome de usuário" in admin
    assert _european(" ".join(visible_texts(admin, "pt-br"))) == []


@pytest.mark.django_db
def test_the_admin_speaks_brazilian_to_a_portuguese_staff_member(alice):
    alice.is_staff = alice.is_superuser = True
    alice.save()
    alice.player.language = "pt-br"
    alice.player.save(update_fields=["language"])
    client = Client()
    # Logging in through the site's form switches the browser to the member's language.
    client.post(reverse("login"), {"username": "alice", "password": "train-robbery-42"})

    change = client.get(reverse("admin:auth_user_change", args=[alice.pk])).content.decode()
    index = client.get(reverse("admin:index")).content.decode()

    assert '<html lang="pt-br"' in change
    assert "Salvar e continuar editando" in change
    assert "Histórico" in change
    assert "Usuários" in change
    assert "Administração do Site" in index
    for html in (change, index):
        texts = " ".join(visible_texts(html, "pt-br"))
        assert [word for word in DJANGO_EUROPEAN if word in texts] == []
        assert _european(texts) == []


@pytest.mark.django_db(transaction=True)
def test_a_member_and_a_rules_text_stored_as_pt_read_brazilian_after_the_migration():
    before = [("games", "0021_player_display_name_key")]
    after = [("games", "0022_language_pt_br")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    apps = executor.loader.project_state(before).apps
    user = apps.get_model("auth", "User").objects.create(
        username="carla", password=make_password("train-robbery-42")
    )
    apps.get_model("games", "Player").objects.create(
        user=user, display_name="Carla", display_name_key="carla", language="pt"
    )
    ruleset = apps.get_model("games", "Ruleset").objects.create(
        kind="napad", name="Napad", slug="napad-pt", version=1, status="published"
    )
    apps.get_model("games", "RulesText").objects.create(
        ruleset=ruleset, language="pt", text="**Regras** do trem"
    )

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(after)

    carla = get_user_model().objects.get(username="carla")
    assert carla.player.language == "pt-br"
    assert RulesText.objects.get(ruleset_id=ruleset.pk).language == "pt-br"
    client = Client()
    response = client.post(reverse("login"), {"username": "carla", "password": "train-robbery-42"})
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "pt-br"
    html = client.get(reverse("rules_detail", args=["napad-pt", 1])).content.decode()
    assert '<html lang="pt-br"' in html
    assert "<strong>Regras</strong> do trem" in html
    assert 'class="notice" lang="en"' not in html  # no "not translated yet" notice
