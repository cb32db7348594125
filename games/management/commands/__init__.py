"""``manage.py`` commands: runclub, simulate, api_token, sweep_turns, league_recompute,
app_icons, makemessages (``bench`` is the ``benchmarks`` app's)."""
