#!/usr/bin/python3
"""Checks the built desktop entry of the app: desktop-file-validate accepts
it without a single error or warning, it starts `diskbench` with the app's
icon, and every translatable key (Name, GenericName, Comment, Keywords) has a
translation for every language of po/LINGUAS that differs from the English
text (so the po/ merge worked). Keyword lists keep their ';' ends.

Usage: check_desktop_file.py DESKTOP_FILE_VALIDATE BUILT_DESKTOP_FILE LINGUAS APP_ID
"""
import configparser
import subprocess
import sys

GROUP = "Desktop Entry"
TRANSLATED_KEYS = ("Name", "GenericName", "Comment", "Keywords")


def read_linguas(path):
    langs = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#"):
                langs += line.split()
    return langs


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    validate, desktop, linguas, app_id = sys.argv[1:]
    langs = read_linguas(linguas)
    errors = []

    proc = subprocess.run([validate, desktop], capture_output=True, text=True)
    output = (proc.stdout + proc.stderr).strip()
    if output:
        print(output)
    if proc.returncode != 0:
        errors.append(f"desktop-file-validate exited with {proc.returncode}")
    elif output:
        errors.append("desktop-file-validate printed warnings or hints (above)")

    # Keys are case-sensitive, and Name[cs] must stay apart from Name.
    parser = configparser.RawConfigParser(interpolation=None, delimiters=("=",),
                                          comment_prefixes=("#",), strict=True)
    parser.optionxform = str
    with open(desktop, encoding="utf-8") as f:
        parser.read_file(f)
    if not parser.has_section(GROUP):
        errors.append(f"no [{GROUP}] group")
        entry = {}
    else:
        entry = parser[GROUP]

    expected = {"Type": "Application", "Exec": "diskbench", "Icon": app_id, "Terminal": "false",
                "StartupNotify": "true"}
    for key, want in expected.items():
        if entry.get(key) != want:
            errors.append(f"{key} is {entry.get(key)!r}, expected {want!r}")

    for key in TRANSLATED_KEYS:
        source = entry.get(key)
        if not source:
            errors.append(f"{key} is missing or empty")
            continue
        if key == "Keywords" and not source.endswith(";"):
            errors.append(f"{key} does not end with ';'")
        for lang in langs:
            text = entry.get(f"{key}[{lang}]")
            if not text:
                errors.append(f"{key}[{lang}] is missing: po/{lang}.po was not merged or lacks '{source}'")
            elif text == source:
                errors.append(f"{key}[{lang}] equals the English text")
            elif key == "Keywords" and not text.endswith(";"):
                errors.append(f"{key}[{lang}] does not end with ';'")

    for e in errors:
        print("FAIL: " + e)
    if errors:
        return 1
    print(f"OK: {desktop} is valid; {', '.join(TRANSLATED_KEYS)} translated into {', '.join(langs)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
