"""To jest napad!: the rules engine (``engine.ENGINE``), its ruleset config, views and bots."""
