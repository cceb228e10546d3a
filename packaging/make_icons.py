"""Draws Doppel's icon and writes it as PNG, ICO (Windows) and ICNS (macOS) into
resources/icons/. The icon: two overlapping pages whose lines share the same coloured passage.

    .venv/bin/python packaging/make_icons.py
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

OUT = Path(__file__).resolve().parent.parent / "resources" / "icons"
SIZE = 1024
PAPER = (250, 250, 247, 255)
EDGE = (60, 70, 90, 255)
LINE = (150, 158, 172, 255)
SHARED = (119, 170, 221, 255)  # Paul Tol's light blue: the colour of a copied block in the app
BACKGROUND = (34, 85, 136, 255)


def page(draw: ImageDraw.ImageDraw, left: int, top: int, shared_rows: range) -> None:
    width, height = int(SIZE * 0.46), int(SIZE * 0.62)
    draw.rounded_rectangle(
        (left, top, left + width, top + height),
        radius=SIZE // 28,
        fill=PAPER,
        outline=EDGE,
        width=SIZE // 64,
    )
    margin = SIZE // 16
    for row in range(7):
        y = top + margin + row * (height - 2 * margin) // 7
        right = left + width - margin - (SIZE // 10 if row == 6 else 0)
        colour = SHARED if row in shared_rows else LINE
        draw.rounded_rectangle(
            (left + margin, y, right, y + SIZE // 30), radius=SIZE // 80, fill=colour
        )


def draw_icon() -> Image.Image:
    image = Image.new("RGBA", (SIZE, SIZE), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((0, 0, SIZE - 1, SIZE - 1), radius=SIZE // 5, fill=BACKGROUND)
    page(draw, int(SIZE * 0.12), int(SIZE * 0.12), range(2, 5))
    page(draw, int(SIZE * 0.42), int(SIZE * 0.26), range(1, 4))
    return image


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    icon = draw_icon()
    icon.resize((512, 512), Image.Resampling.LANCZOS).save(OUT / "doppel.png")
    icon.save(
        OUT / "doppel.ico",
        sizes=[(16, 16), (24, 24), (32, 32), (48, 48), (64, 64), (128, 128), (256, 256)],
    )
    icon.save(OUT / "doppel.icns")
    for path in sorted(OUT.iterdir()):
        print(path, path.stat().st_size)


if __name__ == "__main__":
    main()
