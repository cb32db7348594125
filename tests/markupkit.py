"""Rendered HTML read as a member's browser reads it, for tests that pin what a page shows —
its elements, classes, attributes (accessible names among them) and texts — never its bytes.

``parse(html)`` builds a small element tree with the standard library's ``html.parser``
(attribute values and texts unescaped) and fails the test when a tag closes another one or an
element is left open. On any element: ``find_all(tag, cls=..., **attrs)`` and ``find(...)`` (the
one match) search its descendants in document order (``data_seq="3"`` matches
``data-seq="3"``); ``kids(tag)`` lists its own child elements; ``attrs``, ``classes``, ``text``
(its texts joined as written, white space squashed: ``<b>1</b><i>2</i>`` reads "12") and
``raw_text`` (white space kept) read it.
"""

from __future__ import annotations

from html.parser import HTMLParser

# Elements HTML never closes. SVG shapes inside inline SVG close themselves with "/>".
_VOID = {
    "area",
    "base",
    "br",
    "col",
    "embed",
    "hr",
    "img",
    "input",
    "link",
    "meta",
    "source",
    "track",
    "wbr",
}


def squash(text: str) -> str:
    """The text as a reader reads it: runs of white space one space, none at either end."""
    return " ".join(str(text).split())


class Element:
    """One element: its tag, attributes and children (elements and texts, in order)."""

    def __init__(self, tag: str, attrs: dict[str, str | None]) -> None:
        self.tag, self.attrs = tag, attrs
        self.children: list[Element | str] = []

    def __repr__(self) -> str:
        return f"<{self.tag} {self.attrs}>"

    @property
    def classes(self) -> list[str]:
        return (self.attrs.get("class") or "").split()

    @property
    def raw_text(self) -> str:
        """Every text inside the element, joined as written (its white space kept)."""
        return "".join(c if isinstance(c, str) else c.raw_text for c in self.children)

    @property
    def text(self) -> str:
        """The element's text as read: texts joined as written, white space squashed."""
        return squash(self.raw_text)

    def elements(self) -> list[Element]:
        """Every element inside this one, in document order."""
        found, pending = [], self.kids()[::-1]
        while pending:
            element = pending.pop()
            found.append(element)
            pending += element.kids()[::-1]
        return found

    def kids(self, tag: str | None = None) -> list[Element]:
        """The element's own child elements (with this tag)."""
        return [c for c in self.children if isinstance(c, Element) and tag in (None, c.tag)]

    def find_all(self, tag: str | None = None, *, cls: str | None = None, **attrs: str):
        """The descendants with this tag, class and attribute values, in document order."""
        wanted = {name.replace("_", "-"): value for name, value in attrs.items()}
        return [
            element
            for element in self.elements()
            if (tag is None or element.tag == tag)
            and (cls is None or cls in element.classes)
            and all(element.attrs.get(name) == value for name, value in wanted.items())
        ]

    def find(self, tag: str | None = None, *, cls: str | None = None, **attrs: str) -> Element:
        """The one descendant that matches (the test fails on none or several)."""
        found = self.find_all(tag, cls=cls, **attrs)
        assert len(found) == 1, f"{len(found)} <{tag or '*'} class={cls} {attrs}> in {self!r}"
        return found[0]


class _Builder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Element("#document", {})
        self.open = [self.root]

    def handle_starttag(self, tag, attrs):
        element = Element(tag, dict(attrs))
        self.open[-1].children.append(element)
        if tag not in _VOID:
            self.open.append(element)

    def handle_startendtag(self, tag, attrs):
        self.open[-1].children.append(Element(tag, dict(attrs)))

    def handle_endtag(self, tag):
        if tag in _VOID:
            return
        assert self.open[-1].tag == tag, f"</{tag}> closes <{self.open[-1].tag}>"
        self.open.pop()

    def handle_data(self, data):
        self.open[-1].children.append(data)


def parse(html: str) -> Element:
    """The HTML as an element tree; its root (``#document``) holds the top-level elements."""
    builder = _Builder()
    builder.feed(str(html))
    builder.close()
    assert builder.open == [builder.root], f"<{builder.open[-1].tag}> is left open"
    return builder.root


def csrf_field(token: str) -> str:
    """The CSRF input Django's Jinja2 backend gives a template rendered with a request
    (``csrf_input``), for the page's token ``token``."""
    from django.utils.html import format_html

    return format_html('<input type="hidden" name="csrfmiddlewaretoken" value="{}">', token)
