"""``makemessages`` with the club's defaults, so the catalogues change only when messages do.

- References name the file, not the line (``--add-location=file``): moving code around no
  longer rewrites every ``.po``.
- Obsolete messages are dropped (``--no-obsolete``).
- ``tests/`` and ``var/`` are not searched: a test that says a message to check its
  translation does not make it a message of the site.
- The ``POT-Creation-Date`` header is kept when nothing else in a catalogue changed, so
  ``manage.py makemessages -a`` on an up-to-date tree leaves the files byte for byte as they
  were (``.ci/run`` checks that).
- The table's Jinja2 templates (``templates/jinja2/``) are read by Jinja's own parser: for
  each, a ``<template>.py`` of its ``_()``, ``ngettext()``… calls is written beside it for
  xgettext to read, and removed after; the templates themselves are not given to Django's
  template reader, which knows only its own tags.
- ``pgettext_noop(context, message)`` marks a message with a context without translating it
  (the default rulesets' names, stored in English and in the reader's language), and
  ``plural_noop(singular, plural)`` a message with its plural (``games.engines.base``).
"""

from __future__ import annotations

import re
from pathlib import Path

from django.conf import settings
from django.core.management.commands import makemessages
from django.template import engines

JINJA_ENGINE = "jinja2"
GETTEXT_FUNCTIONS = ("_", "gettext", "ngettext", "pgettext", "npgettext")

_POT_DATE = re.compile(r'^"POT-Creation-Date: [^"]*"\n', re.MULTILINE)


class Command(makemessages.Command):
    xgettext_options = [
        *makemessages.Command.xgettext_options,
        "--keyword=pgettext_noop:1c,2",
        "--keyword=plural_noop:1,2",
        # The boards' tags say a template's {% translate "…" %} words with say_word("…").
        "--keyword=say_word",
    ]

    def handle(self, *args, **options):
        options["add_location"] = options.get("add_location") or "file"
        options["no_obsolete"] = True
        # Tests say messages to check their translations; they are not where messages live.
        options["ignore_patterns"] = [
            *(options.get("ignore_patterns") or []),
            "tests/*",
            "var/*",
            *(
                f"{directory.relative_to(Path.cwd().resolve())}/*.html"
                for directory in self._jinja_dirs()
            ),
        ]
        before = {path: path.read_text() for path in self._catalogues()}
        extracted = self._jinja_messages()
        try:
            super().handle(*args, **options)
        finally:
            for path in extracted:
                path.unlink()
        for path, old in before.items():
            if not path.exists():
                continue
            new = path.read_text()
            if new != old and _POT_DATE.sub("", new) == _POT_DATE.sub("", old):
                path.write_text(old)

    @staticmethod
    def _jinja_dirs() -> list[Path]:
        return [Path(directory).resolve() for directory in engines[JINJA_ENGINE].dirs]

    def _jinja_messages(self) -> list[Path]:
        """Write each Jinja template's messages as Python calls, on the template's own lines."""
        environment = engines[JINJA_ENGINE].env
        written = []
        for directory in self._jinja_dirs():
            for template in sorted(directory.rglob("*.html")):
                calls: dict[int, list[str]] = {}
                for lineno, function, message in environment.extract_translations(
                    template.read_text(), gettext_functions=GETTEXT_FUNCTIONS
                ):
                    args = message if isinstance(message, tuple) else (message,)
                    arguments = ", ".join("0" if a is None else repr(a) for a in args)
                    calls.setdefault(lineno, []).append(f"{function}({arguments})")
                if calls:
                    lines = ["; ".join(calls.get(n, [])) for n in range(1, max(calls) + 1)]
                    path = template.with_name(f"{template.name}.py")
                    path.write_text("\n".join(lines) + "\n")
                    written.append(path)
        return written

    @staticmethod
    def _catalogues() -> list[Path]:
        return [
            po
            for locale_dir in settings.LOCALE_PATHS
            for po in Path(locale_dir).glob("*/LC_MESSAGES/*.po")
        ]
