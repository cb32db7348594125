"""A member's quiet hours (their own time zone): when nothing should make their phone sound.

Used by the reminder ladder (a reminder waits, or goes to the silent bell only) and by Web
Push (a push waits for the end of the quiet hours, or is dropped when it no longer matters).
"""

from __future__ import annotations

import zoneinfo
from datetime import datetime, timedelta

from games.models import Player


def quiet_hours_end(player: Player, now: datetime) -> datetime | None:
    """When the member's quiet hours end, if ``now`` falls inside them (else ``None``)."""
    start, end = player.quiet_hours_start, player.quiet_hours_end
    if start is None or end is None or start == end:
        return None
    try:
        zone = zoneinfo.ZoneInfo(player.time_zone or "UTC")
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        zone = zoneinfo.ZoneInfo("UTC")
    local = now.astimezone(zone)
    moment = local.time().replace(tzinfo=None)
    if start < end:
        if not start <= moment < end:
            return None
        day = local.date()
    else:  # quiet hours over midnight, e.g. 22:00–07:00
        if end <= moment < start:
            return None
        day = local.date() if moment < end else local.date() + timedelta(days=1)
    return datetime.combine(day, end, tzinfo=zone)
