"""Reading rendered HTML as a member's browser would, for tests that pin what a page shows
(its elements, classes, attributes, texts) rather than its bytes: a small element tree built
with the standard library's ``html.parser``, and a few ways to find elements in it."""

from __future__ import annotations

import re
from html.parser import HTMLParser

_VOID = {"area", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}
_SPACE = re.compile(r"\s+")


class Element:
    """One element: its tag, attributes (values unescaped), children and text."""

    def __init__(self, tag: str, attrs: dict[str, str | None], parent: Element | None = None):
        self.tag, self.attrs, self.parent = tag, attrs, parent
        self.children: list[Element | str] = []

    @property
    def classes(self) -> list[str]:
        return (self.attrs.get("class") or "").split()

    @property
    def text(self) -> str:
        """The element's text as read, spaces squashed."""
        parts = [c if isinstance(c, str) else c.text for c in self.children]
        return _SPACE.sub(" ", " ".join(parts)).strip()

    def elements(self):
        for child in self.children:
            if isinstance(child, Element):
                yield child
                yield from child.elements()

    def find_all(self, tag: str | None = None, *, cls: str | None = None, **attrs: str):
        """The descendants with this tag, class and attributes (``data_seq`` for
        ``data-seq``), in document order."""
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
        assert len(found) == 1, f"{len(found)} <{tag} class={cls} {attrs}> in {self.text!r}"
        return found[0]

    def __repr__(self) -> str:
        return f"<{self.tag} {self.attrs}>"


class _Builder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Element("#document", {})
        self.current = self.root

    def handle_starttag(self, tag, attrs):
        element = Element(tag, dict(attrs), self.current)
        self.current.children.append(element)
        if tag not in _VOID:
            self.current = element

    def handle_startendtag(self, tag, attrs):
        self.current.children.append(Element(tag, dict(attrs), self.current))

    def handle_endtag(self, tag):
        element = self.current
        while element is not self.root and element.tag != tag:
            element = element.parent
        if element is not self.root:
            self.current = element.parent

    def handle_data(self, data):
        self.current.children.append(data)


def parsed(html: str) -> Element:
    """The HTML as an element tree (its root holds the top-level elements)."""
    builder = _Builder()
    builder.feed(html)
    builder.close()
    return builder.root
