#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Filesystem benchmarks through the real daemon: a folder fd passed over the
bus (by bus_client.py and by busctl), files made as the caller, named errors
for a folder the caller may not write, a full filesystem (before and during
a run) and an I/O error mid-run, and attacks: planted symlinks, the folder
and the scratch folder swapped for symlinks mid-run, and the daemon killed
mid-run. Real ext4 on our own loop devices."""

import fcntl
import grp
import hashlib
import os
import pwd
import re
import shutil
import signal
import struct
import tempfile

import harness
from cleanup import PHASE_CLIENTS
from harness import JOB_IFACE, MANAGER_IFACE, MANAGER_PATH, run, wait_until

SCRATCH_PREFIX = '.diskbench-scratch-'
# What the daemon writes into its scratch folders' marker (scratch_directory.hpp).
SCRATCH_MARKER_TEXT = ('diskbench scratch directory: diskbench removes it (and any it finds left over by a '
                       'crash).\n')
MiB = 1024 * 1024
QUICK_RW = {'size': ('t', 8 * MiB), 'block_size': ('u', MiB)}
# One quick run of every filesystem kind.
SMALL_RUNS = {
    'file-rw': QUICK_RW,
    'write-sweep': {'amount_per_size': ('t', 2 * MiB), 'min_block': ('u', MiB),
                    'max_block': ('u', 2 * MiB), 'repetitions': ('t', 9)},
    'mixed-load': {'threads': ('t', 2), 'file_size': ('t', 8 * MiB)},
    'structure': {'directories': ('t', 100), 'files': ('t', 100)},
    'small-files': {'directories': ('t', 100), 'files': ('t', 100)},
    'file-profile': {'file_size': ('t', 16 * MiB), 'tests': ('s', 'SEQ1M Q1T1'), 'mix': ('s', ''),
                     'duration_s': ('d', 0.1), 'warmup_s': ('d', 0.0), 'interval_s': ('d', 0.0)},
    'file-qd-sweep': {'file_size': ('t', 16 * MiB), 'max_queue_depth': ('t', 2), 'max_threads': ('t', 2),
                      'writes': ('b', True), 'duration_s': ('d', 0.05), 'warmup_s': ('d', 0.0)},
}
# Long enough to be caught mid-run (many small synced writes); the tests end
# it by closing the client, which cancels the job.
LONG_RW = {'size': ('t', 48 * MiB), 'block_size': ('u', 4096)}


# ioctl EXT4_IOC_SHUTDOWN, _IOR('X', 125, __u32), with
# EXT4_GOING_FLAGS_LOGFLUSH: the journal is committed (so the folders made
# so far survive a remount), then every read and write on the filesystem
# fails with EIO, as on a disk that died (no dm or fault injection on these
# kernels).
EXT4_IOC_SHUTDOWN = 0x8004587D
EXT4_GOING_FLAGS_LOGFLUSH = 1


def shut_down_filesystem(mountpoint):
    fd = os.open(mountpoint, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.ioctl(fd, EXT4_IOC_SHUTDOWN, struct.pack('I', EXT4_GOING_FLAGS_LOGFLUSH))
    finally:
        os.close(fd)


def fill_as_root(mountpoint):
    """Root takes every block the filesystem has left, its reserve too (a
    file "filler" written until ENOSPC): less than 64 KiB stays free."""
    with open(os.path.join(mountpoint, 'filler'), 'wb') as f:
        chunk = b'f' * (64 * 1024)
        try:
            while True:
                f.write(chunk)
                f.flush()
        except OSError:
            pass


def file_atimes(path):
    """The access time of every file below `path` (lstat only: reads no file)."""
    times = {}
    for root, _, files in os.walk(path, followlinks=False):
        for name in files:
            full = os.path.join(root, name)
            times[full] = os.lstat(full).st_atime_ns
    return times


def make_reads_visible(path):
    """Sets every file's atime before its mtime: then even relatime notes
    the next read of it (it updates an atime older than the mtime)."""
    for full in file_atimes(path):
        st = os.lstat(full)
        os.utime(full, ns=(st.st_mtime_ns - 10**12, st.st_mtime_ns), follow_symlinks=False)


def tree_digest(path):
    """Every name, type, owner, mode and file content below `path`, hashed."""
    digest = hashlib.sha256()
    for root, dirs, files in os.walk(path, followlinks=False):
        dirs.sort()
        for name in sorted(dirs + files):
            full = os.path.join(root, name)
            st = os.lstat(full)
            digest.update(f'{os.path.relpath(full, path)} {st.st_mode} {st.st_uid} {st.st_gid}\n'
                          .encode())
            if os.path.isfile(full) and not os.path.islink(full):
                with open(full, 'rb') as f:
                    digest.update(f.read())
    return digest.hexdigest()


class FilesystemTest(harness.IntegrationTestCase):

    @classmethod
    def prepare(cls):
        cls.loop = cls.stack.attach_loop(size=160 * MiB)
        cls.mount = cls.stack.mount_new_filesystem(cls.loop)
        cls.root = cls.mount[0]
        cls.user = pwd.getpwnam('dbtest-in')
        # What an attack would reach for: folders outside the benchmark
        # folder, on the same filesystem (so no mount point stops a path
        # walk by accident) and on another one. The caller owns them, so
        # the kernel would let a run that followed a symlink there create,
        # change, read and delete: only the daemon's own rules keep it out.
        # The first holds a scratch marker too, so a cleanup that took it
        # for a crashed run's scratch folder would empty it.
        cls.outside = [os.path.join(cls.root, 'outside'), tempfile.mkdtemp(dir=cls.stack.tmp)]
        for path in cls.outside:
            os.makedirs(path, exist_ok=True)
            with open(os.path.join(path, 'precious'), 'wb') as f:
                f.write(os.urandom(64 * 1024))
        with open(os.path.join(cls.outside[0], 'diskbench-scratch-marker'), 'w') as f:
            f.write(SCRATCH_MARKER_TEXT)
        for path in cls.outside:
            for root, dirs, files in os.walk(path):
                for name in [root] + [os.path.join(root, n) for n in dirs + files]:
                    os.chown(name, cls.user.pw_uid, cls.user.pw_gid)
            os.chmod(path, 0o755)
        cls.outside_digests = [tree_digest(p) for p in cls.outside]
        # The read witness works on both filesystems (relatime, not noatime).
        for path in cls.outside:
            make_reads_visible(path)
            before = file_atimes(path)
            with open(os.path.join(path, 'precious'), 'rb') as f:
                f.read(1)
            if file_atimes(path) == before:
                raise AssertionError(f'reading {path}/precious left its atime alone: reads would go unseen')
        cls.counter = 0

    def setUp(self):
        for path in self.outside:
            make_reads_visible(path)
        self.outside_atimes = [file_atimes(p) for p in self.outside]

    def tearDown(self):
        for path, atimes in zip(self.outside, self.outside_atimes):
            self.assertEqual(file_atimes(path), atimes, f'a file in {path} was read')
        for path, digest in zip(self.outside, self.outside_digests):
            self.assertEqual(tree_digest(path), digest, f'{path} was changed')

    def folder(self, owner='dbtest-in', group=None, mode=0o700):
        """A new folder on the loop filesystem owned by `owner`."""
        FilesystemTest.counter += 1
        path = os.path.join(self.root, f'f{self.counter}')
        os.mkdir(path)
        uid = pwd.getpwnam(owner).pw_uid
        gid = grp.getgrnam(group).gr_gid if group else pwd.getpwnam(owner).pw_gid
        os.chown(path, uid, gid)
        os.chmod(path, mode)
        return path

    def scratch_entries(self, path):
        return [n for n in os.listdir(path) if n.startswith(SCRATCH_PREFIX)]

    def free_bytes(self):
        st = os.statvfs(self.root)
        return st.f_bavail * st.f_frsize

    def small_filesystem(self, size):
        """A fresh ext4 of `size` bytes with a folder `home` of the caller's;
        unmounted and detached by the returned undo."""
        loop = self.stack.attach_loop(size=size)
        mount = self.stack.mount_new_filesystem(loop)
        folder = os.path.join(mount[0], 'home')
        os.mkdir(folder)
        os.chown(folder, self.user.pw_uid, self.user.pw_gid)

        def undo():
            if os.path.ismount(mount[0]):
                self.stack.umount(mount)
            self.stack.detach_loop(loop)
        return loop, mount, folder, undo

    # ---- runs ---------------------------------------------------------

    def test_file_rw_runs_as_the_caller(self):
        folder = self.folder()
        with self.stack.client(start_fs=(folder, 'file-rw', QUICK_RW)) as c:
            self.assertIsNone(c.error)
            done = c.wait_completed(120)
            self.assertEqual(done['completed'], 'finished', done)
            props = self.job_props(c.job)
        self.assertEqual(props['Kind'], 'file-rw')
        self.assertEqual(props['Owner'], self.user.pw_uid)
        # The folder's filesystem lives on our loop device: the job says so
        # and the device's facts come with it.
        self.assertEqual(props['Device'], self.loop.object_path)
        # The folder is its owner's business: not in the public property.
        self.assertEqual(props['Target'], '')
        self.assertEqual(self.stack.call(c.job, JOB_IFACE, 'GetTarget', user='dbtest-in'), [folder])
        self.assertEqual(props['DeviceInfo']['node'], self.loop.node)
        self.assertIn('ext4', props['DeviceInfo']['filesystem_type'])
        self.assertGreater(props['DeviceInfo']['filesystem_free'], 100 * MiB)
        summary = props['Summary']
        self.assertEqual(summary['bytes'], 8 * MiB)
        self.assertGreater(summary['write_mb_s'], 0)
        self.assertGreater(summary['read_mb_s'], 0)
        self.assertEqual([s[0] for s in props['Series']], ['write', 'read'])
        self.assertEqual(os.listdir(folder), [])

    def test_every_folder_kind_runs_through_the_daemon(self):
        # Small sizes: the engine's tests check the figures; this checks
        # each kind is offered, runs as the caller and leaves nothing.
        kinds = self.stack.call(MANAGER_PATH, MANAGER_IFACE, 'ListBenchmarks')[0]
        listed = {k[0] for k in kinds if k[1] == 'directory'}
        self.assertEqual(listed, set(SMALL_RUNS))
        for kind, options in SMALL_RUNS.items():
            with self.subTest(kind=kind):
                folder = self.folder()
                with self.stack.client(start_fs=(folder, kind, options)) as c:
                    self.assertIsNone(c.error)
                    done = c.wait_completed(180)
                    self.assertEqual(done['completed'], 'finished', done)
                    props = self.job_props(c.job)
                self.assertTrue(props['Series'], kind)
                self.assertGreater(props['SampleCount'], 0, kind)
                self.assertEqual(os.listdir(folder), [])

    def test_scratch_belongs_to_the_caller_and_goes_with_the_job(self):
        folder = self.folder()
        with self.stack.client(start_fs=(folder, 'file-rw', LONG_RW)) as c:
            self.assertIsNone(c.error)
            c.wait_for(lambda line: 'samples' in line, 60, 'the first samples')
            [scratch] = self.scratch_entries(folder)
            st = os.lstat(os.path.join(folder, scratch))
            # Made by a thread acting as the caller: the caller's uid and
            # primary group, not root's.
            self.assertEqual((st.st_uid, st.st_gid), (self.user.pw_uid, self.user.pw_gid))
            job = c.job
        # Closing the client cancelled the job; the scratch folder went
        # before the job said it ended.
        self.assertEqual(self.wait_job_state(job), 'cancelled')
        self.assertEqual(os.listdir(folder), [])

    def test_a_group_folder_works_through_the_callers_groups(self):
        # Writable only through the supplementary group benchtest, which the
        # daemon learns from the bus (GetConnectionCredentials).
        folder = self.folder(owner='root', group='benchtest', mode=0o770)
        with self.stack.client(start_fs=(folder, 'write-sweep',
                                         {'amount_per_size': ('t', 2 * MiB),
                                          'min_block': ('u', MiB), 'max_block': ('u', 2 * MiB),
                                          'repetitions': ('t', 9)})) as c:
            self.assertIsNone(c.error)
            done = c.wait_completed(120)
            self.assertEqual(done['completed'], 'finished', done)
        self.assertEqual(os.listdir(folder), [])

    def test_gdbus_alone_can_run_it(self):
        # The README recipe: the shell opens the folder as fd 3 and gdbus
        # sends it ("handle 3"). busctl of systemd 252 cannot send fds.
        folder = self.folder()
        script = ('exec 3<"$1"; exec gdbus call --system --dest org.diskbench.DiskBench1 '
                  '--object-path /org/diskbench/DiskBench1 '
                  '--method org.diskbench.DiskBench1.Manager.StartFilesystemBenchmark '
                  '"handle 3" file-rw '
                  '"{\'size\': <uint64 4194304>, \'block_size\': <uint32 1048576>, '
                  '\'detach\': <true>}"')
        res = run(self.stack.as_user('dbtest-in', ['bash', '-c', script, 'gdbus-recipe', folder]),
                  check=False, env=dict(os.environ, **self.stack.bus_env()), timeout=70)
        self.assertEqual(res.returncode, 0, res.stderr)
        match = re.fullmatch(r"\(objectpath '(/org/diskbench/DiskBench1/jobs/\d+)',\)\s*",
                             res.stdout)
        self.assertIsNotNone(match, res.stdout)
        job = match.group(1)
        self.assertEqual(self.wait_job_state(job, timeout=60), 'finished')
        self.assertEqual(self.stack.call(job, JOB_IFACE, 'GetTarget', user='dbtest-in'), [folder])
        self.assertEqual(os.listdir(folder), [])

    # ---- refusals -----------------------------------------------------

    def test_a_folder_the_caller_may_not_write_is_permission_denied(self):
        folder = self.folder(owner='root', mode=0o755)
        with self.stack.client(start_fs=(folder, 'file-rw', QUICK_RW)) as c:
            self.assertDBusError(c.error, 'PermissionDenied')
            self.assertIn(folder, c.error.message)
        self.assertEqual(os.listdir(folder), [])

    def test_refusals_touch_nothing(self):
        theirs = self.folder(owner='dbtest-out')
        with self.stack.client(user='dbtest-out', start_fs=(theirs, 'file-rw', QUICK_RW)) as c:
            self.assertDBusError(c.error, 'NotAuthorized')
        self.assertEqual(os.listdir(theirs), [])
        folder = self.folder()
        with self.stack.client(start_fs=(folder, 'seek', {})) as c:
            self.assertDBusError(c.error, 'NotFound')
        with self.stack.client(start_fs=(folder, 'file-rw', {'size': ('s', 'big')})) as c:
            self.assertDBusError(c.error, 'InvalidArgument', 'size:')
        with self.stack.client(start_fs=(folder, 'file-rw', {'size': ('t', 1 << 45)})) as c:
            self.assertDBusError(c.error, 'InvalidArgument', 'size:')
        with self.stack.client(start_fs=('/proc', 'file-rw', QUICK_RW)) as c:
            self.assertDBusError(c.error, 'InvalidArgument', 'directory:')
        # A filesystem kind is not a device kind.
        with self.stack.client(start=(self.loop.object_path, 'file-rw', QUICK_RW)) as c:
            self.assertDBusError(c.error, 'NotFound')
        self.assertEqual(os.listdir(folder), [])

    def test_a_full_filesystem_is_no_space_and_leaves_nothing(self):
        _, mount, folder, undo = self.small_filesystem(24 * MiB)
        try:
            fill_as_root(mount[0])
            with self.stack.client(start_fs=(folder, 'file-rw', {})) as c:
                self.assertDBusError(c.error, 'NoSpace')
                self.assertIn('full', c.error.message)
            self.assertEqual(os.listdir(folder), [])
        finally:
            undo()

    # ---- attacks ------------------------------------------------------

    def test_planted_symlinks_are_not_followed(self):
        folder = self.folder()
        # One named like a crashed run's scratch folder (the cleanup looks
        # for those; the folder it leads to even has a marker), one plain.
        os.symlink(self.outside[0], os.path.join(folder, SCRATCH_PREFIX + '0-planted'))
        os.symlink(self.outside[1], os.path.join(folder, 'link'))
        with self.stack.client(start_fs=(folder, 'file-rw', QUICK_RW)) as c:
            self.assertIsNone(c.error)
            done = c.wait_completed(120)
            self.assertEqual(done['completed'], 'finished', done)
        # tearDown checks the outside folders are as they were.

    def test_folder_and_scratch_swapped_for_symlinks_mid_run(self):
        # file-rw holds its file open; small-files makes and opens names
        # below its scratch folder all the time, so the swap lands among
        # its lookups (5000 files: a second or two of writing).
        for kind, options in (('file-rw', LONG_RW),
                              ('small-files', {'directories': ('t', 2000), 'files': ('t', 5000)})):
            with self.subTest(kind=kind):
                self.swap_mid_run(kind, options)

    def swap_mid_run(self, kind, options):
        folder = self.folder()
        moved = folder + '.moved'
        with self.stack.client(start_fs=(folder, kind, options)) as c:
            self.assertIsNone(c.error)
            [scratch] = wait_until(lambda: self.scratch_entries(folder), 60, interval=0.005,
                                   what='the scratch folder')
            # The caller owns both, so it could do this itself.
            os.rename(os.path.join(folder, scratch), os.path.join(folder, 'scratch.moved'))
            os.symlink(self.outside[0], os.path.join(folder, scratch))
            os.rename(folder, moved)
            os.symlink(self.outside[1], folder)
            job = c.job
        # The daemon works through the fds it holds, so the run went on in
        # the moved folders and cleaned up there; the symlinks lead nowhere
        # it went (tearDown: nothing outside was created, read, changed or
        # deleted).
        self.assertIn(self.wait_job_state(job), ('cancelled', 'finished'))
        self.assertTrue(os.path.islink(folder))
        # The real scratch folder was emptied through the daemon's fd; its
        # new name is the caller's business. What stands at the old name
        # (the symlink) is not the daemon's: left alone, not followed.
        self.assertEqual(sorted(os.listdir(moved)), sorted([scratch, 'scratch.moved']))
        self.assertTrue(os.path.islink(os.path.join(moved, scratch)))
        self.assertEqual(os.listdir(os.path.join(moved, 'scratch.moved')), [])

    # ---- failures mid-run ----------------------------------------------

    def broken_mid_run(self, folder, break_it, error):
        """Runs file-rw in FOLDER, calls BREAK_IT() once it writes, and
        checks the job failed with ERROR; returns the error's text."""
        with self.stack.client(start_fs=(folder, 'file-rw', LONG_RW)) as c:
            self.assertIsNone(c.error)
            c.wait_for(lambda line: 'samples' in line, 60, 'the first samples')
            break_it()
            done = c.wait_completed(120)
        self.assertEqual(done['completed'], 'failed', done)
        self.assertTrue(done['error'].startswith(f'org.diskbench.DiskBench1.Error.{error}: '), done)
        return done['error']

    def test_a_filesystem_filling_up_mid_run_is_no_space_and_leaves_nothing(self):
        _, mount, folder, undo = self.small_filesystem(128 * MiB)
        try:
            # Most of it taken up front, so that filling the rest mid-run is
            # over long before the run could finish its 48 MiB.
            st = os.statvfs(mount[0])
            with open(os.path.join(mount[0], 'ballast'), 'wb') as f:
                os.posix_fallocate(f.fileno(), 0, st.f_bavail * st.f_frsize - 56 * MiB)
            free_before = os.statvfs(mount[0]).f_bavail
            self.assertIn('full', self.broken_mid_run(folder, lambda: fill_as_root(mount[0]), 'NoSpace'))
            # The scratch folder went with the job, and its file's blocks
            # with it: all that is taken is the filler's.
            self.assertEqual(os.listdir(folder), [])
            os.unlink(os.path.join(mount[0], 'filler'))
            self.assertGreaterEqual(os.statvfs(mount[0]).f_bavail, free_before - 16)
        finally:
            undo()

    def test_an_io_error_mid_run_fails_the_job_and_the_next_run_cleans_up(self):
        loop, mount, folder, _ = self.small_filesystem(96 * MiB)
        try:
            error = self.broken_mid_run(folder, lambda: shut_down_filesystem(mount[0]), 'Failed')
            self.assertIn('Input/output error', error)
            # The daemon lives on and answers.
            self.assertTrue(self.stack.call(MANAGER_PATH, MANAGER_IFACE, 'ListBenchmarks')[0])
            # A dead filesystem could not be cleaned; mounted again, it holds
            # no data of the run (the file had no name: the journal's orphan
            # list frees it), only the marked scratch folder, which the next
            # run removes.
            self.stack.umount(mount)
            os.mkdir(mount[0])
            run(['mount', loop.node, mount[0]])
            mount = (mount[0], self.stack.undo.add(PHASE_CLIENTS, kind='mount', path=mount[0],
                                                   dev=loop.node))
            [left] = self.scratch_entries(folder)  # made durable before the run wrote
            self.assertEqual(os.listdir(os.path.join(folder, left)), ['diskbench-scratch-marker'])
            with self.stack.client(start_fs=(folder, 'file-rw', QUICK_RW)) as c:
                self.assertIsNone(c.error)
                done = c.wait_completed(120)
                self.assertEqual(done['completed'], 'finished', done)
            self.assertEqual(os.listdir(folder), [])
        finally:
            if os.path.ismount(mount[0]):
                self.stack.umount(mount)
            self.stack.detach_loop(loop)

    def test_daemon_killed_mid_run_leaves_no_data(self):
        folder = self.folder()
        free_before = self.free_bytes()
        with self.stack.client(start_fs=(folder, 'file-rw',
                                         {'size': ('t', 96 * MiB), 'block_size': ('u', 4096)})) as c:
            self.assertIsNone(c.error)
            c.wait_for(lambda line: 'samples' in line, 60, 'the first samples')
            wait_until(lambda: self.free_bytes() < free_before - 8 * MiB, 60,
                       what='the scratch file to take space')
            pid = self.stack.daemon_pid()
            os.kill(pid, signal.SIGKILL)
            wait_until(lambda: not harness.pid_alive(pid), 10, what='diskbenchd to die')
        # Its scratch file had no name: the kernel freed it with the process.
        wait_until(lambda: self.free_bytes() >= free_before - MiB, 20,
                   what='the scratch data to be freed')
        # What is left is the scratch folder with its marker and no data.
        [left] = self.scratch_entries(folder)
        leftover = os.path.join(folder, left)
        self.assertEqual(os.listdir(leftover), ['diskbench-scratch-marker'])
        with open(os.path.join(leftover, 'diskbench-scratch-marker')) as f:
            self.assertEqual(f.read(), SCRATCH_MARKER_TEXT)  # what the planted one copies
        # The next run (activating a new daemon) removes it.
        with self.stack.client(start_fs=(folder, 'file-rw', QUICK_RW)) as c:
            self.assertIsNone(c.error)
            done = c.wait_completed(120)
            self.assertEqual(done['completed'], 'finished', done)
        self.assertEqual(os.listdir(folder), [])


if __name__ == '__main__':
    harness.main()
