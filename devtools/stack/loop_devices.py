# SPDX-License-Identifier: GPL-3.0-or-later
"""Loop devices over files of random data, and filesystems mounted on them,
each recorded in the Stack's undo log as it is made. A part of the Stack
(stack.py), which provides `tmp`, `undo`, `loops`, `udisks` and `busctl()`."""

import hashlib
import json
import os
import re
import tempfile

from bus_names import DEVICES_PATH, UDISKS_NAME
from cleanup import PHASE_CLIENTS, PHASE_LOOPS, loop_devices, run, wait_until


def sha256_of(path):
    """The SHA-256 of a file's contents (a loop device's backing file: was
    it written?), read in 4 MiB pieces."""
    digest = hashlib.sha256()
    with open(path, 'rb') as f:
        for chunk in iter(lambda: f.read(4 * 1024 * 1024), b''):
            digest.update(chunk)
    return digest.hexdigest()


class StallingDisk:
    """A loop device over a FUSE file whose I/O stops being answered while
    stalled (see tests/integration/stalling-fuse): a disk that hangs."""

    def __init__(self, loop, flag, flag_entry, undo):
        self.loop = loop
        self.flag = flag
        self._flag_entry = flag_entry
        self._undo = undo

    def stall(self):
        with open(self.flag, 'w'):
            pass
        # In the undo log's first phase: whatever fails, the disk answers
        # again before anything is detached or stopped.
        self._flag_entry = self._undo.add(PHASE_CLIENTS, kind='file', path=self.flag)

    def resume(self):
        os.unlink(self.flag)
        self._undo.remove(self._flag_entry)

    def slow_down(self, delay_ms):
        """Every read and write waits DELAY_MS first (0: full speed again): a
        drive that got slow."""
        self.plant_faults([f'delay-ms {int(delay_ms)}'])

    def plant_faults(self, lines):
        """The faults of the disk from now on, one per line as the helper
        reads them (tests/integration/stalling-fuse/stalling_fuse.cpp:
        "eio START LENGTH", "slow START LENGTH MS", "slow-once ...",
        "wrap BYTES", "drop BYTES", "delay-ms N", "slow-after BYTES MS"); no lines: a healthy disk again.
        Written whole and renamed into place, since the helper reads the
        file again as soon as it changes."""
        control = self.flag + '.control'
        with open(control + '.new', 'w') as f:
            f.write(''.join(f'{line}\n' for line in lines))
        os.rename(control + '.new', control)
        if not getattr(self, '_control_entry', None):
            # A healthy disk again before anything is detached: udev's
            # probe of a removed loop device reads it.
            self._control_entry = self._undo.add(PHASE_CLIENTS, kind='file', path=control)



class StallingFolder(StallingDisk):
    """A FUSE folder whose removals (unlink, rmdir) wait while stalled, all
    else answered (tests/integration/stalling-fuse/stalling_tree_fuse.cpp)."""

    def __init__(self, mountpoint, flag, undo):
        super().__init__(None, flag, None, undo)
        self.mountpoint = mountpoint


class LoopDevice:
    def __init__(self, node, backing, entry):
        self.node = node                    # /dev/loopN
        self.name = os.path.basename(node)  # loopN
        self.backing = backing
        self.entry = entry

    @property
    def object_path(self):
        return f'{DEVICES_PATH}/{self.name}'

    @property
    def udisks_path(self):
        return f'/org/freedesktop/UDisks2/block_devices/{self.name}'

    @property
    def size(self):
        return os.path.getsize(self.backing)

    def __repr__(self):
        return f'<LoopDevice {self.node} over {self.backing}>'


class LoopDevices:
    def attach_loop(self, size=64 * 1024 * 1024, sector_size=None, wait_udisks=None):
        """Attaches a loop device over a new file of random data."""
        if wait_udisks is None:
            wait_udisks = self.udisks == 'real'
        fd, backing = tempfile.mkstemp(prefix='disk-', suffix='.img', dir=self.tmp)
        with os.fdopen(fd, 'wb') as f:
            # Random data, no holes: holes in sparse files hide alignment bugs.
            left = size
            while left:
                chunk = min(left, 4 * 1024 * 1024)
                f.write(os.urandom(chunk))
                left -= chunk
            f.flush()
            os.fsync(f.fileno())
        argv = ['losetup', '--find', '--show', '--direct-io=on']
        if sector_size:
            argv += ['--sector-size', str(sector_size)]
        res = run(argv + [backing])
        node = res.stdout.strip()
        if not re.fullmatch(r'/dev/loop\d+', node):
            raise RuntimeError(f'losetup gave {node!r}')
        entry = self.undo.add(PHASE_LOOPS, kind='loop', dev=node, backing=backing)
        loop = LoopDevice(node, backing, entry)
        self.loops.append(loop)
        if self.udisks == 'real':
            run(['udevadm', 'trigger', '--action=change', f'/sys/class/block/{loop.name}'],
                check=False)
            run(['udevadm', 'settle', '--timeout=30'], check=False, timeout=40)
        if wait_udisks:
            wait_until(lambda: self._udisks_size(loop) == size, 20,
                       what=f'udisks to show {node}')
        return loop

    def attach_stalling_disk(self, size=64 * 1024 * 1024):
        """A loop device whose I/O can be made to hang: see StallingDisk.
        Needs DISKBENCH_STALLING_FUSE, the test helper meson builds."""
        helper = os.environ.get('DISKBENCH_STALLING_FUSE')
        if not helper or not os.access(helper, os.X_OK):
            raise RuntimeError('DISKBENCH_STALLING_FUSE must name the stalling-fuse test helper '
                               '(meson sets it for the integration tests)')
        fd, backing = tempfile.mkstemp(prefix='stalling-', suffix='.img', dir=self.tmp)
        with os.fdopen(fd, 'wb') as f:
            f.write(os.urandom(size))
        mountpoint = tempfile.mkdtemp(prefix='fuse-', dir=self.tmp)
        flag = os.path.join(self.tmp, os.path.basename(mountpoint) + '.stalled')
        # Undone in reverse: the loop device first, then the mount, and the
        # server (a service) after them; killing the server fails whatever
        # still waits on it, so nothing can stay stuck.
        self.undo.add(PHASE_LOOPS, kind='mount', path=mountpoint, dev='fuse')
        server = self._spawn(f'stalling-fuse-{os.path.basename(mountpoint)}',
                             [helper, backing, flag, mountpoint])
        wait_until(lambda: os.path.exists(os.path.join(mountpoint, 'disk.img')), 10,
                   what='the stalling FUSE file to appear')
        image = os.path.join(mountpoint, 'disk.img')
        node = run(['losetup', '--find', '--show', '--direct-io=on', image]).stdout.strip()
        if not re.fullmatch(r'/dev/loop\d+', node):
            raise RuntimeError(f'losetup gave {node!r}')
        entry = self.undo.add(PHASE_LOOPS, kind='loop', dev=node, backing=image)
        loop = LoopDevice(node, image, entry)
        loop.server = server
        if self.udisks == 'real':
            run(['udevadm', 'trigger', '--action=change', f'/sys/class/block/{loop.name}'],
                check=False)
            run(['udevadm', 'settle', '--timeout=30'], check=False, timeout=40)
            wait_until(lambda: self._udisks_size(loop) == size, 20,
                       what=f'udisks to show {node}')
        return StallingDisk(loop, flag, None, self.undo)

    def mount_stalling_folder(self):
        """A FUSE folder whose removals can be made to hang: see StallingFolder.
        Needs DISKBENCH_STALLING_TREE_FUSE, the test helper meson builds."""
        helper = os.environ.get('DISKBENCH_STALLING_TREE_FUSE')
        if not helper or not os.access(helper, os.X_OK):
            raise RuntimeError('DISKBENCH_STALLING_TREE_FUSE must name the stalling-tree-fuse test helper '
                               '(meson sets it for the integration tests)')
        backing = tempfile.mkdtemp(prefix='stalling-tree-', dir=self.tmp)
        os.chmod(backing, 0o755)  # the FUSE root shows its mode: test users must get in
        mountpoint = tempfile.mkdtemp(prefix='fuse-tree-', dir=self.tmp)
        flag = os.path.join(self.tmp, os.path.basename(mountpoint) + '.stalled')
        # Undone in reverse: the mount first, the server (a service) after it;
        # killing the server fails whatever still waits on it.
        self.undo.add(PHASE_LOOPS, kind='mount', path=mountpoint, dev='fuse')
        self._spawn(f'stalling-tree-fuse-{os.path.basename(mountpoint)}', [helper, backing, flag, mountpoint])
        wait_until(lambda: os.path.ismount(mountpoint), 10, what='the stalling FUSE folder to be mounted')
        return StallingFolder(mountpoint, flag, self.undo)

    def detach_loop(self, loop):
        run(['losetup', '-d', loop.node])
        wait_until(lambda: loop_devices().get(loop.node) != loop.backing, 10,
                   what=f'{loop.node} to detach')
        self.undo.remove(loop.entry)
        self.loops.remove(loop)
        os.unlink(loop.backing)
        if self.udisks == 'real':
            run(['udevadm', 'settle', '--timeout=30'], check=False, timeout=40)

    def mount_new_filesystem(self, loop):
        """Makes an ext4 filesystem on our loop device and mounts it; returns the mount point."""
        run(['mkfs.ext4', '-q', '-F', loop.node])
        mountpoint = tempfile.mkdtemp(prefix='mnt-', dir=self.tmp)
        entry = self.undo.add(PHASE_CLIENTS, kind='mount', path=mountpoint, dev=loop.node)
        run(['mount', loop.node, mountpoint])
        return mountpoint, entry

    def mount_read_only(self, node, mountpoint=None):
        """Mounts NODE's ext4 read-only and without replaying its journal, so
        it writes nothing while mounted; returns what umount() takes."""
        mountpoint = mountpoint or tempfile.mkdtemp(prefix='mnt-', dir=self.tmp)
        os.makedirs(mountpoint, exist_ok=True)
        entry = self.undo.add(PHASE_CLIENTS, kind='mount', path=mountpoint, dev=node)
        run(['mount', '-o', 'ro,noload', node, mountpoint])
        return mountpoint, entry

    def mount_tmpfs(self, mountpoint, size, owner, inodes=None):
        """A tmpfs of SIZE (mount's size= syntax) and at most INODES files
        and folders (its root included) at MOUNTPOINT, owned by user OWNER;
        returns what umount() takes."""
        os.makedirs(mountpoint, exist_ok=True)
        entry = self.undo.add(PHASE_CLIENTS, kind='mount', path=mountpoint, dev='tmpfs')
        limit = f',nr_inodes={inodes}' if inodes else ''
        run(['mount', '-t', 'tmpfs', '-o', f'size={size},mode=0700{limit}', 'tmpfs', mountpoint])
        run(['chown', f'{owner}:', mountpoint])
        return mountpoint, entry

    def umount(self, mountpoint_and_entry):
        mountpoint, entry = mountpoint_and_entry
        run(['umount', mountpoint])
        self.undo.remove(entry)
        os.rmdir(mountpoint)

    def _udisks_size(self, loop):
        res = self.busctl('--json=short', 'get-property', UDISKS_NAME, loop.udisks_path,
                          'org.freedesktop.UDisks2.Block', 'Size', check=False)
        if res.returncode != 0:
            return None
        return json.loads(res.stdout)['data']
