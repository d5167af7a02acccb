"""Real image bytes for the tests, drawn with Pillow."""

from __future__ import annotations

import io

from PIL import Image


def jpeg(size: tuple[int, int] = (60, 40), *, orientation: int | None = None, gps: bool = False) -> bytes:
    image = Image.new("RGB", size, (200, 30, 30))
    image.paste((20, 20, 220), (0, 0, size[0] // 2, size[1]))  # left half blue: shows where the left went
    exif = Image.Exif()
    exif[0x010F] = "SpyCam"  # Make
    if orientation:
        exif[0x0112] = orientation
    if gps:
        exif[0x8825] = {1: "N", 2: (48.0, 51.0, 29.0)}
    out = io.BytesIO()
    image.save(out, "JPEG", exif=exif.tobytes())
    return out.getvalue()


def png(size: tuple[int, int] = (50, 50), *, alpha: bool = False) -> bytes:
    image = Image.new("RGBA" if alpha else "RGB", size, (0, 128, 0, 100) if alpha else (0, 128, 0))
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def gif(frames: int = 3) -> bytes:
    images = [Image.new("P", (30, 30), i * 40) for i in range(frames)]
    out = io.BytesIO()
    images[0].save(out, "GIF", save_all=True, append_images=images[1:], duration=100, loop=0)
    return out.getvalue()
