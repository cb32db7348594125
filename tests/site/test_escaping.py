"""The tags' escaping (games/templatetags/escaping.py) gives what Django's conditional_escape
gives, for every kind of value a board or log hands it."""

from __future__ import annotations

from django.utils.functional import lazy
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe
from hypothesis import given
from hypothesis import strategies as st

from games.templatetags.escaping import escaped

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
