"""Reading back a PDF the portal printed: poppler's words and boxes (`pdftotext -bbox`) and
its information (`pdfinfo`), and `check`, what every document must pass: no two runs of text
overlap, every amount printed whole, each page names the Authority and its page number, the
file tagged (PDF/UA) with its title and language."""

from __future__ import annotations

import html
import re
import shutil
import subprocess
from dataclasses import dataclass

import pytest

from portal import pdf
from portal.pdf.model import Document

from .clock import TODAY

#: Skips a test that reads PDFs back when poppler-utils are missing.
needs_poppler = pytest.mark.skipif(shutil.which("pdftotext") is None
                                   or shutil.which("pdfinfo") is None,
                                   reason="poppler-utils (pdftotext, pdfinfo) missing")

#: A long parcel address (a document must wrap it, never overlap it).
LONG_ADDRESS = ("Urbanización Los Flamboyanes del Viejo San Juan, Calle Fortaleza 1234, "
                "Edificio Torre del Mar, Apartamento 5B, entrada por la Calle del Cristo, "
                "San Juan, PR 00901")
MONEY = re.compile(r"[−-]?\(?\$[\d,]+\.\d\d\)?")
WORD = re.compile(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">'
                  r"(.*?)</word>")
PAGE = re.compile(r'<page width="([\d.]+)" height="([\d.]+)">(.*?)</page>', re.S)


@dataclass
class Box:
    x0: float
    y0: float
    x1: float
    y1: float
    text: str

    def overlaps(self, other: Box, slack: float = 0.25) -> bool:
        return (self.x0 + slack < other.x1 and other.x0 + slack < self.x1
                and self.y0 + slack < other.y1 and other.y0 + slack < self.y1)


def pages_of(data: bytes, tmp_path) -> list[tuple[float, float, list[Box]]]:  # noqa: ANN001
    path = tmp_path / "doc.pdf"
    path.write_bytes(data)
    out = subprocess.run(["pdftotext", "-bbox", str(path), "-"], capture_output=True,
                         text=True, check=True).stdout
    return [(float(w), float(h), [Box(float(a), float(b), float(c), float(d), html.unescape(t))
                                  for a, b, c, d, t in WORD.findall(body)])
            for w, h, body in PAGE.findall(out)]


def pdfinfo(data: bytes, tmp_path, *flags: str) -> str:  # noqa: ANN001
    path = tmp_path / "info.pdf"
    path.write_bytes(data)
    return subprocess.run(["pdfinfo", *flags, str(path)], capture_output=True, text=True,
                          check=True).stdout


def amounts_in(doc: Document) -> list[str]:
    """Every amount the document prints (rows, facts, tables), as the caller formatted it."""
    texts = [r.amount for r in doc.rows] + [v for _, v in doc.facts]
    for table in doc.all_tables():
        texts += [c for row in table.rows for c in row if isinstance(c, str)]
    return [m.replace("\u202f", "\u00a0") for t in texts for m in MONEY.findall(t)
            if MONEY.fullmatch(t.strip())]


def check(doc: Document, data: bytes, lang: str, tmp_path, min_pages: int = 3,  # noqa: ANN001
          other: tuple[Document, str] | None = None) -> None:
    """`other`: the second version of a bilingual file (its document and language): its
    pages (from the first that prints its title) have their header and footer in its
    language, the others in `lang`; pages are numbered across the file."""
    pages = pages_of(data, tmp_path)
    assert len(pages) >= min_pages, f"{doc.title}: {len(pages)} pages"
    authority = pdf.issuer(doc.on or TODAY, lang).name
    words: list[str] = []
    page_lang, in_other = lang, False
    for number, (width, height, boxes) in enumerate(pages, 1):
        if other is not None and not in_other:
            text = " ".join(b.text for b in boxes)
            if other[0].title.split()[0] in text and other[0].title in " ".join(
                    b.text for b in sorted(boxes, key=lambda b: (round(b.y0), b.x0))):
                in_other, page_lang = True, other[1]
                authority = pdf.issuer(other[0].on or TODAY, page_lang).name
        # no two runs of text overlap, and none leaves the page
        boxes.sort(key=lambda b: b.y0)
        for i, a in enumerate(boxes):
            assert 0 <= a.x0 and a.x1 <= width and 0 <= a.y0 and a.y1 <= height, a
            for b in boxes[i + 1:]:
                if b.y0 >= a.y1:
                    break
                assert not a.overlaps(b), f"page {number}: {a} overlaps {b}"
        text = " ".join(b.text for b in sorted(boxes, key=lambda b: (round(b.y0), b.x0)))
        assert " ".join(authority.split()[:4]) in text, f"page {number} names no Authority"
        page_words = {"es": f"Página {number} de {len(pages)}",
                      "en": f"Page {number} of {len(pages)}"}[page_lang]
        assert page_words in text, f"page {number}: no “{page_words}”"
        if other is not None:  # the running header and footer in the page's language only
            foreign = {"es": f"Page {number} of", "en": f"Página {number} de"}[page_lang]
            assert foreign not in text, f"page {number} ({page_lang}): “{foreign}”"
        named = re.sub(r"(portal's rule|regla del portal|rule|regla) R-[A-Z]\d+", "",
                       text.replace("\u00a0", " "))
        assert not re.search(r"\bR-[A-Z]\d+\b", named), f"page {number}: a bare rule id"
        words += [b.text for b in boxes]
    # every amount appears whole: as one run of text, as many times as the document has it
    for amount in set(amounts_in(doc)):
        wanted = amounts_in(doc).count(amount)
        assert words.count(amount) >= wanted, f"{amount} printed {words.count(amount)} times " \
                                              f"whole, the document has it {wanted} times"
    info = pdfinfo(data, tmp_path)
    assert re.search(r"^Tagged:\s+yes$", info, re.M), info
    assert re.search(rf"^Title:\s+{re.escape(doc.title)}$", info, re.M), info
    author = pdf.issuer(doc.on or TODAY, lang).name
    assert re.search(rf"^Author:\s+{re.escape(author)}$", info, re.M), info
    assert (b"/Lang (es-PR)" if lang == "es" else b"/Lang (en-US)") in data
    assert b"/DisplayDocTitle true" in data
    meta = pdfinfo(data, tmp_path, "-meta")
    assert "<pdfuaid:part>1</pdfuaid:part>" in meta and f">{lang}-" in meta
    tree = pdfinfo(data, tmp_path, "-struct")
    roles = ("Document", "H1", "Table", "TR", "TH", "TD") + (("P",) if doc.subtitle else ())
    for role in roles:
        assert re.search(rf"^\s*{role}\b", tree, re.M), f"no {role} in the structure tree"
    structure(data, tmp_path, author)


def structure(data: bytes, tmp_path, issuer: str) -> list[tuple[int, str, str]]:  # noqa: ANN001
    """The structure tree's elements in reading order (depth, role, their text), checked for
    the issuer's name once as content, first (PDF/UA-1 7.1); every table
    after a heading (none straight after another table); no font maps a glyph to U+0000
    (a PDF/UA validator's FONT-UNICODE-VALUE-001); and the `pdfua` checker's rules."""
    elems = _walk(data, tmp_path)
    _one_document(elems, issuer, 1)
    _fonts(data, pages=1)
    pdfua_findings(data, tmp_path)
    return elems


#: pdfua 0.1's rules that raise on a structure element whose /K is an array of marked-content
#: references (as every element here has): reported "not evaluated", not a finding.
PDFUA_CANNOT_READ = {"UA-14-001"}


def pdfua_findings(data: bytes, tmp_path) -> None:  # noqa: ANN001
    """The PyPI `pdfua` checker (PDF/UA-1's machine-checkable subset: structure tree,
    marked content or artifacts, language, figures' alternative text, tables, headings,
    title, the PDF/UA identification) finds nothing, and evaluates every rule it has but
    those it cannot read here (`PDFUA_CANNOT_READ`)."""
    from pdfua import validate
    path = tmp_path / "pdfua.pdf"
    path.write_bytes(data)
    report = validate(str(path))
    assert [(f.rule_id, f.message) for f in report.findings] == []
    skipped = {o.rule_id for o in report.skipped}
    assert skipped <= PDFUA_CANNOT_READ, skipped


def _walk(data: bytes, tmp_path) -> list[tuple[int, str, str]]:  # noqa: ANN001
    out = pdfinfo(data, tmp_path, "-struct-text")
    elems: list[tuple[int, str, str]] = []
    for line in out.splitlines():
        depth = (len(line) - len(line.lstrip(" "))) // 2
        body = line.strip()
        if body.startswith('"'):
            if elems:
                d, role, text = elems[-1]
                elems[-1] = (d, role, text + body.strip('"'))
        elif body and not body.startswith("/"):
            elems.append((depth, body.split()[0].rstrip(":"), ""))
    return elems


def _one_document(elems: list[tuple[int, str, str]], issuer: str, depth: int) -> None:
    """A document's elements: the issuer's name once, first (at `depth`); every table
    after a heading."""
    texts = [t for _d, _r, t in elems]
    assert texts.count(issuer) == 1, f"the issuer {issuer!r} is {texts.count(issuer)} times"
    first = next(e for e in elems if e[0] == depth)
    assert first == (depth, "P", issuer), elems[:3]
    previous = ""
    for _d, role, _t in elems:
        if role == "Table":
            assert previous != "Table", "a table straight after another, with no heading"
        if role == "Table" or re.fullmatch(r"H\d?", role):
            previous = role


def merged_structure(data: bytes, tmp_path, issuers: list[str]  # noqa: ANN001
                     ) -> list[list[tuple[int, str, str]]]:
    """A file of several documents put together as they are (`portal.pdf.merge`): tagged
    (/MarkInfo /Marked true, /Lang, a structure tree), its tree Document > one Part a
    document, each part's elements checked as `structure` checks one document's (the
    issuer named once in it, first; `issuers`: each part's). The parts' elements."""
    import io

    from pypdf import PdfReader
    root = PdfReader(io.BytesIO(data)).trailer["/Root"]
    assert bool(root["/MarkInfo"]["/Marked"]) is True
    assert str(root["/Lang"]) in ("es-PR", "en-US")
    assert "/StructTreeRoot" in root
    assert re.search(r"^Tagged:\s+yes$", pdfinfo(data, tmp_path), re.M)
    elems = _walk(data, tmp_path)
    assert elems and elems[0][:2] == (0, "Document"), elems[:2]
    parts: list[list[tuple[int, str, str]]] = []
    for e in elems[1:]:
        if e[0] == 1:
            assert e[1] == "Part", e
            parts.append([])
        else:
            parts[-1].append(e)
    assert len(parts) == len(issuers), f"{len(parts)} parts, {len(issuers)} documents"
    for part, issuer in zip(parts, issuers):
        _one_document(part, issuer, 2)
    _fonts(data, pages=None)
    pdfua_findings(data, tmp_path)
    return parts


def _fonts(data: bytes, pages: int | None) -> None:
    import io

    from pypdf import PdfReader
    reader = PdfReader(io.BytesIO(data))
    for page in reader.pages[:pages]:
        for font in page["/Resources"]["/Font"].values():
            cmap = font.get_object()["/ToUnicode"].get_object().get_data().decode("latin-1")
            mapped = cmap.split("endcodespacerange", 1)[1]
            assert not re.search(r"<0+>\s*$", mapped, re.M), "a glyph mapped to U+0000"
