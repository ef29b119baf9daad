# SPDX-License-Identifier: GPL-3.0-or-later
"""The guest's initramfs: static busybox, the few modules that reach the
host's root over virtio-9p and lay a writable overlay on it, and guest/init.
Everything else (drivers, udev, the stack) comes from the host's root."""

import os
import shutil
import subprocess
import tempfile

# What the initramfs loads, in this order, with kmod's dependencies: the
# virtio PCI transport, 9p over it, overlayfs, and the console port the
# lab's control channel uses.
MODULES = ['virtio_pci', '9pnet_virtio', '9p', 'overlay', 'virtio_console']
BUSYBOX = '/bin/busybox'   # busybox-static: the initramfs has no libc
HERE = os.path.dirname(os.path.abspath(__file__))


def build_initramfs(kernel, out_path):
    """Writes an uncompressed newc cpio archive to out_path (the kernel reads
    it as is; compressing it would cost more time than loading it)."""
    if not os.path.exists(BUSYBOX):
        raise RuntimeError(f'{BUSYBOX} is missing: install busybox-static')
    with tempfile.TemporaryDirectory(prefix='diskbench-lab-initramfs-') as tree:
        for d in ['bin', 'dev', 'proc', 'sys', 'lower', 'upper', 'newroot', 'modules']:
            os.mkdir(os.path.join(tree, d))
        shutil.copy(BUSYBOX, os.path.join(tree, 'bin', 'busybox'))
        os.symlink('busybox', os.path.join(tree, 'bin', 'sh'))
        order = []
        for path in kernel.module_paths(*MODULES):
            name = os.path.basename(path)
            shutil.copy(path, os.path.join(tree, 'modules', name))
            order.append(name)
        with open(os.path.join(tree, 'modules', 'order'), 'w') as f:
            f.write('\n'.join(order) + '\n')
        shutil.copy(os.path.join(HERE, 'guest', 'init'), os.path.join(tree, 'init'))
        os.chmod(os.path.join(tree, 'init'), 0o755)
        files = subprocess.run(['find', '.', '-print0'], cwd=tree, check=True,
                               stdout=subprocess.PIPE).stdout
        with open(out_path, 'wb') as out:
            subprocess.run(['cpio', '--null', '--create', '--format=newc', '--quiet',
                            '--owner=0:0'], cwd=tree, input=files, stdout=out, check=True)
    return out_path
