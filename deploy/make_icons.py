"""Draws the club's app icons (static/icons/*.png) from the shapes of its favicon (static/favicon.svg).

An installed app needs PNG icons: Chromium asks the manifest for 192 and 512 pixel ones, Android crops a
"maskable" icon to its own shape (a circle, a squircle) keeping only a centred circle of 80 % of its width, and
iOS takes the page's apple-touch-icon (180 pixels) and rounds its corners itself. The favicon is a 32-unit SVG;
its rounded square, three circles and stem are drawn here again with Pillow at eight times the size and scaled
down, which smooths the edges as a renderer would. The favicon's shapes are copied below: change both together.

Run from the project's root after changing the design, and commit the PNGs:

    .venv/bin/python deploy/make_icons.py

Pillow comes with the dev dependencies (matplotlib needs it); production only serves the PNGs.
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

ICONS = Path(__file__).resolve().parent.parent / "static" / "icons"
FELT = "#1f5f3f"  # the favicon's square and club.css's --felt (the manifest's theme colour)
PAPER = "#fbfaf6"  # the favicon's club and club.css's --paper (the manifest's background colour)
VIEWBOX = 32
CORNER = 6  # the favicon's rx
CIRCLES = ((16, 10), (9.5, 18.5), (22.5, 18.5))
RADIUS = 5.5
STEM = ((14.6, 17), (17.4, 17), (19.2, 27), (12.8, 27))
OVERSAMPLE = 8
# A full-bleed icon's club is shrunk about the centre so it lies well inside the 80 % circle a mask keeps (at full
# size its farthest point is 12.5 units from the centre, against the circle's 12.8).
SAFE_SCALE = 0.8

# name: (pixels, full bleed?). Full bleed: a plain square the platform shapes (maskable; iOS rounds its own).
# Otherwise the favicon's rounded square with transparent corners, as browsers show "any" icons unmasked.
FILES = {
    "icon-192.png": (192, False),
    "icon-512.png": (512, False),
    "icon-maskable-512.png": (512, True),
    "apple-touch-icon.png": (180, True),
}


def draw(pixels: int, *, full_bleed: bool) -> Image.Image:
    size = pixels * OVERSAMPLE
    unit = size / VIEWBOX
    image = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    pen = ImageDraw.Draw(image)
    if full_bleed:
        pen.rectangle((0, 0, size, size), fill=FELT)
        scale = SAFE_SCALE
    else:
        pen.rounded_rectangle((0, 0, size - 1, size - 1), radius=CORNER * unit, fill=FELT)
        scale = 1.0

    def at(x: float, y: float) -> tuple[float, float]:
        middle = VIEWBOX / 2
        return ((middle + (x - middle) * scale) * unit, (middle + (y - middle) * scale) * unit)

    radius = RADIUS * scale * unit
    for x, y in CIRCLES:
        cx, cy = at(x, y)
        pen.ellipse((cx - radius, cy - radius, cx + radius, cy + radius), fill=PAPER)
    pen.polygon([at(x, y) for x, y in STEM], fill=PAPER)
    image = image.resize((pixels, pixels), Image.Resampling.LANCZOS)
    # A full-bleed icon is opaque (iOS shows transparency as black).
    return image.convert("RGB") if full_bleed else image


def main() -> None:
    ICONS.mkdir(parents=True, exist_ok=True)
    for name, (pixels, full_bleed) in FILES.items():
        draw(pixels, full_bleed=full_bleed).save(ICONS / name, optimize=True)
        print(f"static/icons/{name}: {pixels} x {pixels}")


if __name__ == "__main__":
    main()
