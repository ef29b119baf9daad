#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Every message of the daemon's catalogue (dbus-interfaces/contract/messages.cpp)
is translated in PO_FILE, not fuzzy, and the translation names exactly the
arguments the English format names ({device}, {percent:.0f}): a translation
with a misspelt argument would fall back to English at run time.

Usage: check_message_catalogue.py MSGCAT MESSAGES_CPP PO_FILE"""
import re
import subprocess
import sys

PLACEHOLDER = re.compile(r'\{([a-z0-9_]+)(:\.[0-9]f)?\}')


def catalogue(path):
    text = open(path, encoding='utf-8').read()
    return re.findall(r'MessageFormat \{ "([a-z0-9-]+)", N_\("((?:[^"\\]|\\.)*)"\) \}', text)


def translations(msgcat, po_file):
    # msgcat --no-wrap gives one line per msgid/msgstr; fuzzy ones are marked.
    out = subprocess.run([msgcat, '--no-wrap', '--no-location', po_file], check=True,
                         capture_output=True, text=True).stdout
    found = {}
    for block in out.split('\n\n'):
        msgid = re.search(r'^msgid "(.*)"$', block, re.M)
        msgstr = re.search(r'^msgstr "(.*)"$', block, re.M)
        if msgid and msgstr and not block.lstrip().startswith('#~'):
            found[msgid.group(1)] = (msgstr.group(1), '#, fuzzy' in block or ', fuzzy' in block)
    return found


def main():
    msgcat, messages_cpp, po_file = sys.argv[1:4]
    entries = catalogue(messages_cpp)
    if len(entries) < 50:
        print(f'{messages_cpp}: found only {len(entries)} catalogue entries; has the table changed shape?')
        return 1
    found = translations(msgcat, po_file)
    failures = []
    for message_id, english in entries:
        if english not in found or not found[english][0]:
            failures.append(f'{message_id}: not translated')
            continue
        translated, fuzzy = found[english]
        if fuzzy:
            failures.append(f'{message_id}: fuzzy')
        if sorted(PLACEHOLDER.findall(english)) != sorted(PLACEHOLDER.findall(translated)):
            failures.append(f'{message_id}: arguments {sorted(PLACEHOLDER.findall(english))} '
                            f'but the translation has {sorted(PLACEHOLDER.findall(translated))}')
    for failure in failures:
        print(f'{po_file}: {failure}')
    print(f'{po_file}: {len(entries)} catalogue messages checked, {len(failures)} problems')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
