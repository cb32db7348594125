"""A move button (the ``act_form`` macro, templates/jinja2/games/_act_form.html) as a member's
browser reads it, for every way the table uses it — the actions' list (with the board's spots it
names), a hand's pass and draw buttons, a button with its own accessible name —: a form that
posts the action and the page's version to the table's move URL (HTMX swapping #game-live), with
the CSRF token, the label as text."""

from __future__ import annotations

import json

import pytest
from django.template import engines
from django.test import RequestFactory
from playkit import napad_game, user_to_move

from games.models import Game
from tests.markupkit import parse
from tests.personakit import client_for

CALLED = (
    '{% from "games/_act_form.html" import act_form %}'
    "{{ act_form(json, label, act_url, game.version, csrf_input, **options) }}"
)
ACT_URL = "/games/3/act/?a&b"
BUTTONS = [
    {
        "json": '{"type": "pass"}',
        "label": "Pass",
        "button_class": "button--quiet button--small",
        "form_class": "hand__pass",
    },
    {
        "json": '{"target": 2, "type": "punch"}',
        "label": "Punch <Belle> & run",
        "marks": "bandit-2 spot-3-roof",
    },
    {"json": '{"type": "draw"}', "label": "Dobierz karty", "aria_label": 'say "draw"'},
    {"json": "", "label": ""},
]


@pytest.mark.parametrize("button", BUTTONS)
@pytest.mark.parametrize("token", ["t0k3n" * 6 + "ab", None], ids=["csrf", "no-csrf"])
@pytest.mark.parametrize("game", [{"version": 12}, None], ids=["game", "no-game"])
def test_a_move_button_posts_its_action_and_the_pages_version(button, token, game):
    options = {
        key: button[key]
        for key in ("marks", "button_class", "form_class", "aria_label")
        if key in button
    }
    context = {"act_url": ACT_URL, "options": options, **button}
    if game is not None:
        context["game"] = game
    # With the request, the backend gives the template the CSRF input (as the views do).
    request = None
    if token is not None:
        request = RequestFactory().get("/")
        request.META["CSRF_COOKIE"] = token
    html = engines["jinja2"].from_string(CALLED).render(context, request)
    form = parse(html).find("form")
    assert form.attrs["method"] == "post"
    assert form.attrs["action"] == form.attrs["hx-post"] == ACT_URL
    assert form.attrs["hx-target"] == "#game-live"
    assert form.attrs["hx-swap"] == "outerHTML"
    assert form.attrs.get("class") == button.get("form_class")
    hidden = {i.attrs["name"]: i.attrs["value"] for i in form.find_all("input", type="hidden")}
    expected = {"action": button["json"], "version": "12" if game else ""}
    if token is not None:
        assert hidden.pop("csrfmiddlewaretoken")  # the token, masked as Django masks it
    assert hidden == expected
    pressed = form.find("button")
    assert pressed.classes == ["button", *(button.get("button_class") or "button--action").split()]
    assert pressed.text == button["label"]
    assert pressed.attrs.get("aria-label") == button.get("aria_label")
    assert pressed.attrs.get("data-names") == button.get("marks")
    assert "<Belle>" not in html


@pytest.mark.django_db
@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_every_button_of_the_table_carries_a_token_the_site_accepts(alice, bob, htmx):
    """The member to move sees a hand of buttons (one form per half of each card, and Pass):
    each form carries the same CSRF token, made once for the page (Django's Jinja2 backend
    would mask a new one for every form), and pressing any of them, with Django checking the
    token, plays the move."""
    game = napad_game(alice, bob)
    mover = user_to_move(game, [alice, bob])
    client = client_for(mover, enforce_csrf_checks=True)
    url = f"/games/{game.pk}/"
    extra = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    response = client.get(url, **extra)
    assert response.status_code == 200
    table = parse(response.content.decode()).find("div", id="game-live")
    forms = [form for form in table.find_all("form") if form.find_all("input", name="action")]
    assert len(forms) > 4  # a hand's halves and the pass
    fields = [
        {i.attrs["name"]: i.attrs["value"] for i in form.find_all("input", type="hidden")}
        for form in forms
    ]
    assert len({field["csrfmiddlewaretoken"] for field in fields}) == 1
    chosen = fields[-1]
    moved = client.post(forms[-1].attrs["action"], chosen, HTTP_HX_REQUEST="true")
    assert moved.status_code == 200
    game.refresh_from_db()
    assert game.version == int(chosen["version"]) + 1
    assert json.loads(chosen["action"])["type"] in {"play", "pass"}
    assert game.status == Game.Status.RUNNING


@pytest.mark.django_db
def test_the_game_pages_own_token_is_one_token_too(alice, bob):
    """Around the table, the site's page sends one token: the one htmx adds to every request
    and the log-out form's are the same (the table's render does not hand the page a token
    that changes at each use), and logging out with it works."""
    game = napad_game(alice, bob)
    client = client_for(alice, enforce_csrf_checks=True)
    page = parse(client.get(f"/games/{game.pk}/").content.decode())
    header = json.loads(page.find("body").attrs["hx-headers"])["X-CSRFToken"]
    log_out = page.find("form", cls="inline-form")
    token = log_out.find("input", type="hidden").attrs["value"]
    assert token == header
    response = client.post(log_out.attrs["action"], {"csrfmiddlewaretoken": token})
    assert response.status_code == 302
    assert "_auth_user_id" not in client.session
