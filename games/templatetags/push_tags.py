"""The profile's push devices section (templates/push/profile_devices.html)."""

from __future__ import annotations

import hashlib

from django import template
from django.conf import settings

from games.services.push.devices import push_devices

register = template.Library()


@register.simple_tag(takes_context=True)
def push_devices_section(context) -> dict:
    """The member's devices and the site's VAPID public key. A device carries a fingerprint of
    its endpoint (never the endpoint itself), so the page's script can tell which row is the
    browser it runs in."""
    player = context.get("player") or context.get("me")
    devices = push_devices(player) if player is not None else []
    return {
        "vapid_key": settings.NAPAD_VAPID_PUBLIC_KEY,
        "devices": [
            {
                "device": device,
                "fingerprint": hashlib.sha256(device.endpoint.encode()).hexdigest(),
            }
            for device in devices
        ],
    }
