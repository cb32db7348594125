"""``makemessages`` with the club's defaults, so the catalogues change only when messages do.

- References name the file, not the line (``--add-location=file``): moving code around no
  longer rewrites every ``.po``.
- Obsolete messages are dropped (``--no-obsolete``).
- ``tests/`` and ``var/`` are not searched: a test that says a message to check its
  translation does not make it a message of the site.
- The ``POT-Creation-Date`` header is kept when nothing else in a catalogue changed, so
  ``manage.py makemessages -a`` on an up-to-date tree leaves the files byte for byte as they
  were (``.ci/run`` checks that).
- ``pgettext_noop(context, message)`` marks a message with a context without translating it
  (the default rulesets' names, stored in English and in the reader's language), and
  ``plural_noop(singular, plural)`` a message with its plural (``games.engines.base``).
"""

from __future__ import annotations

import re
from pathlib import Path

from django.conf import settings
from django.core.management.commands import makemessages

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
        options["ignore_patterns"] = [*(options.get("ignore_patterns") or []), "tests/*", "var/*"]
        before = {path: path.read_text() for path in self._catalogues()}
        super().handle(*args, **options)
        for path, old in before.items():
            if not path.exists():
                continue
            new = path.read_text()
            if new != old and _POT_DATE.sub("", new) == _POT_DATE.sub("", old):
                path.write_text(old)

    @staticmethod
    def _catalogues() -> list[Path]:
        return [
            po
            for locale_dir in settings.LOCALE_PATHS
            for po in Path(locale_dir).glob("*/LC_MESSAGES/*.po")
        ]
