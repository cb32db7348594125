"""A cache backend for counters that must keep counting while the real cache is away.

``LOCATION`` names another cache alias (``"default"``: Redis when scaled, a folder when
embedded). Every call goes to that cache; when it raises (Redis down, a folder that cannot be
written), the call is answered from this process's memory instead and a warning is logged.
The fair limits (``games/limits.py``) count through it, so a cache outage neither locks
members out nor answers 500, and guessing passwords stays limited per web process meanwhile.
"""

from __future__ import annotations

import logging

from django.core.cache import caches
from django.core.cache.backends.base import DEFAULT_TIMEOUT, BaseCache
from django.core.cache.backends.locmem import LocMemCache

logger = logging.getLogger(__name__)


class FailoverCache(BaseCache):
    def __init__(self, location: str, params: dict):
        super().__init__(params)
        self.primary_alias = location or "default"
        self.fallback = LocMemCache(f"napad-failover-{self.primary_alias}", {"MAX_ENTRIES": 10000})

    @property
    def primary(self) -> BaseCache:
        return caches[self.primary_alias]

    def _call(self, operation: str, *args, **kwargs):
        try:
            return getattr(self.primary, operation)(*args, **kwargs)
        except ValueError:
            raise  # incr() of a missing key: the caller's to handle, as with any cache
        except Exception as error:
            logger.warning(
                "limits: the cache is not answering (%s); counting in this process",
                type(error).__name__,
            )
            return getattr(self.fallback, operation)(*args, **kwargs)

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._call("add", key, value, timeout=timeout, version=version)

    def get(self, key, default=None, version=None):
        return self._call("get", key, default=default, version=version)

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._call("set", key, value, timeout=timeout, version=version)

    def touch(self, key, timeout=DEFAULT_TIMEOUT, version=None):
        return self._call("touch", key, timeout=timeout, version=version)

    def delete(self, key, version=None):
        return self._call("delete", key, version=version)

    def incr(self, key, delta=1, version=None):
        return self._call("incr", key, delta=delta, version=version)

    def has_key(self, key, version=None):
        return self._call("has_key", key, version=version)

    def get_many(self, keys, version=None):
        return self._call("get_many", keys, version=version)

    def delete_many(self, keys, version=None):
        return self._call("delete_many", keys, version=version)

    def clear(self):
        self.fallback.clear()
        return self._call("clear")
