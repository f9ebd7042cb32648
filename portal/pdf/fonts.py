"""The documents' font: a Unicode TrueType font, Public Sans from the USWDS package the setup
installs (portal/static/vendor/), or DejaVu Sans where Debian's fonts-dejavu-core is present."""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
FONT = "body"
FONT_CANDIDATES = (
    (HERE / "static/vendor/uswds/fonts/public-sans/PublicSans-Regular.ttf",
     HERE / "static/vendor/uswds/fonts/public-sans/PublicSans-Bold.ttf"),
    (Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"),
     Path("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")),
)


class FontMissing(RuntimeError):
    pass


def font_files() -> tuple[Path, Path]:
    for regular, bold in FONT_CANDIDATES:
        if regular.exists() and bold.exists():
            return regular, bold
    raise FontMissing("no Unicode TTF font: run `make setup` (npm ci installs Public Sans)")
