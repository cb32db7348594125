"""Read rendered HTML as a member's browser would (the standard library's parser): elements
with their attributes and their text, found by tag, class or attribute — so that the clock
tests pin what the page shows and says, never its bytes."""

from __future__ import annotations

from html.parser import HTMLParser

_VOID = {"area", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}


class Element:
    def __init__(self, tag: str, attrs: dict[str, str | None], parent: Element | None) -> None:
        self.tag, self.attrs, self.parent = tag, attrs, parent
        self.children: list[Element | str] = []

    def text(self) -> str:
        """The element's text, white space squashed as the browser shows it."""
        parts = [c if isinstance(c, str) else c.text() for c in self.children]
        return " ".join("".join(parts).split())

    def classes(self) -> list[str]:
        return (self.attrs.get("class") or "").split()

    def elements(self) -> list[Element]:
        """Every element inside this one, in document order."""
        found = []
        for child in self.children:
            if isinstance(child, Element):
                found.append(child)
                found += child.elements()
        return found

    def find_all(self, tag: str | None = None, cls: str | None = None, **attrs: str) -> list:
        return [
            e
            for e in self.elements()
            if (tag is None or e.tag == tag)
            and (cls is None or cls in e.classes())
            and all(e.attrs.get(name.replace("_", "-")) == v for name, v in attrs.items())
        ]

    def find(self, tag: str | None = None, cls: str | None = None, **attrs: str) -> Element:
        """The one element that matches (an AssertionError names the count otherwise)."""
        found = self.find_all(tag, cls, **attrs)
        assert len(found) == 1, f"{len(found)} <{tag or '*'} {cls or ''} {attrs}> found"
        return found[0]


class _Tree(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = self.at = Element("#document", {}, None)

    def handle_starttag(self, tag, attrs):
        element = Element(tag, dict(attrs), self.at)
        self.at.children.append(element)
        if tag not in _VOID:
            self.at = element

    def handle_endtag(self, tag):
        at = self.at
        while at.parent is not None and at.tag != tag:
            at = at.parent
        if at.parent is not None:
            self.at = at.parent

    def handle_data(self, data):
        self.at.children.append(data)


def parse(html: str) -> Element:
    tree = _Tree()
    tree.feed(html)
    tree.close()
    return tree.root
