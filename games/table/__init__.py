"""One table rendered for one viewer: the read-and-render path the game page, its HTMX fragments
and the WebSocket consumer share. ``rendering`` turns a game and a viewer into the page's
context and HTML (from the table's Jinja2 templates under ``templates/jinja2/``, with the
environment of ``templating``); ``status`` words the status
line, ``boards`` hangs the viewer's legal moves and mark keys on the board, ``catchup`` builds
"since your last visit". It reads through
``games.selectors`` and ``games.services`` and is imported only by the edges (views, the
consumer, the table form); services never import it (``pyproject.toml``'s contracts).
"""
