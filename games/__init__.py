"""The ``games`` app: the club's tables, the two games' rules and everything that runs them.

Its root holds the app's wiring (start-up, URLs, Celery tasks, signals, roles, limits, the
broadcast after a commit); each package says in its own ``__init__.py`` what lives there, and
docs/architecture.md draws the layers they form.
"""
