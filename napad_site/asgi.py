"""ASGI entry point for daphne: HTTP pages and WebSockets (``napad_site.routing``)."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "napad_site.settings")

# Django must be set up before anything imports models (the consumers do).
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from .routing import websocket_urlpatterns  # noqa: E402
from .startup import heap_settled, static_files_ready  # noqa: E402
from .websocket_origin import SiteOriginValidator  # noqa: E402

# A release whose static files were not collected stops here, saying what to run.
static_files_ready()

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        # The page opening a socket must be the site's own: its host one of ALLOWED_HOSTS,
        # and scheme, host and port the site's (napad_site/websocket_origin.py).
        "websocket": AllowedHostsOriginValidator(
            SiteOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns)))
        ),
    }
)
heap_settled()
