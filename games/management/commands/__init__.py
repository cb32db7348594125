"""``manage.py`` commands: runclub, simulate, api_token, sweep_turns, league_recompute, bench."""
