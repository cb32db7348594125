"""Django's own messages that members read on the club's account pages (log-in, sign-up and
password forms, their errors and help texts), said again here so that ``makemessages`` puts
them in the club's catalogues, which come first (``LOCALE_PATHS``).

Django's Portuguese catalogue is European ("palavra-passe", "utilizador", "Introduza"); the
club's Portuguese is Brazilian, so these messages are worded again in
``games/locale/pt/LC_MESSAGES/django.po``. The Polish entries repeat Django's Polish. Nothing
imports this module: the calls only mark the texts, with Django's msgids exactly.
"""

from django.utils.translation import gettext_noop, ngettext_lazy

MESSAGES = (
    # django.contrib.auth: the user model, the forms and the password validators.
    gettext_noop("username"),
    gettext_noop("Required. 150 characters or fewer. Letters, digits and @/./+/-/_ only."),
    gettext_noop(
        "Enter a valid username. This value may contain only letters, numbers, and @/./+/-/_ "
        "characters."
    ),
    gettext_noop("A user with that username already exists."),
    gettext_noop(
        "Please enter a correct %(username)s and password. Note that both fields may be "
        "case-sensitive."
    ),
    gettext_noop("This account is inactive."),
    gettext_noop("Password confirmation"),
    gettext_noop("Enter the same password as before, for verification."),
    gettext_noop("The two password fields didn’t match."),
    gettext_noop("Old password"),
    gettext_noop("Your old password was entered incorrectly. Please enter it again."),
    gettext_noop("New password"),
    gettext_noop("New password confirmation"),
    gettext_noop("Your password can’t be too similar to your other personal information."),
    gettext_noop("Your password can’t be a commonly used password."),
    gettext_noop("Your password can’t be entirely numeric."),
    gettext_noop("The password is too similar to the %(verbose_name)s."),
    gettext_noop("This password is too common."),
    gettext_noop("This password is entirely numeric."),
    # django.forms: the field errors the club's forms can show.
    gettext_noop("Enter a valid email address."),
    gettext_noop("Enter a whole number."),
    gettext_noop("Enter a number."),
    gettext_noop("Enter a valid date."),
    gettext_noop("Enter a valid time."),
    gettext_noop("Select a valid choice. %(value)s is not one of the available choices."),
)

PLURAL_MESSAGES = (
    ngettext_lazy(
        "Your password must contain at least %(min_length)d character.",
        "Your password must contain at least %(min_length)d characters.",
        "min_length",
    ),
    ngettext_lazy(
        "This password is too short. It must contain at least %d character.",
        "This password is too short. It must contain at least %d characters.",
    ),
    ngettext_lazy(
        "Ensure this value has at most %(limit_value)d character (it has %(show_value)d).",
        "Ensure this value has at most %(limit_value)d characters (it has %(show_value)d).",
        "limit_value",
    ),
)
