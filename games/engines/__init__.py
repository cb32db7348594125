"""Game engines: pure-Python rules, one subpackage per game, found by ``kind`` here.

The site never names a game: it asks :func:`get_engine` for the ruleset's ``kind``.
"""

from __future__ import annotations

from importlib import import_module

from .base import ConfigError, Engine, EngineError, IllegalAction

__all__ = ["ConfigError", "Engine", "EngineError", "IllegalAction", "KINDS", "get_engine"]

# kind -> "module:attribute" of the engine instance; imported on first use.
_REGISTRY = {
    "napad": "games.engines.napad.engine:ENGINE",
    "colt": "games.engines.colt.engine:ENGINE",
}
KINDS = tuple(_REGISTRY)
_loaded: dict[str, Engine] = {}


def get_engine(kind: str) -> Engine:
    """The engine for a ruleset kind (``"napad"`` or ``"colt"``); ``KeyError`` if unknown."""
    engine = _loaded.get(kind)
    if engine is None:
        module_name, _, attribute = _REGISTRY[kind].partition(":")
        engine = getattr(import_module(module_name), attribute)
        _loaded[kind] = engine
    return engine
