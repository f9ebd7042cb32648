"""A golden check of `calc assessment_roll`: the same output, to the byte, before and after a
change. A script, not a test.

    .venv/bin/python bench/roll_golden.py --write /tmp/roll_golden.json   # before the change
    .venv/bin/python bench/roll_golden.py --check /tmp/roll_golden.json   # after it

Every `assessment_roll` case of tests/cases, then `--rolls` (1,200) seeded random rolls of
various sizes (none to 3,000 parcels: exempt public and Authority land, transferred land, incentive
flags, zero units, fixed amounts, units with up to four places, ids as strings or integers,
optional fields left out or null), then as many seeded broken rolls (each a valid roll with one
fault: a missing, wrong-typed, negative, too-precise or unknown field, a duplicate id, fixed
amounts above the total, a rest with only zero units). Each goes through `calc.run_json` as
`portal calc assessment_roll` feeds it; the whole JSON text (assessments, exempt, the trace in
every language) or the one-line error with its class and field is digested (SHA-256). `--check`
compares every digest and names the first inputs that differ; exit status 1 when any does.
"""

from __future__ import annotations

import argparse
import copy
import hashlib
import json
import random
import sys
from decimal import Decimal
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from portal.core import calc  # noqa: E402
from portal.core.errors import CalcError  # noqa: E402
from tests.support.cases import CASES, input_text  # noqa: E402

OWNERS = ["private"] * 85 + ["authority"] * 8 + ["public"] * 5 + [None] * 2


def _units(rng: random.Random) -> Any:
    kind = rng.random()
    if kind < 0.08:
        return "0"
    if kind < 0.12:
        return rng.choice(["0.00", "0.0000", "00", "0.5"])
    if kind < 0.2:
        return rng.randint(0, 400)  # an integer is a decimal too
    places = rng.choice([0, 1, 2, 2, 2, 3, 4])
    return str(Decimal(rng.randint(0, 9_999_999)).scaleb(-places))


def make_parcel(k: int, rng: random.Random, with_fixed: float) -> dict[str, Any]:
    p: dict[str, Any] = {"id": rng.choice([f"P{k:06d}", f"{k:05d}-{rng.randint(0, 9)}", k * 7])}
    if rng.random() < 0.97:
        p["benefit_units"] = _units(rng)
    elif rng.random() < 0.5:
        p["benefit_units"] = None
    owner = rng.choice(OWNERS)
    if owner is not None:
        p["owner"] = owner
    if rng.random() < 0.6:
        p["transferred"] = rng.random() < (0.5 if owner != "private" else 0.1)
    if rng.random() < 0.5:
        p["tax_incentive_exempt"] = rng.random() < 0.1
    if rng.random() < with_fixed:
        p["fixed_amount"] = rng.choice([f"{rng.randint(0, 5000)}.{rng.randint(0, 99):02d}",
                                        str(rng.randint(0, 900)), rng.randint(0, 900)])
    elif rng.random() < 0.02:
        p["fixed_amount"] = None
    return p


def make_roll(rng: random.Random) -> dict[str, Any]:
    n = rng.choice([0, 1, 1, 2, 3, 5, 8, 13, 40, 100, 250, 700, rng.randint(1, 3000)])
    with_fixed = rng.choice([0, 0, 0.01, 0.05, 0.3])
    parcels = [make_parcel(k, rng, with_fixed) for k in range(n)]
    fixed = sum((Decimal(str(p["fixed_amount"])) for p in parcels
                 if p.get("fixed_amount") is not None), Decimal(0))
    total = fixed + Decimal(rng.choice([0, rng.randint(0, 99), rng.randint(0, 10 ** 8)])
                            ).scaleb(-2) * rng.choice([1, 1, 1, 100])
    roll: dict[str, Any] = {"total": f"{total:.2f}" if rng.random() < 0.9 else str(int(total)),
                            "parcels": parcels}
    if rng.random() < 0.1:
        roll = {"parcels": parcels, "total": roll["total"]}  # key order must not matter
    if rng.random() < 0.05:  # one shape for every parcel, the ids and units only, or nothing
        keep = rng.choice([(), ("id",), ("id", "benefit_units"), ("benefit_units", "id")])
        for p in parcels:
            for key in [k for k in p if k not in keep]:
                del p[key]
    return roll


BREAKS = [
    ("total", lambda v, rng: None), ("total", lambda v, rng: "-1.00"),
    ("total", lambda v, rng: "1.001"), ("total", lambda v, rng: Decimal("12.5")),
    ("total", lambda v, rng: "abc"), ("total", lambda v, rng: "9999999999999.00"),
    ("parcels", lambda v, rng: {"a": 1}), ("parcels", lambda v, rng: "x"),
    ("id", lambda v, rng: None), ("id", lambda v, rng: True), ("id", lambda v, rng: 1.5),
    ("id", lambda v, rng: ["x"]), ("id", lambda v, rng: Decimal("3.0")),
    ("benefit_units", lambda v, rng: "-1"), ("benefit_units", lambda v, rng: "1e3"),
    ("benefit_units", lambda v, rng: Decimal("1.5")), ("benefit_units", lambda v, rng: True),
    ("benefit_units", lambda v, rng: " 12 "), ("benefit_units", lambda v, rng: "1" * 16),
    ("benefit_units", lambda v, rng: "1." + "1" * 40), ("benefit_units", lambda v, rng: "1,5"),
    ("benefit_units", lambda v, rng: -3), ("benefit_units", lambda v, rng: "٣"),
    ("owner", lambda v, rng: "Private"), ("owner", lambda v, rng: 3),
    ("owner", lambda v, rng: ""), ("transferred", lambda v, rng: "yes"),
    ("transferred", lambda v, rng: 1), ("tax_incentive_exempt", lambda v, rng: 0),
    ("fixed_amount", lambda v, rng: "-5.00"), ("fixed_amount", lambda v, rng: "1.234"),
    ("fixed_amount", lambda v, rng: Decimal("5.5")), ("fixed_amount", lambda v, rng: True),
    ("fixed_amount", lambda v, rng: "1000000000000.00"),
    ("fixed_amount", lambda v, rng: "99999999.00"), ("fixed_amount", lambda v, rng: " 5 "),
    ("extra", lambda v, rng: 1), ("parcel", lambda v, rng: 7), ("duplicate", None),
    ("zero units", None), ("top extra", None), ("top list", None),
]


def break_roll(roll: dict[str, Any], rng: random.Random) -> dict[str, Any] | list[Any]:
    """The roll with one fault (or, for a few, with several)."""
    roll = copy.deepcopy(roll)
    for _ in range(1 if rng.random() < 0.85 else rng.randint(2, 3)):
        name, make = rng.choice(BREAKS)
        parcels = roll.get("parcels")
        if name in ("total", "parcels"):
            roll[name] = make(roll.get(name), rng)
        elif name == "top extra":
            roll["year"] = 2027
        elif name == "top list":
            return [roll]
        elif not isinstance(parcels, list) or not parcels:
            roll["parcels"] = [None]
        elif not all(isinstance(p, dict) for p in parcels):
            continue
        elif name == "parcel":
            parcels[rng.randrange(len(parcels))] = rng.choice([7, "P1", None, []])
        elif name == "duplicate":
            parcels.append(dict(parcels[rng.randrange(len(parcels))]))
        elif name == "zero units":
            for p in parcels:
                p["benefit_units"] = "0"
            roll["total"] = "100.00"
        elif name == "extra":
            parcels[rng.randrange(len(parcels))][rng.choice(["notes", "units", "Id"])] = 1
        else:
            parcels[rng.randrange(len(parcels))][name] = make(None, rng)
    return roll


def outcome(text: str) -> str:
    try:
        return calc.run_json("assessment_roll", text)
    except CalcError as exc:
        return f"{type(exc).__name__}|{exc.field}|{exc.message}|{exc.one_line()}"
    except Exception as exc:  # noqa: BLE001 - a crash must stay the same crash, too
        return f"{type(exc).__name__}|{exc}"


def _json(data: Any) -> str:
    return json.dumps(data, default=lambda d: float(d) if isinstance(d, Decimal) else d)


def inputs(rolls: int, seed: int) -> list[tuple[str, str]]:
    """(name, JSON text) of every input, in a fixed order."""
    out = [(f"case {area}: {case['name']}", input_text(case)) for area, case in CASES
           if case["operation"] == "assessment_roll"]
    rng = random.Random(seed)
    valid = [make_roll(rng) for _ in range(rolls)]
    out += [(f"roll {k}", _json(r)) for k, r in enumerate(valid)]
    out += [(f"broken roll {k}", _json(break_roll(r, rng))) for k, r in enumerate(valid)]
    return out


def digests(rolls: int, seed: int) -> dict[str, str]:
    return {name: hashlib.sha256(outcome(text).encode()).hexdigest()[:24]
            for name, text in inputs(rolls, seed)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    group = ap.add_mutually_exclusive_group(required=True)
    group.add_argument("--write", type=Path, help="write the digests to this file")
    group.add_argument("--check", type=Path, help="compare with the digests in this file")
    ap.add_argument("--rolls", type=int, default=1_200)
    ap.add_argument("--seed", type=int, default=30)
    args = ap.parse_args(argv)
    got = digests(args.rolls, args.seed)
    errors = sum(1 for name in got if name.startswith("broken"))
    whole = hashlib.sha256("".join(got.values()).encode()).hexdigest()[:24]
    print(f"{len(got):,} inputs ({errors:,} broken); digest of all {whole}")
    if args.write:
        args.write.write_text(json.dumps({"all": whole, "each": got}, indent=0))
        return 0
    want = json.loads(args.check.read_text())["each"]
    differ = [name for name in want if got.get(name) != want[name]]
    print(f"{len(want) - len(differ):,} of {len(want):,} identical")
    for name in differ[:10]:
        print(f"  differs: {name}")
    return 1 if differ or len(got) != len(want) else 0


if __name__ == "__main__":
    raise SystemExit(main())
