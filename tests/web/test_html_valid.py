"""The Nu HTML Checker (vnu-jar) finds no error on any page (all pages in one JVM call)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.web.site import slug, walk

ROOT = Path(__file__).resolve().parents[2]
VNU = ROOT / "node_modules" / "vnu-jar" / "build" / "dist" / "vnu.jar"


def vnu_missing() -> str | None:
    if shutil.which("java") is None:
        return "java not found (apt-get install default-jre-headless; .ci/run does)"
    if not VNU.exists():
        return "node_modules/vnu-jar missing (run `make setup`: npm ci)"
    return None


def vnu_errors(files: list[Path]) -> list[str]:
    """The Nu HTML Checker's errors on these files (one JVM call)."""
    proc = subprocess.run(["java", "-jar", str(VNU), "--format", "json", "--stdout",
                           "--errors-only", *map(str, files)],
                          capture_output=True, text=True, timeout=300)
    messages = json.loads(proc.stdout or "{}").get("messages", [])
    errors = [f"{Path(m.get('url', '')).name}:{m.get('lastLine')}: {m.get('message')}"
              for m in messages if m.get("type") == "error"]
    assert errors or proc.returncode == 0, proc.stderr
    return errors


@pytest.mark.skipif(vnu_missing() is not None, reason=vnu_missing() or "")
def test_every_page_is_valid_html(demo_app, tmp_path):
    files = []
    for label, path, html in walk(demo_app):
        f = tmp_path / f"{slug(label, path)}.html"
        f.write_text(html, encoding="utf-8")
        files.append(f)
    assert len(files) > 50
    errors = vnu_errors(files)
    assert errors == [], "\n".join(errors[:40])
