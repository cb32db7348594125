"""``group_send`` from synchronous code (a committed move in a view, a Celery task) at the cost of
the write itself: no event loop started, no connection opened per call.

``async_to_sync(layer.group_send)`` starts an event loop for every call where none runs (a
WSGI worker, Celery, the test client), and channels-redis keeps its connections per loop, so
each broadcast also connected to Redis afresh. Here each configured layer gets a sender that
writes exactly what the layer's own ``group_send`` writes, through a synchronous client kept
for the process:

* **channels-redis** (``RedisChannelLayer``): one pipelined round trip reads the group (after
  dropping expired members), a second drops expired messages and adds the new one to each
  member's channel with the layer's own Lua script — the layer's key names, serializer
  (encryption included), capacities and expiries, from the layer object itself. redis-py's
  pool is thread-safe and reconnects after a fork.
* **channels-lite** (``SQLiteChannelLayer``): the group's members and one bulk INSERT of the
  events through the ORM, on the layer's own database alias.
* Any other layer (the in-memory one of the tests): ``async_to_sync`` as before.

The readers (consumers under daphne) are the layers' own, unchanged: this only writes.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from asgiref.sync import async_to_sync

Sender = Callable[[str, dict], None]

# channels-redis's group_send script (channels_redis/core.py), verbatim: for each key, add the
# message unless the channel is at capacity, and refresh the key's expiry.
_REDIS_GROUP_SEND_LUA = """
    local over_capacity = 0
    local current_time = ARGV[#ARGV - 1]
    local expiry = ARGV[#ARGV]
    for i=1,#KEYS do
        if redis.call('ZCOUNT', KEYS[i], '-inf', '+inf') < tonumber(ARGV[i + #KEYS]) then
            redis.call('ZADD', KEYS[i], current_time, ARGV[i])
            redis.call('EXPIRE', KEYS[i], expiry)
        else
            over_capacity = over_capacity + 1
        end
    end
    return over_capacity
"""


def _redis_pool(host: dict):
    """A synchronous pool for one of channels-redis's ``hosts`` entries (the same shapes its
    ``create_pool`` accepts: an address, a sentinel master, or connection keywords)."""
    import redis
    import redis.sentinel

    host = dict(host)
    if "address" in host:
        return redis.ConnectionPool.from_url(host.pop("address"), **host)
    master_name = host.pop("master_name", None)
    if master_name is not None:
        sentinels = host.pop("sentinels")
        sentinel_kwargs = host.pop("sentinel_kwargs", None)
        return redis.sentinel.SentinelConnectionPool(
            master_name, redis.sentinel.Sentinel(sentinels, sentinel_kwargs=sentinel_kwargs), **host
        )
    return redis.ConnectionPool(**host)


class RedisGroupSender:
    """``group_send`` for a ``channels_redis.core.RedisChannelLayer``, synchronously."""

    def __init__(self, layer: Any) -> None:
        import redis

        self.layer = layer
        self.clients = [redis.Redis(connection_pool=_redis_pool(host)) for host in layer.hosts]
        self.scripts = [client.register_script(_REDIS_GROUP_SEND_LUA) for client in self.clients]

    def __call__(self, group: str, message: dict) -> None:
        layer = self.layer
        assert layer.require_valid_group_name(group), "Group name not valid"
        key = layer._group_key(group)
        client = self.clients[layer.consistent_hash(group)]
        pipe = client.pipeline(transaction=False)
        pipe.zremrangebyscore(key, min=0, max=int(time.time()) - layer.group_expiry)
        pipe.zrange(key, 0, -1)
        _dropped, members = pipe.execute()
        if not members:
            return
        by_host, messages, capacities = layer._map_channel_keys_to_connection(
            [name.decode("utf8") for name in members], message
        )
        for index, keys in by_host.items():
            pipe = self.clients[index].pipeline(transaction=False)
            for channel_key in keys:
                pipe.zremrangebyscore(channel_key, min=0, max=int(time.time()) - int(layer.expiry))
            self.scripts[index](
                keys=keys,
                args=[
                    *(messages[channel_key] for channel_key in keys),
                    *(capacities[channel_key] for channel_key in keys),
                    time.time(),
                    layer.expiry,
                ],
                client=pipe,
            )
            pipe.execute()


class SQLiteGroupSender:
    """``group_send`` for a ``channels_lite`` ``SQLiteChannelLayer``, synchronously."""

    def __init__(self, layer: Any) -> None:
        self.layer = layer

    def __call__(self, group: str, message: dict) -> None:
        from channels_lite.models import Event, GroupMembership
        from django.utils import timezone

        layer = self.layer
        layer.require_valid_group_name(group)
        now = timezone.now()
        database = layer.database
        members = GroupMembership.objects.using(database).filter(
            group_name=group, expires_at__gte=now
        )
        expires = now + timedelta(seconds=layer.expiry)
        events = []
        for channel in members.values_list("channel_name", flat=True):
            sent, name = message, channel
            if "!" in channel:
                sent = {**message, "__asgi_channel__": channel}
                name = layer.non_local_name(channel)
            if layer.enforce_capacity:
                pending = Event.objects.using(database).filter(
                    channel_name=name, delivered=False, expires_at__gte=now
                )
                if pending.count() >= layer.get_capacity(channel):
                    continue  # over capacity: dropped, as the layer itself does
            events.append(Event(channel_name=name, data=layer.serialize(sent), expires_at=expires))
        if events:
            Event.objects.using(database).bulk_create(events)


def _sender_for(layer: Any) -> Sender:
    kind = f"{type(layer).__module__}.{type(layer).__name__}"
    if kind == "channels_redis.core.RedisChannelLayer":
        return RedisGroupSender(layer)
    if kind == "channels_lite.layers.core.SQLiteChannelLayer":
        return SQLiteGroupSender(layer)
    return lambda group, message: async_to_sync(layer.group_send)(group, message)


def group_send(layer: Any, group: str, message: dict) -> None:
    """Send ``message`` to ``group`` on ``layer`` from synchronous code. The sender is kept
    on the layer object, so it lives as long as the layer (settings changes make new ones)."""
    sender = getattr(layer, "_napad_group_sender", None)
    if sender is None:
        sender = layer._napad_group_sender = _sender_for(layer)
    sender(group, message)
