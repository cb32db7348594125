"""Turn clocks (issue 6): deadlines per decision, the reminder ladder, timeouts and the bot
stand-in, "+24 h", leave, and the daily digest. The play service calls
:func:`turn_clock_start` when a game starts and :func:`turn_clock_after_move` after each
applied move; Celery beat runs :func:`turns_sweep_fan_out` every minute (the workers share
its items) and :func:`digests_send` every hour.
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
from .sweep import turns_sweep, turns_sweep_fan_out
from .timeouts import turn_timeout_due_apply

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
    "turn_timeout_due_apply",
    "turns_sweep",
    "turns_sweep_fan_out",
]
