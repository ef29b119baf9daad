#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""diskbenchctl's man page and bash completion, as installed:
  * `man -l` renders the page without a groff warning;
  * its EXIT STATUS lists exactly the statuses of client-cli/exit_codes.hpp,
    and every command of the usage is described;
  * the completion file is valid bash and registers itself for diskbenchctl.

usage: check_cli_docs.py MANPAGE EXIT_CODES_HPP COMPLETION
"""

import os
import re
import subprocess
import sys


def main():
    manpage, header, completion = sys.argv[1:4]
    failures = []

    env = dict(os.environ, MANWIDTH='80', LC_ALL='C.UTF-8')
    res = subprocess.run(['man', '--warnings', '-l', manpage], capture_output=True, text=True, env=env)
    if res.returncode != 0 or res.stderr.strip():
        failures.append(f'man -l: status {res.returncode}, {res.stderr.strip()!r}')
    text = res.stdout
    if 'EXIT STATUS' not in text:
        failures.append('the rendered page has no EXIT STATUS section')

    with open(header) as f:
        codes = {int(n) for n in re.findall(r'^\s*exit_\w+ = (\d+),', f.read(), re.M)}
    with open(manpage) as f:
        source = f.read()
    section = source.split('.SH EXIT STATUS', 1)[1].split('.SH ', 1)[0]
    documented = {int(n) for n in re.findall(r'^\.B (\d+)$', section, re.M)}
    if not codes:
        failures.append(f'no exit codes found in {header}')
    if codes != documented:
        failures.append(f'exit statuses: code has {sorted(codes)}, man page {sorted(documented)}')
    for command in ('devices', 'info', 'benchmarks', 'run', 'jobs', 'watch', 'cancel', 'history', 'show', 'compare',
                    'export', 'scheduled'):
        if not re.search(rf'^\.(B|BR|BI) {command}\b', source, re.M):
            failures.append(f'the man page does not describe {command}')

    res = subprocess.run(['bash', '-n', completion], capture_output=True, text=True)
    if res.returncode != 0:
        failures.append(f'bash -n {completion}: {res.stderr.strip()}')
    res = subprocess.run(['bash', '-c', f'_init_completion() {{ :; }}; source {completion} && complete -p diskbenchctl'],
                         capture_output=True, text=True)
    if res.returncode != 0 or '_diskbenchctl' not in res.stdout:
        failures.append(f'the completion does not register: {res.stdout} {res.stderr}')

    for failure in failures:
        print('FAIL:', failure)
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
