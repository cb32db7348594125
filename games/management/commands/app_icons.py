"""Draw the installable site's PNG icons from the site's own SVG mark.

``python manage.py app_icons`` reads ``static/css/favicon.svg`` (the rounded dark square with
the yellow train car) and writes into ``static/icons/``:

- ``icon-192.png``, ``icon-512.png`` — the mark as it is (manifest purpose "any");
- ``maskable-192.png``, ``maskable-512.png`` — the background full-bleed and the car shrunk into
  the central safe zone (a circle of 40 % of the size), so a phone can cut any shape;
- ``apple-touch-icon.png`` (180 px, full-bleed: iOS rounds the corners itself);
- ``badge-96.png`` — the car alone in white on transparent (Android's status bar uses the
  alpha channel only).

The output depends only on the SVG and CairoSVG (a development dependency: ``pip install -e
".[dev]"``), so running it again on the same SVG writes the same bytes. The PNGs are committed;
run it again after changing the SVG.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

SVG_NS = "http://www.w3.org/2000/svg"
# The car's own box in the mark's 24×24 view box, centred on (12, 11.75): scaled to 0.72 its
# farthest corner stays 8.5 units from the centre, inside the maskable safe zone (9.6).
MASKABLE_SCALE = 0.72
CAR_CENTRE_Y = 11.75


def _mark(source: Path) -> tuple[str, str, str]:
    """``(background colour, car colour, car path)`` of the site's SVG mark."""
    root = ET.fromstring(source.read_text())  # noqa: S314 (our own file)
    rect = root.find(f"{{{SVG_NS}}}rect")
    path = root.find(f"{{{SVG_NS}}}path")
    if rect is None or path is None:
        raise CommandError(f"{source}: expected a <rect> background and a <path> mark")
    return rect.get("fill", "#000"), path.get("fill", "#fff"), path.get("d", "")


def _svg(body: str) -> bytes:
    return (f'<svg xmlns="{SVG_NS}" viewBox="0 0 24 24">{body}</svg>').encode()


def icon_sources(source: Path) -> dict[str, tuple[bytes, int]]:
    """Every icon file name with the SVG it is rendered from and its size in pixels."""
    background, ink, car = _mark(source)
    original = source.read_bytes()
    shrunk = (
        f'<g transform="translate(12 12) scale({MASKABLE_SCALE}) translate(-12 -{CAR_CENTRE_Y})">'
        f'<path fill="{ink}" d="{car}"/></g>'
    )
    full_bleed = _svg(f'<rect width="24" height="24" fill="{background}"/>{shrunk}')
    badge = _svg(f'<path fill="#ffffff" d="{car}"/>')
    return {
        "icon-192.png": (original, 192),
        "icon-512.png": (original, 512),
        "maskable-192.png": (full_bleed, 192),
        "maskable-512.png": (full_bleed, 512),
        "apple-touch-icon.png": (full_bleed, 180),
        "badge-96.png": (badge, 96),
    }


class Command(BaseCommand):
    help = "Draw the app icons (static/icons/*.png) from static/css/favicon.svg."

    def add_arguments(self, parser):
        base = Path(settings.BASE_DIR) / "static"
        parser.add_argument("--source", type=Path, default=base / "css" / "favicon.svg")
        parser.add_argument("--out", type=Path, default=base / "icons")

    def handle(self, *args, source: Path, out: Path, **options):
        try:
            import cairosvg
        except (ImportError, OSError) as error:
            raise CommandError(
                f'CairoSVG is needed to draw the icons (pip install -e ".[dev]"): {error}'
            ) from None
        out.mkdir(parents=True, exist_ok=True)
        for name, (svg, size) in icon_sources(source).items():
            png = cairosvg.svg2png(bytestring=svg, output_width=size, output_height=size)
            (out / name).write_bytes(png)
            self.stdout.write(f"{out / name} ({size}×{size})")
