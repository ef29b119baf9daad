#!/usr/bin/python3
"""Checks that a translation is complete: extracts every translatable string
from the files in po/POTFILES (as meson's glib preset does) and fails unless
the .po translates each of them (no untranslated or fuzzy entry left).

Usage: check_po.py XGETTEXT MSGCMP SOURCE_ROOT PO_FILE
"""
import os
import subprocess
import sys
import tempfile

XGETTEXT_ARGS = [
    "--from-code=UTF-8", "--add-comments",
    "--keyword=_", "--keyword=N_", "--keyword=C_:1c,2", "--keyword=NC_:1c,2",
    "--keyword=g_dcgettext:2", "--keyword=g_dngettext:2,3", "--keyword=g_dpgettext2:2c,3",
    # The daemon's parameter help, as po/meson.build extracts it.
    "--keyword=unsigned_param:2", "--flag=unsigned_param:2:no-c-format",
    "--keyword=real_param:2", "--flag=real_param:2:no-c-format",
    "--keyword=bool_param:2", "--flag=bool_param:2:no-c-format",
    "--keyword=text_param:2", "--flag=text_param:2:no-c-format",
    "--keyword=write_sweep_params:1", "--flag=write_sweep_params:1:no-c-format",
]


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    xgettext, msgcmp, root, po = sys.argv[1:]
    potfiles = next((os.path.join(root, "po", n) for n in ("POTFILES.in", "POTFILES")
                     if os.path.exists(os.path.join(root, "po", n))), None)
    if potfiles is None:
        print("FAIL: no po/POTFILES")
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        pot = os.path.join(tmp, "diskbench.pot")
        proc = subprocess.run([xgettext, "--package-name=diskbench", "-f", potfiles, "-D", root,
                               "-o", pot] + XGETTEXT_ARGS)
        if proc.returncode != 0:
            print(f"FAIL: xgettext exited with {proc.returncode}")
            return 1
        if not os.path.exists(pot):
            print("FAIL: xgettext found no translatable strings in the files of " + potfiles)
            return 1
        with open(pot, encoding="utf-8") as f:
            count = sum(1 for line in f if line.startswith("msgid ")) - 1
        print(f"{count} translatable strings in the sources")
        # Without --use-untranslated/--use-fuzzy, msgcmp counts untranslated
        # and fuzzy entries of the .po as missing.
        proc = subprocess.run([msgcmp, po, pot])
        if proc.returncode != 0:
            print(f"FAIL: {os.path.basename(po)} does not translate every string (msgcmp above); "
                  "run `meson compile diskbench-update-po` and translate")
            return 1
    print(f"OK: {os.path.basename(po)} translates all {count}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
