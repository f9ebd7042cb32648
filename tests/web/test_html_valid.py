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


def _missing() -> str | None:
    if shutil.which("java") is None:
        return "java not found (apt-get install default-jre-headless; .ci/run does)"
    if not VNU.exists():
        return "node_modules/vnu-jar missing (run `make setup`: npm ci)"
    return None


@pytest.mark.skipif(_missing() is not None, reason=_missing() or "")
def test_every_page_is_valid_html(demo_app, tmp_path):
    files = []
    for label, path, html in walk(demo_app):
        f = tmp_path / f"{slug(label, path)}.html"
        f.write_text(html, encoding="utf-8")
        files.append(f)
    assert len(files) > 50
    proc = subprocess.run(["java", "-jar", str(VNU), "--format", "json", "--stdout",
                           "--errors-only", *map(str, files)],
                          capture_output=True, text=True, timeout=300)
    messages = json.loads(proc.stdout or "{}").get("messages", [])
    errors = [f"{Path(m.get('url', '')).name}:{m.get('lastLine')}: {m.get('message')}"
              for m in messages if m.get("type") == "error"]
    assert errors == [], "\n".join(errors[:40])
    assert proc.returncode == 0
