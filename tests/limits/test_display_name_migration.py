"""The migration that makes display names unique keeps every member, renaming lookalikes
deterministically: the member who joined first keeps the name, later ones get "name 2"…, and
characters a name may no longer hold are removed."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

BEFORE = [("games", "0020_push_delivery_failure")]
AFTER = [("games", "0021_player_display_name_key")]


@pytest.mark.django_db(transaction=True)
def test_existing_lookalike_names_are_renamed_in_order_of_joining():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    apps = executor.loader.project_state(BEFORE).apps
    User = apps.get_model("auth", "User")
    Player = apps.get_model("games", "Player")
    start = timezone.now() - timedelta(days=30)
    names = ["Alice", "alice", "Ｂob", "ALICE", "Bob", "\u202eCarla\u200b", "Dan"]
    for index, name in enumerate(names):
        user = User.objects.create(username=f"member{index}")
        player = Player.objects.create(user=user, display_name=name)
        # Joined in the order listed (the ids say the same; the dates decide).
        Player.objects.filter(pk=player.pk).update(created_at=start + timedelta(days=index))

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(AFTER)

    apps = executor.loader.project_state(AFTER).apps
    Player = apps.get_model("games", "Player")
    renamed = list(Player.objects.order_by("created_at").values_list("display_name", flat=True))
    assert renamed == ["Alice", "alice 2", "Ｂob", "ALICE 3", "Bob 2", "Carla", "Dan"]
    keys = list(Player.objects.values_list("display_name_key", flat=True))
    assert len(set(keys)) == len(keys)
