"""The tags' escaping (games/templatetags/escaping.py) gives what Django's conditional_escape
gives, for every kind of value a board or log hands it, and their numbers what Django's
localize gives, in each of the site's languages."""

from __future__ import annotations

import pytest
from django.utils import translation
from django.utils.formats import localize
from django.utils.functional import lazy
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe
from hypothesis import given
from hypothesis import strategies as st

from games.templatetags.escaping import escaped, localized

lazy_text = lazy(lambda text: text, str)


@given(
    st.one_of(
        st.text(),
        st.integers(),
        st.floats(allow_nan=False),
        st.none(),
        st.booleans(),
        st.text().map(mark_safe),
        st.text().map(lazy_text),
        st.lists(st.text(max_size=3), max_size=3),
        st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
    )
)
def test_escaped_is_conditional_escape(value):
    assert escaped(value) == str(conditional_escape(value))


def test_the_markup_characters_are_escaped_and_safe_text_is_kept():
    assert escaped("<a href='x'>&\"</a>") == "&lt;a href=&#x27;x&#x27;&gt;&amp;&quot;&lt;/a&gt;"
    assert escaped(mark_safe("<b>")) == "<b>"
    assert escaped(1200) == "1200"


def test_a_text_escaped_before_is_escaped_again_and_the_same_text_marked_safe_is_kept():
    # Plain strings are kept once escaped (``_ESCAPED``): the same words marked safe are
    # still drawn as they are, and the plain ones still escaped.
    for _reading in range(2):
        assert escaped("<b>") == "&lt;b&gt;"
        assert escaped(mark_safe("<b>")) == "<b>"
        assert escaped(lazy_text("<b>")) == "&lt;b&gt;"


NUMBERS = st.one_of(
    st.integers(), st.floats(allow_nan=False), st.booleans(), st.none(), st.text(max_size=4)
)


@pytest.mark.parametrize("language", ["en", "pl", "pt"])
@given(value=NUMBERS)
def test_localized_is_localize_in_each_language(language, value):
    with translation.override(language):
        assert localized(value) == localize(value)


@pytest.mark.parametrize("language", ["en", "pl", "pt"])
def test_a_site_that_groups_thousands_gets_them_grouped(settings, language):
    # The shortcut holds only while the site groups no thousands: with grouping on, a
    # count is localize's (Polish "12 345", English "12,345").
    settings.USE_THOUSAND_SEPARATOR = True
    with translation.override(language):
        assert localized(12345) == localize(12345)
        assert localized(12345) != "12345"
