"""Django's own messages that the club words otherwise than Django's Brazilian Portuguese
catalogue, said again here so that ``makemessages`` puts them in the club's catalogues, which
come first (``LOCALE_PATHS``).

The club's Portuguese is Brazilian (``pt-br``), and so is Django's ``pt_BR`` catalogue: every
other message of Django (the admin, auth, forms) is Django's own. Only these stay, each for the
reason beside it, worded in ``games/locale/pt_BR/LC_MESSAGES/django.po``. The Polish entries
repeat Django's Polish. Nothing imports this module: the calls only mark the texts, with
Django's msgids exactly.
"""

from django.utils.translation import gettext_noop

MESSAGES = (
    # The log-in form's label: the club's pages say "nome de usuário" (sign-up, help texts),
    # Django's pt_BR says "usuário".
    gettext_noop("username"),
    # The log-in error: Django's pt_BR has a double space and the colloquial "entre com".
    gettext_noop(
        "Please enter a correct %(username)s and password. Note that both fields may be "
        "case-sensitive."
    ),
    # Django's pt_BR drops the full stop and the article ("muito parecida com nome de usuário").
    gettext_noop("The password is too similar to the %(verbose_name)s."),
    # The club writes "e-mail" everywhere; Django's pt_BR writes "email".
    gettext_noop("Enter a valid email address."),
)
