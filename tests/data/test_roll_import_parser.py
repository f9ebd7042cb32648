"""The roll file's reader (portal/roll/roll_csv, pure): encodings (UTF-8 with and without a
BOM, Windows-1252), comma or semicolon, CRLF, a header in either language, and each reason a
row or a file is refused (R-A2 owner kinds, R-A3 benefit units, R-A16 leases)."""

from __future__ import annotations

import tracemalloc
from decimal import Decimal

import pytest

from portal.roll import roll_csv as ri

HEAD_ES = [c.es for c in ri.COLUMNS]
HEAD_EN = [c.en for c in ri.COLUMNS]
GOOD = ["040-012-345-67", "Calle Peñuelas 12", "Mayagüez", "urbana", "0.25", "60,000.00",
        "85000", "privado", "no", "sí", "12.5", "Ana Rivera|José Ortiz",
        "ana@example.pr|JOSE@example.pr", "0.5|0.5", "", "", "", "", "", ""]


def _file(tmp_path, rows, *, delimiter=",", encoding="utf-8", bom=False, newline="\r\n",
          name="roll.csv"):
    text = newline.join(delimiter.join(_q(c, delimiter) for c in r) for r in rows) + newline
    data = text.encode(encoding)
    if bom:
        data = b"\xef\xbb\xbf" + data
    path = tmp_path / name
    path.write_bytes(data)
    return path


def _q(cell: str, delimiter: str) -> str:
    return f'"{cell}"' if (delimiter in cell or '"' in cell) else cell


def _rows(path):
    return list(ri.read(path, ri.sniff(path)))


@pytest.mark.parametrize("encoding,bom,delimiter,newline", [
    ("utf-8", False, ",", "\r\n"), ("utf-8", True, ";", "\r\n"), ("cp1252", False, ";", "\r\n"),
    ("cp1252", False, ",", "\n"), ("utf-8", True, ",", "\n")])
def test_each_encoding_and_delimiter_reads_the_same_parcel(tmp_path, encoding, bom, delimiter,
                                                           newline):
    path = _file(tmp_path, [HEAD_ES, GOOD], delimiter=delimiter, encoding=encoding, bom=bom,
                 newline=newline)
    fmt = ri.sniff(path)
    assert fmt.encoding == ("cp1252" if encoding == "cp1252" else "utf-8-sig")
    assert (fmt.delimiter, fmt.bom, fmt.rows) == (delimiter, bom, 1)
    [row] = _rows(path)
    assert row.errors == () and row.number == 2
    p = row.parcel
    assert (p.catastro, p.address, p.municipality, p.zone, p.owner_kind) == (
        "040-012-345-67", "Calle Peñuelas 12", "Mayagüez", "urban", "private")
    assert (p.land_area_cuerdas, p.land_valuation, p.structure_valuation, p.benefit_units) == (
        "0.250000", "60000.00", "85000.00", "12.5000")
    assert (p.transferred, p.tax_incentive_exempt) == (False, True)
    assert [(o.name, o.email, o.share) for o in p.owners] == [
        ("Ana Rivera", "ana@example.pr", "0.500000"), ("José Ortiz", "jose@example.pr",
                                                        "0.500000")]
    assert p.facts()["benefit_units"] == Decimal("12.5000")


def test_an_english_header_in_another_order_and_a_lease(tmp_path):
    order = list(reversed(range(len(HEAD_EN))))
    row = GOOD[:]
    row[ri.COLUMNS.index(ri.BY_KEY["owner_kind"])] = "authority"
    row[ri.COLUMNS.index(ri.BY_KEY["transferred"])] = "yes"
    row[11:14] = ["Autoridad del Distrito", "", ""]
    row[14:20] = ["Café del Puerto LLC", "cafe@example.pr", "", "C-17", "2026-01-01", ""]
    path = _file(tmp_path, [[HEAD_EN[i] for i in order], [row[i] for i in order]])
    [r] = _rows(path)
    assert r.errors == ()
    assert r.parcel.owner_kind == "authority" and r.parcel.transferred is True
    assert r.parcel.lease == ri.LeaseRow("Café del Puerto LLC", "cafe@example.pr", True, "C-17",
                                         "2026-01-01", None)
    assert [o.share for o in r.parcel.owners] == ["1.000000"]


def test_a_municipality_is_stored_as_spelt_on_the_roll(tmp_path):
    row = GOOD[:]
    row[2] = "  SAN   german "
    [r] = _rows(_file(tmp_path, [HEAD_ES, row]))
    assert r.errors == () and r.parcel.municipality == "San Germán"
    assert len(ri.MUNICIPALITIES) == 78


def test_equal_shares_when_none_are_given_sum_to_one(tmp_path):
    row = GOOD[:]
    row[11:14] = ["A|B|C", "", ""]
    [r] = _rows(_file(tmp_path, [HEAD_ES, row]))
    assert [o.share for o in r.parcel.owners] == ["0.333334", "0.333333", "0.333333"]


BAD = [
    ("catastro", "", "required"), ("catastro", "40-12-3", "bad_catastro"),
    ("direccion", "", "required"), ("direccion", "x" * 301, "too_long"),
    ("municipio", "Sn Juan", "not_a_municipality"), ("zona", "centro", "not_a_zone"),
    ("tipo_dueno", "iglesia", "not_an_owner_kind"),
    ("cuerdas", "1/4", "not_a_number"), ("cuerdas", "0,25", "not_a_number"),
    ("valor_terreno", "-5", "negative"), ("valor_terreno", "1000.005", "too_many_decimals"),
    ("valor_estructuras", "1" * 13, "too_large"), ("unidades_beneficio", "", "required"),
    # The dollar columns read as every amount does (money_input): the other convention's
    # separators and an exponent are refused with their reason, never read as $1.50.
    ("valor_terreno", "1.500,00", "other_separators"), ("valor_terreno", "1.500",
                                                         "other_separators"),
    ("valor_estructuras", "12,5", "other_separators"), ("valor_estructuras", "1e9", "exponent"),
    ("transferida", "quizás", "not_yes_no"),
    ("correos_duenos", "ana@|b@x.pr", "bad_email", "correos_duenos", "ana@"),
    ("correos_duenos", "ana@x.pr", "owners_mismatch"), ("participaciones", "0.5|0.4",
                                                        "shares_sum"),
    ("participaciones", "0.5|1.5", "bad_share", "participaciones", "1.5"),
    ("contrato", "C-1", "lease_without_lessee", "arrendatario", ""),
]


@pytest.mark.parametrize("case", BAD, ids=lambda c: f"{c[0]}-{c[2]}")
def test_each_bad_value_is_refused_with_its_row_column_value_and_reason(tmp_path, case):
    column, value, code = case[:3]
    named, shown = case[3:] or (column, value)
    row = GOOD[:]
    row[HEAD_ES.index(column)] = value
    [r] = _rows(_file(tmp_path, [HEAD_ES, GOOD, row]))[1:]
    assert r.parcel is None
    assert [(e.row, e.column, e.code) for e in r.errors] == [(3, named, code)]
    expected = shown if len(shown) <= ri.VALUE_SHOWN else shown[:ri.VALUE_SHOWN - 1] + "…"
    assert r.errors[0].value == expected


def test_a_lease_needs_a_start_and_ends_after_it(tmp_path):
    row = GOOD[:]
    row[14:20] = ["Lessee", "", "no", "", "", ""]
    other = GOOD[:]
    other[14:20] = ["Lessee", "", "", "", "2026-05-01", "2026-04-30"]
    third = GOOD[:]
    third[14:20] = ["Lessee", "", "", "", "1/5/2026", ""]
    rs = _rows(_file(tmp_path, [HEAD_ES, row, other, third]))
    assert [e.code for r in rs for e in r.errors] == ["lessee_without_start", "dates_reversed",
                                                     "bad_date"]


def test_every_error_of_a_row_is_reported_and_a_short_row_is_one_error(tmp_path):
    row = GOOD[:]
    row[0], row[3], row[10] = "", "centro", "muchas"
    rs = _rows(_file(tmp_path, [HEAD_ES, row, GOOD[:5]]))
    assert [e.code for e in rs[0].errors] == ["required", "not_a_zone", "not_a_number"]
    assert [(e.code, e.params) for e in rs[1].errors] == [
        ("wrong_column_count", {"expected": 20, "found": 5})]


@pytest.mark.parametrize("content,code", [
    (b"", "empty"), (b"PK\x03\x04\x00\x00binary", "not_text"), (b"\x81\x8d\x90 x", "not_text"),
    (b"catastro,direccion\r\n1,2\r\n", "missing_columns"),
    (",".join(HEAD_ES + ["color"]).encode(), "unknown_columns"),
    (",".join(HEAD_ES + ["zone"]).encode(), "repeated_columns")])
def test_a_file_that_is_not_the_roll_is_refused_as_a_whole(tmp_path, content, code):
    path = tmp_path / "f.csv"
    path.write_bytes(content)
    with pytest.raises(ri.FileProblem) as exc:
        ri.sniff(path)
    assert exc.value.code == code


def test_a_large_file_is_read_one_row_at_a_time(tmp_path):
    path = tmp_path / "big.csv"
    with open(path, "w", encoding="utf-8", newline="") as fh:
        fh.write(",".join(HEAD_ES) + "\r\n")
        for k in range(20000):
            row = GOOD[:]
            row[0] = f"040-{k // 1000:03d}-{k % 1000:03d}-00"
            fh.write(",".join(_q(c, ",") for c in row) + "\r\n")
    fmt = ri.sniff(path)
    assert fmt.rows == 20000
    tracemalloc.start()
    n = 0
    for row in ri.read(path, fmt):
        n += row.parcel is not None
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert n == 20000
    assert peak < 2 * 1024 * 1024  # the rows are not kept: far less than 20,000 parcels' worth


def test_the_template_reads_back_without_errors(tmp_path):
    for lang in ("es", "en"):
        path = _file(tmp_path, ri.template_rows(lang), name=f"t-{lang}.csv")
        [r] = _rows(path)
        assert r.errors == () and r.parcel.zone == "urban"


def test_a_parsed_row_reads_back_from_its_staged_json(tmp_path):
    row = GOOD[:]
    row[14:20] = ["Lessee Ñ", "l@example.pr", "no", "C-9", "2026-07-01", "2027-06-30"]
    [r] = _rows(_file(tmp_path, [HEAD_ES, row]))
    assert ri.ParcelRow.from_json(r.parcel.to_json()) == r.parcel
    [plain] = _rows(_file(tmp_path, [HEAD_ES, GOOD], name="plain.csv"))
    assert ri.ParcelRow.from_json(plain.parcel.to_json()) == plain.parcel
