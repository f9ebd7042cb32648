"""The contrast of a focus indicator, measured from screenshots as a person sees it (WCAG
1.4.11): the element's surroundings shot without focus and with it; the pixels that changed
are the indicator; its commonest colour is compared with what those pixels were before (the
background it is drawn on), by WCAG's relative luminance."""

from __future__ import annotations

import io
from collections import Counter

from PIL import Image, ImageChops

MARGIN = 12  # px around the element's box: USWDS's ring and ours lie within 8


def luminance(rgb: tuple[int, int, int]) -> float:
    def channel(c: int) -> float:
        s = c / 255
        return s / 12.92 if s <= 0.04045 else ((s + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(c) for c in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def _shot(page, clip: dict) -> Image.Image:  # noqa: ANN001
    return Image.open(io.BytesIO(page.screenshot(clip=clip, animations="disabled"))).convert("RGB")


def ring_contrast(page, locator) -> tuple[float, tuple, tuple]:  # noqa: ANN001
    """(ratio, ring colour, background colour) of `locator`'s focus indicator."""
    locator.scroll_into_view_if_needed()
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    page.mouse.move(0, 0)
    box = locator.bounding_box()
    clip = {"x": max(box["x"] - MARGIN, 0), "y": max(box["y"] - MARGIN, 0),
            "width": box["width"] + 2 * MARGIN, "height": box["height"] + 2 * MARGIN}
    before = _shot(page, clip)
    locator.focus()
    after = _shot(page, clip)
    diff = ImageChops.difference(before, after).convert("L").point(lambda v: 255 if v else 0)
    changed = [xy for xy in ((x, y) for y in range(after.height) for x in range(after.width))
               if diff.getpixel(xy)]
    assert changed, "focusing the element changed no pixel"
    ring = Counter(after.getpixel(xy) for xy in changed).most_common(1)[0][0]
    under = Counter(before.getpixel(xy) for xy in changed
                    if after.getpixel(xy) == ring).most_common(1)[0][0]
    return contrast(ring, under), ring, under
