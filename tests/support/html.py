"""The Nu HTML Checker (vnu-jar, from node_modules) on the pages a test saved."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections.abc import Iterable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
VNU = ROOT / "node_modules" / "vnu-jar" / "build" / "dist" / "vnu.jar"


def vnu_missing() -> str | None:
    """None when the checker can run; otherwise why not (for the skip reason)."""
    if shutil.which("java") is None:
        return "java not found (apt-get install default-jre-headless; .ci/run does)"
    if not VNU.exists():
        return "node_modules/vnu-jar missing (run `make setup`: npm ci)"
    return None


#: Skips a test that needs the checker, with the reason, when it cannot run.
needs_vnu = pytest.mark.skipif(vnu_missing() is not None, reason=vnu_missing() or "")


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


def write_pages(folder: Path, pages: Iterable[tuple[str, str]]) -> list[Path]:
    """Each (name, html) saved as `folder`/name.html (the name made safe for a file)."""
    folder.mkdir(parents=True, exist_ok=True)
    files = []
    for name, html in pages:
        f = folder / f"{re.sub(r'[^A-Za-z0-9_.-]+', '_', name)}.html"
        f.write_text(html, encoding="utf-8")
        files.append(f)
    return files


def html_errors(folder: Path, pages: Iterable[tuple[str, str]]) -> list[str]:
    """Save the pages (`write_pages`) and check them all in one JVM call: the errors."""
    return vnu_errors(write_pages(folder, pages))
