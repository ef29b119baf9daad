#!/usr/bin/python3
"""Checks po/POTFILES (or po/POTFILES.in) against the source tree.

Fails when a file with translatable strings under daemon/, libdiskbench-client/, client-gtk/, client-cli/,
dbus-interfaces/ or polkit-policy/ is not listed, when a listed file does not exist, or when a
file is listed twice.

A file has translatable strings when it is a C/C++ source using _(", N_(",
C_( or gettext(, or the engine's parameter helpers whose help po/meson.build
extracts (unsigned_param(", real_param(", bool_param(", text_param(",
write_sweep_params("), or when it is a .policy.in, .ui, .desktop.in or
.metainfo.xml.in file.

Usage: check_potfiles.py SOURCE_ROOT
"""
import os
import re
import sys

SCANNED_DIRS = ["daemon", "libdiskbench-client", "client-gtk", "client-cli", "dbus-interfaces", "polkit-policy"]
SOURCE_SUFFIXES = (".c", ".cc", ".cpp", ".cxx", ".h", ".hh", ".hpp", ".hxx")
ALWAYS_TRANSLATABLE_SUFFIXES = (".policy.in", ".ui", ".desktop.in", ".metainfo.xml.in")
# _(" and N_(" must not be the end of a longer name (e.g. FOO_("); C_( takes a
# context first; gettext( also covers dgettext(, ngettext(, g_dgettext(, ...
SOURCE_MARKERS = re.compile(r'(?<![A-Za-z0-9_])(?:_\("|N_\("|C_\()|gettext\('
                            r'|(?<![A-Za-z0-9_])(?:unsigned|real|bool|text)_param\("|write_sweep_params\("')


def read_potfiles(root):
    po = os.path.join(root, "po")
    names = [n for n in ("POTFILES", "POTFILES.in") if os.path.exists(os.path.join(po, n))]
    if not names:
        sys.exit("FAIL: neither po/POTFILES nor po/POTFILES.in exists")
    if len(names) > 1:
        sys.exit("FAIL: both po/POTFILES and po/POTFILES.in exist; meson reads only one")
    path = os.path.join(po, names[0])
    entries = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#"):
                entries.append(line)
    return "po/" + names[0], entries


def is_build_dir(dirpath):
    return os.path.isdir(os.path.join(dirpath, "meson-private"))


def translatable_files(root):
    found = []
    for top in SCANNED_DIRS:
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, top)):
            dirnames[:] = sorted(d for d in dirnames
                                 if not d.startswith(".") and not is_build_dir(os.path.join(dirpath, d)))
            for name in sorted(filenames):
                full = os.path.join(dirpath, name)
                rel = os.path.relpath(full, root)
                if name.endswith(ALWAYS_TRANSLATABLE_SUFFIXES):
                    found.append((rel, "file type"))
                elif name.endswith(SOURCE_SUFFIXES):
                    with open(full, encoding="utf-8", errors="replace") as f:
                        match = SOURCE_MARKERS.search(f.read())
                    if match:
                        found.append((rel, "uses " + match.group(0)))
    return found


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    root = sys.argv[1]
    listname, entries = read_potfiles(root)
    errors = []

    seen = set()
    for entry in entries:
        if entry in seen:
            errors.append(f"{listname}: {entry} is listed twice")
        seen.add(entry)
        if not os.path.isfile(os.path.join(root, entry)):
            errors.append(f"{listname}: {entry} is listed but does not exist")

    wanted = translatable_files(root)
    for rel, why in wanted:
        if rel not in seen:
            errors.append(f"{listname}: {rel} has translatable strings ({why}) but is not listed")

    print(f"{listname}: {len(entries)} listed; {len(wanted)} translatable file(s) found under "
          + ", ".join(d + "/" for d in SCANNED_DIRS))
    for rel, why in wanted:
        print(f"  {rel} ({why})")
    if errors:
        for e in errors:
            print("FAIL: " + e)
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
