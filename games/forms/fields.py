"""Form fields shared by the site's forms and the admin's.

``WholeNumberField`` is Django's ``IntegerField`` reading numbers the way the rest of the site
does (``games.text.parsing.strict_int``): ASCII digits only. Django's own field passes the text to
``int()``, which reads "٣" (Arabic-Indic three) as 3 — a number nobody typed on our forms.
"""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.db import models

from games.text.parsing import strict_int


class WholeNumberField(forms.IntegerField):
    def to_python(self, value):
        if value in self.empty_values:
            return None
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        number = strict_int(str(value), minimum=None, maximum=None)
        if number is None:
            raise ValidationError(self.error_messages["invalid"], code="invalid")
        return number


# For ModelAdmin.formfield_overrides: every integer column edited in the admin reads strictly.
WHOLE_NUMBER_FORMFIELDS = {models.IntegerField: {"form_class": WholeNumberField}}
