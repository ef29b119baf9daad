#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The man pages of the app and the daemon, as installed:
  * `man -l` renders each without a groff warning and with a NAME line;
  * with --options-of PROGRAM, every option PROGRAM's --help lists is
    described in the page's OPTIONS section, and no other (the page cannot
    fall behind the code, or describe an option that is gone).

usage: check_man_pages.py [--options-of PROGRAM] MANPAGE...
"""

import os
import re
import subprocess
import sys


def rendered(manpage, failures):
    env = dict(os.environ, MANWIDTH='80', LC_ALL='C.UTF-8')
    res = subprocess.run(['man', '--warnings', '-l', manpage], capture_output=True, text=True, env=env)
    if res.returncode != 0 or res.stderr.strip():
        failures.append(f'{manpage}: man -l: status {res.returncode}, {res.stderr.strip()!r}')
    if 'NAME' not in res.stdout:
        failures.append(f'{manpage}: the rendered page has no NAME section')


def options_match(program, manpage, failures):
    help_text = subprocess.run([program, '--help'], capture_output=True, text=True, check=True).stdout
    in_help = set(re.findall(r'^\s+(--[a-z][a-z-]*)', help_text, re.M))
    with open(manpage) as f:
        section = f.read().split('.SH OPTIONS', 1)[1].split('.SH ', 1)[0]
    # roff escapes the dashes: .BI \-\-idle\-timeout " SECONDS"
    in_page = {m.replace('\\-', '-') for m in re.findall(r'^\.BI? ((?:\\-){2}[a-z\\-]+)', section, re.M)}
    if not in_help:
        failures.append(f'{program} --help lists no options')
    if in_help != in_page:
        failures.append(f'{manpage}: options in --help {sorted(in_help)}, in the page {sorted(in_page)}')


def main():
    args = sys.argv[1:]
    program = None
    if args[:1] == ['--options-of']:
        program, args = args[1], args[2:]
    failures = []
    for manpage in args:
        rendered(manpage, failures)
    if program:
        options_match(program, args[0], failures)
    for failure in failures:
        print(failure)
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
