"""The contrast of a focus indicator, measured from screenshots as a person sees it (WCAG
1.4.11): the element's surroundings shot without focus and with it; the pixels that changed
are the indicator; its commonest colour is compared with what those pixels were before (the
element's unfocused state and the background it is drawn on) and with the unchanged pixels
right beside it outside the element's box (the background next to the ring), by WCAG's
relative luminance.

`ring_contrast` measures one element (focused by script after a keyboard press);
`tab_walk` presses Tab through a whole page and measures each element the keyboard reaches.
"""

from __future__ import annotations

import io
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

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


@dataclass(frozen=True)
class Ring:
    """A focus indicator as measured: its colour, the colour those pixels had unfocused
    (`under`), the commonest colour beside it outside the element (`beside`, None when the
    indicator lies inside the element's box) and both contrasts."""

    ring: tuple[int, int, int]
    under: tuple[int, int, int]
    beside: tuple[int, int, int] | None

    @property
    def against_unfocused(self) -> float:
        return contrast(self.ring, self.under)

    @property
    def against_beside(self) -> float:
        return contrast(self.ring, self.beside) if self.beside is not None else 21.0

    @property
    def ratio(self) -> float:
        return min(self.against_unfocused, self.against_beside)

    def __str__(self) -> str:
        return (f"ring {self.ring} on {self.under} {self.against_unfocused:.2f}:1, beside "
                f"{self.beside} {self.against_beside:.2f}:1")


def _clip(box: dict, viewport: dict) -> tuple[dict, tuple[int, int, int, int]]:
    """The screenshot's clip around `box` (within the viewport), and the box inside it."""
    x0, y0 = max(box["x"] - MARGIN, 0), max(box["y"] - MARGIN, 0)
    x1 = min(box["x"] + box["width"] + MARGIN, viewport["width"])
    y1 = min(box["y"] + box["height"] + MARGIN, viewport["height"])
    inner = (round(box["x"] - x0), round(box["y"] - y0),
             round(box["x"] + box["width"] - x0), round(box["y"] + box["height"] - y0))
    return {"x": x0, "y": y0, "width": x1 - x0, "height": y1 - y0}, inner


def _pixels(image: Image.Image) -> list[tuple[int, int, int]]:
    raw = image.tobytes()
    return list(zip(raw[0::3], raw[1::3], raw[2::3]))


def compare(before: Image.Image, after: Image.Image,
            inner: tuple[int, int, int, int]) -> Ring | None:
    """The indicator drawn between `before` and `after` (None: no pixel changed); `inner`,
    the element's box in the shots (left, top, right, bottom)."""
    w, h = after.size
    changed = ImageChops.difference(before, after).convert("L").tobytes()
    if not any(changed):
        return None
    was, now = _pixels(before), _pixels(after)
    left, top, right, bottom = inner

    def outside(i: int) -> bool:
        x, y = i % w, i // w
        return not (left <= x < right and top <= y < bottom)

    # The ring is drawn around the element; what changed inside its box (an element that
    # appears when focused, as the skip link does) is the element, not its ring.
    drawn = [i for i, v in enumerate(changed) if v and outside(i)] or [
        i for i, v in enumerate(changed) if v]
    ring = Counter(now[i] for i in drawn).most_common(1)[0][0]
    at_ring = [i for i in drawn if now[i] == ring]
    under = Counter(was[i] for i in at_ring).most_common(1)[0][0]
    beside: Counter = Counter()
    for i in at_ring:
        x, y = i % w, i // w
        for nx, ny in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)):
            if not (0 <= nx < w and 0 <= ny < h) or (left <= nx < right and top <= ny < bottom):
                continue
            j = ny * w + nx
            if not changed[j]:
                beside[now[j]] += 1
    return Ring(ring, under, beside.most_common(1)[0][0] if beside else None)


def ring_contrast(page, locator) -> tuple[float, tuple, tuple]:  # noqa: ANN001
    """(ratio, ring colour, background colour) of `locator`'s focus indicator."""
    locator.scroll_into_view_if_needed()
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    page.mouse.move(0, 0)
    clip, inner = _clip(locator.bounding_box(), page.viewport_size)
    before = _shot(page, clip)
    locator.focus()
    ring = compare(before, _shot(page, clip), inner)
    assert ring is not None, "focusing the element changed no pixel"
    return ring.against_unfocused, ring.ring, ring.under


#: Transitions (the skip link slides in) finished at once, so a shot shows where they end.
_SETTLE = "document.getAnimations().forEach((a) => a.finish());"
#: The focused element: its box (a radio's or checkbox's label when the input itself is
#: drawn off-screen, as USWDS's tiles are), centred in the viewport first, and a name.
_FOCUSED = """() => {
  """ + _SETTLE + """
  const e = document.activeElement;
  if (!e || e === document.body || e === document.documentElement) return null;
  let t = e;
  if ((e.type === 'radio' || e.type === 'checkbox') && e.labels && e.labels.length) {
    const r = e.getBoundingClientRect();
    if (r.right < 0 || r.width < 2 || getComputedStyle(e).opacity === '0') t = e.labels[0];
  }
  t.scrollIntoView({block: 'center', inline: 'nearest'});
  const r = t.getBoundingClientRect();
  const name = (e.getAttribute('aria-label') || e.innerText || e.value || e.id || '')
    .trim().replace(/\\s+/g, ' ').slice(0, 40);
  const cls = (e.className && e.className.baseVal === undefined ? e.className : '')
    .split(' ').filter(Boolean).slice(0, 2).join('.');
  window.__ringWalk = e;
  return {x: r.x, y: r.y, width: r.width, height: r.height,
          name: `${e.tagName.toLowerCase()}${cls ? '.' + cls : ''} “${name}”`};
}"""


def tab_walk(page, limit: int = 400  # noqa: ANN001
             ) -> Iterator[tuple[str, Ring | None, Image.Image | None]]:
    """Tab through the loaded page from its top, each element the keyboard reaches once (to
    the end of the page, or `limit` presses): shot focused, then blurred, then focused again
    (so the next Tab goes on from it). Yields (the element's name, its ring or None when
    focusing it changed no pixel or the element is not on the screen, the focused shot)."""
    page.mouse.move(0, 0)
    page.evaluate("() => { document.activeElement && document.activeElement.blur();"
                  " window.scrollTo(0, 0); window.__ringSeen = new Set(); }")
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("() => { const e = document.activeElement;"
                         " if (!e || e === document.body || window.__ringSeen.has(e)) return true;"
                         " window.__ringSeen.add(e); return false; }"):
            return
        box = page.evaluate(_FOCUSED)
        name = box.pop("name")
        clip, inner = _clip(box, page.viewport_size)
        if min(box["width"], box["height"], clip["width"], clip["height"]) < 1:
            yield name, None, None  # focused, and nothing of it on the screen
            continue
        after = _shot(page, clip)
        page.evaluate(f"() => {{ window.__ringWalk.blur(); {_SETTLE} }}")
        before = _shot(page, clip)
        page.evaluate(f"() => {{ window.__ringWalk.focus({{preventScroll: true}}); {_SETTLE} }}")
        yield name, compare(before, after, inner), after
