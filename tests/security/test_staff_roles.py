"""Staff status opens no invitation-only table (docs/roles.md): not the page, its fragments,
its log, the API or the socket, whatever the staff role. A moderator opens one by acting on
it in the admin — written in the audit trail first — and then watches it as a spectator;
the grant lasts ``NAPAD_MODERATOR_VIEW_HOURS`` after their last action there."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.conf import settings
from django.db import connections
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.models import Game, ModerationAction
from napad_site.asgi import application
from tests.personakit import STAFF_ROLES, client_for, staff_member
from tests.socketkit import Socket, session_of, socket_headers

HTMX = {"HX-Request": "true"}


def _staff(role: str):
    """A member who is staff in ``role``, named after it."""
    return staff_member(role.replace("_", ""), role, signed_up=True)


def _table_answers(client: Client, game_id: int) -> dict[str, int]:
    """What the table's pages, fragment and API answer this client."""
    token_free = {
        "page": client.get(reverse("game_detail", args=[game_id])),
        "fragment": client.get(reverse("game_detail", args=[game_id]), headers=HTMX),
        "log": client.get(reverse("game_log", args=[game_id])),
        "watch": client.get(reverse("game_watch", args=[game_id])),
        "api": client.get(f"/api/tables/{game_id}"),
    }
    return {name: response.status_code for name, response in token_free.items()}


async def _socket(client: Client, game_id: int) -> tuple[bool, int | None]:
    socket = Socket(
        application, f"/ws/games/{game_id}/", headers=socket_headers(session_of(client))
    )
    connected, code = await socket.connect()
    if connected:
        await socket.disconnect()
    return connected, (None if connected else code)


def _socket_answer(client: Client, game_id: int) -> tuple[bool, int | None]:
    answer = async_to_sync(_socket)(client, game_id)
    async_to_sync(sync_to_async(connections.close_all))()
    return answer


def _open_from_admin(client: Client, game_id: int, reason: str = "A player reported abuse"):
    return client.post(
        reverse("admin:games_game_moderate", args=[game_id, "view"]), {"reason": reason}
    )


NOT_SEEN = {"page": 404, "fragment": 404, "log": 404, "watch": 404, "api": 404}
SEEN = {"page": 200, "fragment": 200, "log": 200, "watch": 200, "api": 200}


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("role", STAFF_ROLES)
def test_staff_without_seat_or_invitation_cannot_view_an_invite_only_table(world, role):
    client = client_for(_staff(role))
    hidden = world["hidden_game_id"]
    assert _table_answers(client, hidden) == NOT_SEEN
    assert _socket_answer(client, hidden) == (False, 4403)
    # The open table next to it stays open to them as to any member.
    assert _table_answers(client, world["game_id"]) == SEEN


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("role", ["moderator", "superuser"])
def test_a_moderator_opening_an_invite_only_table_is_logged_and_then_watches(world, role):
    moderator = _staff(role)
    client = client_for(moderator)
    hidden = world["hidden_game_id"]
    change_page = client.get(reverse("admin:games_game_change", args=[hidden])).content.decode()
    assert reverse("admin:games_game_moderate", args=[hidden, "view"]) in change_page
    assert _table_answers(client, hidden) == NOT_SEEN

    response = _open_from_admin(client, hidden)
    assert response.status_code == 302
    assert response["Location"] == reverse("game_detail", args=[hidden])
    record = ModerationAction.objects.get(game_id=hidden)
    assert (record.action, record.actor_id, record.reason) == (
        ModerationAction.Action.VIEW_TABLE,
        moderator.pk,
        "A player reported abuse",
    )
    assert _table_answers(client, hidden) == SEEN
    assert _socket_answer(client, hidden) == (True, None)
    # As a spectator: no seat's hand, never the seed.
    page = client.get(reverse("game_detail", args=[hidden])).content.decode()
    assert Game.objects.get(pk=hidden).seed not in page
    # The audit trail shows it to the other moderators.
    trail = client.get(reverse("admin:games_moderationaction_changelist")).content.decode()
    assert "A player reported abuse" in trail


@pytest.mark.django_db(transaction=True)
def test_a_moderators_view_ends_with_the_window_and_with_the_role(world):
    moderator = _staff("moderator")
    client = client_for(moderator)
    hidden = world["hidden_game_id"]
    _open_from_admin(client, hidden)
    assert _table_answers(client, hidden) == SEEN
    ModerationAction.objects.filter(game_id=hidden).update(
        created_at=timezone.now() - timedelta(hours=settings.NAPAD_MODERATOR_VIEW_HOURS, minutes=1)
    )
    assert _table_answers(client, hidden) == NOT_SEEN
    assert _socket_answer(client, hidden) == (False, 4403)
    _open_from_admin(client, hidden, "Looking again")
    assert _table_answers(client, hidden) == SEEN
    moderator.groups.clear()
    assert _table_answers(client_for(moderator), hidden) == NOT_SEEN


@pytest.mark.parametrize("role", ["staff_without_group", "rules_editor"])
def test_staff_who_are_not_moderators_cannot_open_a_table_from_the_admin(world, role):
    client = client_for(_staff(role))
    hidden = world["hidden_game_id"]
    assert _open_from_admin(client, hidden).status_code == 403
    assert not ModerationAction.objects.filter(game_id=hidden).exists()
    assert _table_answers(client, hidden) == NOT_SEEN


def test_opening_a_table_needs_a_reason_and_logs_nothing_without_one(world):
    client = client_for(_staff("moderator"))
    hidden = world["hidden_game_id"]
    response = _open_from_admin(client, hidden, reason="   ")
    assert response.status_code == 200  # the form again, with the problem
    assert not ModerationAction.objects.filter(game_id=hidden).exists()
    assert _table_answers(client, hidden) == NOT_SEEN


def test_no_code_decides_anything_on_staff_status_outside_the_roles_module():
    """``is_staff`` only lets an account into the admin (Django reads it there); who may do
    what is asked of games/roles.py. Setting it (the demo organiser) is fine."""
    root = Path(__file__).resolve().parents[2]
    readers = []
    for folder in ("games", "napad_site", "templates"):
        for path in (root / folder).rglob("*"):
            if path.suffix not in {".py", ".html", ".txt"} or "migrations" in path.parts:
                continue
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if re.search(r"\bis_(staff|superuser)\b", line) and not re.search(
                    r"\bis_staff\s*=|update_fields=\[\"is_staff\"\]", line
                ):
                    readers.append(f"{path.relative_to(root)}:{number}")
    assert [r for r in readers if not r.startswith("games/roles.py")] == []
