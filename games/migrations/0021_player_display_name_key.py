"""Display names are unique: two members never go by names that look alike.

Adds ``Player.display_name_key`` (the name folded by NFKC, case, whitespace and letters drawn
like Latin ones; see games/models/players.py) with a unique constraint. Existing members keep
their names, except that

* characters a name may no longer hold (control, bidi, zero-width and other invisible ones)
  are removed from it, and
* where several members' names look alike, the member who joined first keeps the name and
  each later one (in order of joining) gets the first free "name 2", "name 3"…

Each rename is printed while the migration runs. The folding is copied here as it is today, so
this migration means the same thing whatever the model's code becomes.
"""

import unicodedata

from django.db import migrations, models

MAX_LENGTH = 40

_LOOKALIKES = str.maketrans(
    {
        "а": "a", "в": "b", "е": "e", "ѐ": "è", "ё": "ë", "і": "i", "ї": "ï", "ј": "j",
        "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c", "т": "t", "у": "y",
        "х": "x", "ѕ": "s", "ԁ": "d", "ԛ": "q", "ԝ": "w", "һ": "h", "ӏ": "l",
        "α": "a", "β": "b", "ε": "e", "ζ": "z", "η": "h", "ι": "i", "κ": "k", "μ": "m",
        "ν": "n", "ο": "o", "ρ": "p", "τ": "t", "υ": "y", "χ": "x", "ϲ": "c", "ϳ": "j",
    }
)
_INVISIBLE = {0x034F, 0x115F, 0x1160, 0x2800, 0x3164, 0xFFA0, 0x180B, 0x180C, 0x180D, 0x180F}
_INVISIBLE_RANGES = ((0xFE00, 0xFE0F), (0xE0100, 0xE01EF))
_REFUSED_CATEGORIES = {"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"}


def _refused(char):
    code = ord(char)
    if unicodedata.category(char) in _REFUSED_CATEGORIES or code in _INVISIBLE:
        return True
    return any(low <= code <= high for low, high in _INVISIBLE_RANGES)


def _key(name):
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    return "".join(folded.translate(_LOOKALIKES).split())


def keys_fill(apps, schema_editor):
    Player = apps.get_model("games", "Player")
    taken = set()
    for player in Player.objects.order_by("created_at", "pk").select_related("user"):
        shown = " ".join("".join(c for c in player.display_name if not _refused(c)).split())
        name = (shown or player.user.username or "Member")[:MAX_LENGTH]
        candidate, number = name, 1
        while _key(candidate) in taken or not _key(candidate):
            number += 1
            suffix = f" {number}"
            candidate = name[: MAX_LENGTH - len(suffix)].rstrip() + suffix
        taken.add(_key(candidate))
        if candidate != player.display_name:
            print(f"\n  player {player.pk}: display name {player.display_name!r} -> {candidate!r}")
        player.display_name = candidate
        player.display_name_key = _key(candidate)
        player.save(update_fields=["display_name", "display_name_key"])


class Migration(migrations.Migration):
    dependencies = [("games", "0020_push_delivery_failure")]

    operations = [
        migrations.AddField(
            model_name="player",
            name="display_name_key",
            field=models.CharField(default="", editable=False, max_length=160),
            preserve_default=False,
        ),
        migrations.RunPython(keys_fill, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="player",
            constraint=models.UniqueConstraint(
                fields=("display_name_key",), name="games_player_display_name_key_unique"
            ),
        ),
    ]
