"""The installable site: the web app manifest validates (name, icons of 192 and 512 px drawn
from the site's SVG, start URL, display), the service worker covers the whole site and never
keeps game pages, and the offline page speaks the member's language."""

from __future__ import annotations

import io
import json
import re
import struct

from django.conf import settings
from django.contrib.staticfiles import finders
from django.core.management import call_command
from django.test import Client


def _png_size(path: str) -> tuple[int, int]:
    data = open(path, "rb").read()  # noqa: SIM115
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def _static_file(url: str) -> str:
    path = finders.find(url.removeprefix(settings.STATIC_URL))
    assert path, f"{url} is not a static file"
    return path


def test_the_manifest_validates(client):
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["name"] == "Napad Club" and manifest["short_name"]
    assert manifest["start_url"] == "/" and manifest["scope"] == "/"
    assert manifest["display"] == "standalone"
    assert re.fullmatch(r"#[0-9a-f]{6}", manifest["theme_color"])
    assert re.fullmatch(r"#[0-9a-f]{6}", manifest["background_color"])
    icons = {(icon["sizes"], icon["purpose"]): icon for icon in manifest["icons"]}
    for size in (192, 512):
        for purpose in ("any", "maskable"):
            icon = icons[(f"{size}x{size}", purpose)]
            assert icon["type"] == "image/png"
            assert _png_size(_static_file(icon["src"])) == (size, size)


def test_every_page_links_the_manifest_the_theme_colour_and_the_worker(client):
    page = client.get("/accounts/login/").content.decode()
    manifest = json.loads(client.get("/manifest.webmanifest").content)
    assert '<link rel="manifest" href="/manifest.webmanifest"' in page
    assert f'<meta name="theme-color" content="{manifest["theme_color"]}">' in page
    assert 'data-service-worker="/sw.js"' in page
    touch = re.search(r'<link rel="apple-touch-icon" href="([^"]+)"', page).group(1)
    assert _png_size(_static_file(touch)) == (180, 180)


def test_the_manifest_speaks_the_visitors_language(client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "pl"
    manifest = json.loads(client.get("/manifest.webmanifest").content)
    assert (manifest["lang"], manifest["name"]) == ("pl", "Klub Napad")


def test_the_icons_are_the_sites_svg_drawn_again(tmp_path):
    """`manage.py app_icons` redraws the committed PNGs from static/css/favicon.svg."""
    from PIL import Image

    call_command("app_icons", out=tmp_path, stdout=io.StringIO())
    drawn = sorted(path.name for path in tmp_path.iterdir())
    assert drawn == [
        "apple-touch-icon.png",
        "badge-96.png",
        "icon-192.png",
        "icon-512.png",
        "maskable-192.png",
        "maskable-512.png",
    ]
    for name in drawn:
        committed = Image.open(_static_file(f"{settings.STATIC_URL}icons/{name}"))
        fresh = Image.open(tmp_path / name)
        assert committed.size == fresh.size
        assert committed.convert("RGBA").tobytes() == fresh.convert("RGBA").tobytes(), name
    # Maskable: the background reaches every corner (nothing transparent to cut away).
    maskable = Image.open(tmp_path / "maskable-512.png").convert("RGBA")
    assert all(maskable.getpixel(xy)[3] == 255 for xy in [(0, 0), (511, 0), (0, 511)])


def test_the_service_worker_covers_the_whole_site_and_keeps_only_the_offline_page(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    assert response["Cache-Control"] == "no-cache"
    script = response.content.decode()
    config = json.loads(re.search(r"const CONFIG = (\{.*?\});", script).group(1))
    assert config["offline"] == "/offline/"
    # What it keeps: the offline page and that page's style sheet and icon — no page of a game.
    assert all(url.startswith(settings.STATIC_URL) for url in config["assets"])
    assert script.count("cache.put(") == 1 and "cache.put(CONFIG.offline" in script
    # Only navigations that fail are answered from the cache.
    assert "fetch(request).catch(() => offlinePage())" in script


def test_the_offline_page_speaks_the_members_language(alice):
    client = Client()
    client.force_login(alice)
    english = client.get("/offline/").content.decode()
    assert "You are offline — your games will be here when you are back." in english
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "pt-br"
    portuguese = client.get("/offline/")
    assert portuguese["Content-Language"] == "pt-br"
    text = portuguese.content.decode()
    assert "Você está off-line — seus jogos estarão aqui quando você voltar." in text
