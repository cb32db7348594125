"""Turn clocks (issue 6): deadlines per decision, the reminder ladder, the timeouts' count and
the bot stand-in, "+24 h", leave, and the daily digest. The play service calls
:func:`turn_clock_start` when a game starts and :func:`turn_clock_after_move` after each
applied move, so this package sits below it and makes no move: the timeout's move and the
minute's sweep (``turns_sweep_fan_out``, run by Celery beat) are games/services/turns/'s.
Celery beat runs :func:`digests_send` every hour.
"""

from .deadlines import (
    ClockError,
    deadline_extend,
    extension_available,
    extensions_given,
    turn_clock_after_move,
    turn_clock_start,
)
from .digest import digests_send
from .leave_time import leave_days_used, players_on_leave
from .reminders import turn_reminder_due_send

__all__ = [
    "ClockError",
    "deadline_extend",
    "digests_send",
    "extension_available",
    "extensions_given",
    "leave_days_used",
    "players_on_leave",
    "turn_clock_after_move",
    "turn_clock_start",
    "turn_reminder_due_send",
]
