#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Filesystem benchmarks through the real daemon: a folder fd passed over the
bus (by bus_client.py and by busctl), files made as the caller, named errors
for a folder the caller may not write and a full filesystem, and attacks: a
planted symlink, the folder and the scratch folder swapped for symlinks
mid-run, and the daemon killed mid-run. Real ext4 on our own loop devices."""

import grp
import hashlib
import os
import pwd
import re
import shutil
import signal
import tempfile

import harness
from harness import JOB_IFACE, MANAGER_IFACE, MANAGER_PATH, run, wait_until

SCRATCH_PREFIX = '.diskbench-scratch-'
MiB = 1024 * 1024
QUICK_RW = {'size': ('t', 8 * MiB), 'block_size': ('u', MiB)}
# One quick run of every filesystem kind.
SMALL_RUNS = {
    'file-rw': QUICK_RW,
    'write-sweep': {'amount_per_size': ('t', 2 * MiB), 'min_block': ('u', MiB),
                    'max_block': ('u', 2 * MiB), 'repetitions': ('t', 2)},
    'mixed-load': {'threads': ('t', 2), 'file_size': ('t', 8 * MiB)},
    'structure': {'directories': ('t', 100), 'files': ('t', 100)},
    'small-files': {'directories': ('t', 100), 'files': ('t', 100)},
}
# Long enough to be caught mid-run (many small synced writes); the tests end
# it by closing the client, which cancels the job.
LONG_RW = {'size': ('t', 48 * MiB), 'block_size': ('u', 4096)}


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
        # What an attack would reach for: a root-only folder outside the
        # benchmark folder, on the same filesystem (so no mount point
        # stops a path walk by accident) and on another one.
        cls.outside = [os.path.join(cls.root, 'outside'), tempfile.mkdtemp(dir=cls.stack.tmp)]
        for path in cls.outside:
            os.makedirs(path, exist_ok=True)
            os.chmod(path, 0o755)
            with open(os.path.join(path, 'precious'), 'wb') as f:
                f.write(os.urandom(64 * 1024))
        cls.outside_digests = [tree_digest(p) for p in cls.outside]
        cls.counter = 0

    def tearDown(self):
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
        self.assertEqual(props['Target'], folder)
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
                                          'repetitions': ('t', 2)})) as c:
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
        self.assertEqual(self.stack.get_property(job, JOB_IFACE, 'Target'), folder)
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
        loop = self.stack.attach_loop(size=24 * MiB)
        mount = self.stack.mount_new_filesystem(loop)
        try:
            folder = os.path.join(mount[0], 'home')
            os.mkdir(folder)
            os.chown(folder, self.user.pw_uid, self.user.pw_gid)
            # Root fills it past what any user may use (the reserve too).
            with open(os.path.join(mount[0], 'filler'), 'wb') as f:
                chunk = b'f' * MiB
                try:
                    while True:
                        f.write(chunk)
                        f.flush()
                except OSError:
                    pass
            with self.stack.client(start_fs=(folder, 'file-rw', {})) as c:
                self.assertDBusError(c.error, 'NoSpace')
                self.assertIn('full', c.error.message)
            self.assertEqual(os.listdir(folder), [])
        finally:
            self.stack.umount(mount)
            self.stack.detach_loop(loop)

    # ---- attacks ------------------------------------------------------

    def test_planted_symlinks_are_not_followed(self):
        folder = self.folder()
        # One named like a crashed run's scratch folder (the cleanup looks
        # for those), one plain, both to root-only folders.
        os.symlink(self.outside[0], os.path.join(folder, SCRATCH_PREFIX + '0-planted'))
        os.symlink(self.outside[1], os.path.join(folder, 'link'))
        with self.stack.client(start_fs=(folder, 'file-rw', QUICK_RW)) as c:
            self.assertIsNone(c.error)
            done = c.wait_completed(120)
            self.assertEqual(done['completed'], 'finished', done)
        # tearDown checks the outside folders are as they were.

    def test_folder_and_scratch_swapped_for_symlinks_mid_run(self):
        folder = self.folder()
        moved = folder + '.moved'
        with self.stack.client(start_fs=(folder, 'file-rw', LONG_RW)) as c:
            self.assertIsNone(c.error)
            c.wait_for(lambda line: 'samples' in line, 60, 'the first samples')
            [scratch] = self.scratch_entries(folder)
            # The caller owns both, so it could do this itself.
            os.rename(os.path.join(folder, scratch), os.path.join(folder, 'scratch.moved'))
            os.symlink(self.outside[0], os.path.join(folder, scratch))
            os.rename(folder, moved)
            os.symlink(self.outside[1], folder)
            job = c.job
        # The daemon works through the fds it holds, so the run went on in
        # the moved folders and cleaned up there; the symlinks lead nowhere
        # it went.
        self.assertIn(self.wait_job_state(job), ('cancelled', 'finished'))
        self.assertTrue(os.path.islink(folder))
        # The real scratch folder was emptied through the daemon's fd; its
        # new name is the caller's business. What stands at the old name
        # (the symlink) is not the daemon's: left alone, not followed.
        self.assertEqual(sorted(os.listdir(moved)), sorted([scratch, 'scratch.moved']))
        self.assertTrue(os.path.islink(os.path.join(moved, scratch)))
        self.assertEqual(os.listdir(os.path.join(moved, 'scratch.moved')), [])

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
        self.assertLess(os.path.getsize(os.path.join(leftover, 'diskbench-scratch-marker')), 4096)
        # The next run (activating a new daemon) removes it.
        with self.stack.client(start_fs=(folder, 'file-rw', QUICK_RW)) as c:
            self.assertIsNone(c.error)
            done = c.wait_completed(120)
            self.assertEqual(done['completed'], 'finished', done)
        self.assertEqual(os.listdir(folder), [])


if __name__ == '__main__':
    harness.main()
