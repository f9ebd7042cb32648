"""Fill msgstr entries of a catalog from a Python dict file (used when adding reviewed text).

    python scripts/fill_catalog.py translations/es/LC_MESSAGES/messages.po FILE.py
FILE.py defines ES = {msgid: msgstr}. Existing translations are replaced; fuzzy flags cleared.
"""

import runpy
import sys

from babel.messages.pofile import read_po, write_po


def main(po_path: str, dict_path: str) -> None:
    table = runpy.run_path(dict_path)["ES"]
    with open(po_path, "rb") as fh:
        catalog = read_po(fh)
    filled = 0
    for msg in catalog:
        if msg.id and msg.id in table:
            msg.string = table[msg.id]
            msg.flags.discard("fuzzy")
            filled += 1
    with open(po_path, "wb") as fh:
        write_po(fh, catalog, width=100, omit_header=False, no_location=True, sort_output=True)
    sys.stdout.write(f"{filled} messages filled\n")


if __name__ == "__main__":
    main(*sys.argv[1:3])
