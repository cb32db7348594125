"""The bench app's management commands."""
