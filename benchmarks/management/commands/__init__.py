"""``manage.py bench``: the command that runs the measurements of this app."""
