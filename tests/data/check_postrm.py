#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""debian/diskbenchctl.postrm purge, run by sh on a root of its own
($DPKG_ROOT, as dpkg --root gives it), removes the published metrics file
only from the real textfile directory:
  * Debian's layout (/var/lib/prometheus of another user, node-exporter/
    root's): the file and /var/lib/diskbench are removed;
  * node-exporter/ or /var/lib/prometheus a symbolic link to another
    directory (a stand-in for /etc/logrotate.d), node-exporter/ of another
    user, diskbench.prom a link: nothing is removed there;
  * no textfile directory at all: the purge still succeeds;
  * postrm remove removes nothing.
Every run exits with 0. Needs root (files of root and of another user).

usage: check_postrm.py POSTRM
"""

import os
import subprocess
import sys
import tempfile

STRANGER = 65534  # nobody: Debian's prometheus user here


def main():
    postrm = sys.argv[1]
    if os.geteuid() != 0:
        print('FAIL: needs root (meson test --suite data as root)')
        return 1
    failures = []

    def case(name, build, action='purge', removed=(), kept=()):
        with tempfile.TemporaryDirectory(prefix='diskbench-postrm-', dir='/var/tmp') as tmp:
            root = os.path.realpath(os.path.join(tmp, 'root'))
            os.makedirs(os.path.join(root, 'var/lib/diskbench/results'))
            os.makedirs(os.path.join(root, 'var/lib/prometheus'), mode=0o755)
            os.chown(os.path.join(root, 'var/lib/prometheus'), STRANGER, STRANGER)
            os.makedirs(os.path.join(root, 'etc/logrotate.d'))
            build(root)
            res = subprocess.run(['sh', postrm, action], env=dict(os.environ, DPKG_ROOT=root),
                                 capture_output=True, text=True, timeout=30)
            if res.returncode != 0:
                failures.append(f'{name}: postrm {action} exited with {res.returncode}: {res.stderr}')
            for path in removed:
                if os.path.lexists(os.path.join(root, path)):
                    failures.append(f'{name}: {path} was not removed')
            for path in kept:
                if not os.path.lexists(os.path.join(root, path)):
                    failures.append(f'{name}: {path} was removed')
        print(f'{name}: checked')

    def prom(path):
        with open(path, 'w') as f:
            f.write('# EOF\n')

    def debian(root):
        textfile = os.path.join(root, 'var/lib/prometheus/node-exporter')
        os.mkdir(textfile)
        os.chmod(textfile, 0o755)
        prom(os.path.join(textfile, 'diskbench.prom'))
        prom(os.path.join(textfile, 'other.prom'))

    case('Debian layout', debian,
         removed=['var/lib/prometheus/node-exporter/diskbench.prom', 'var/lib/diskbench'],
         kept=['var/lib/prometheus/node-exporter/other.prom'])
    case('remove, not purge', debian, action='remove',
         kept=['var/lib/prometheus/node-exporter/diskbench.prom', 'var/lib/diskbench'])

    def linked_textfile(root):
        prom(os.path.join(root, 'etc/logrotate.d/diskbench.prom'))
        os.symlink(os.path.join(root, 'etc/logrotate.d'), os.path.join(root, 'var/lib/prometheus/node-exporter'))
    case('node-exporter a link', linked_textfile, kept=['etc/logrotate.d/diskbench.prom'])

    def linked_prometheus(root):
        os.rename(os.path.join(root, 'var/lib/prometheus'), os.path.join(root, 'var/lib/prometheus.real'))
        os.makedirs(os.path.join(root, 'etc/logrotate.d/node-exporter'))
        prom(os.path.join(root, 'etc/logrotate.d/node-exporter/diskbench.prom'))
        os.symlink(os.path.join(root, 'etc/logrotate.d'), os.path.join(root, 'var/lib/prometheus'))
    case('/var/lib/prometheus a link', linked_prometheus, kept=['etc/logrotate.d/node-exporter/diskbench.prom'])

    def strangers_textfile(root):
        textfile = os.path.join(root, 'var/lib/prometheus/node-exporter')
        os.mkdir(textfile)
        prom(os.path.join(textfile, 'diskbench.prom'))
        os.chown(textfile, STRANGER, STRANGER)
    case('node-exporter of another user', strangers_textfile,
         kept=['var/lib/prometheus/node-exporter/diskbench.prom'])

    def linked_file(root):
        textfile = os.path.join(root, 'var/lib/prometheus/node-exporter')
        os.mkdir(textfile)
        prom(os.path.join(root, 'etc/logrotate.d/diskbench'))
        os.symlink(os.path.join(root, 'etc/logrotate.d/diskbench'), os.path.join(textfile, 'diskbench.prom'))
    case('diskbench.prom a link', linked_file,
         kept=['var/lib/prometheus/node-exporter/diskbench.prom', 'etc/logrotate.d/diskbench'])

    case('no textfile directory', lambda root: None, removed=['var/lib/diskbench'])

    for failure in failures:
        print(f'FAIL: {failure}')
    if not failures:
        print('OK: postrm purge removes the metrics file from the real textfile directory only')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
