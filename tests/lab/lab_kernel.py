# SPDX-License-Identifier: GPL-3.0-or-later
"""Debian 12's own kernel for the lab guest, fetched and unpacked, never
installed: installing linux-image on the host would run its initramfs and
bootloader hooks on a machine that is not ours to change."""

import glob
import os
import re
import shutil
import subprocess

from lab_log import log

CACHE = os.environ.get('DISKBENCH_LAB_CACHE', '/var/cache/diskbench-lab')
PACKAGE_PATTERN = r'^linux-image-6\.1\.0-([0-9]+)-amd64$'


class Kernel:
    """An unpacked kernel: its image, its modules folder and its version."""

    def __init__(self, root, version):
        self.root = root
        self.version = version
        self.image = os.path.join(root, 'boot', f'vmlinuz-{version}')
        self.modules = os.path.join(root, 'lib', 'modules', version)

    def module_paths(self, *names):
        """Every .ko file needed to load names, dependencies first (kmod's
        own resolution over the unpacked tree's modules.dep)."""
        paths = []
        for name in names:
            out = subprocess.run(['modprobe', '-d', self.root, '-S', self.version,
                                  '--show-depends', name], check=True, text=True,
                                 stdout=subprocess.PIPE).stdout
            for line in out.splitlines():
                words = line.split()
                if words[:1] == ['insmod'] and words[1] not in paths:
                    paths.append(words[1])
        return paths


def _newest_package():
    out = subprocess.run(['apt-cache', 'search', '--names-only', PACKAGE_PATTERN],
                         check=True, text=True, stdout=subprocess.PIPE).stdout
    names = [line.split()[0] for line in out.splitlines() if line.strip()]
    if not names:
        raise RuntimeError('apt knows no linux-image-6.1.0-N-amd64 package: run apt-get update '
                           '(Debian 12 main must be in the sources)')
    return max(names, key=lambda n: int(re.match(PACKAGE_PATTERN, n).group(1)))


def fetch_kernel():
    """The newest Debian 12 kernel apt knows, unpacked under CACHE (kept
    between runs; a newer package replaces the older one)."""
    package = _newest_package()
    version = package[len('linux-image-'):]
    root = os.path.join(CACHE, version)
    kernel = Kernel(root, version)
    if os.path.exists(os.path.join(kernel.modules, 'modules.dep')) and os.path.exists(kernel.image):
        return kernel
    os.makedirs(CACHE, exist_ok=True)
    download = os.path.join(CACHE, 'download')
    shutil.rmtree(download, ignore_errors=True)
    os.makedirs(download)
    log(f'fetching {package} with apt-get download')
    # _apt cannot write into a root-owned 0755 folder; the download then runs
    # unsandboxed, which apt says in a warning and which is what we want here.
    subprocess.run(['apt-get', 'download', '-q', package], cwd=download, check=True)
    debs = glob.glob(os.path.join(download, '*.deb'))
    partial = root + '.partial'
    shutil.rmtree(partial, ignore_errors=True)
    subprocess.run(['dpkg-deb', '-x', debs[0], partial], check=True)
    # The package ships no modules.dep (its postinst makes it).
    subprocess.run(['depmod', '-b', partial, version], check=True)
    shutil.rmtree(root, ignore_errors=True)
    os.rename(partial, root)
    shutil.rmtree(download, ignore_errors=True)
    for old in glob.glob(os.path.join(CACHE, '6.1.0-*-amd64')):
        if old != root:
            shutil.rmtree(old, ignore_errors=True)
    return kernel
