#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The queue-depth sweep's writes (issue 31, item 7) through the real
daemon, bus, polkitd and udisksd, as test users, with diskbenchctl:

- on a device, writes=true writes in preserve mode: the loop device is
  byte-identical afterwards, the grid's cells all ran (IOPS and p99 per
  thread count), and the CLI says the best write IOPS. Such a run is a
  device write in every respect: refused for a user polkit allows reads but
  not writes, and on a mounted device, with nothing written;
- in a folder (file-qd-sweep), reads and writes on a test file of the
  caller's, which is gone afterwards; the app's parameters listed.
The figures are the device's, not asserted here beyond being there."""

import json
import os
import pwd

import harness
from loop_devices import sha256_of
from harness import MANAGER_IFACE, MANAGER_PATH

CTL = os.environ.get('DISKBENCHCTL')
MiB = 1024 * 1024
SMALL_GRID = ['max_queue_depth=4', 'max_threads=2', 'duration_s=0.1', 'warmup_s=0.02']

READ_ONLY_USER = harness.READ_ONLY_USER


def series(result, name):
    return next(s['points'] for s in result['series'] if s['name'] == name)


class QdSweepTest(harness.IntegrationTestCase):

    @classmethod
    def prepare(cls):
        if not CTL or not os.access(CTL, os.X_OK):
            raise AssertionError(f'{CTL!r} is not built (DISKBENCHCTL)')
        cls.loop = cls.stack.attach_loop(size=64 * MiB)
        cls.home = harness.user_home(cls.stack)
        cls.reader_home = harness.user_home(cls.stack, READ_ONLY_USER)
        harness.install_read_only_rules(cls.stack, 'test_qd_sweep.py')
        # A mounted device (ext4 of our own), whose filesystem is also the
        # folder sweep's.
        cls.mounted = cls.stack.attach_loop(size=96 * MiB)
        cls.root = cls.stack.mount_new_filesystem(cls.mounted)[0]
        cls.user = pwd.getpwnam('dbtest-in')
        cls.folder = os.path.join(cls.root, 'sweep')
        os.mkdir(cls.folder)
        os.chown(cls.folder, cls.user.pw_uid, cls.user.pw_gid)

    def ctl(self, *args):
        return harness.run_ctl(self.stack, self.home, *args)

    def test_device_writes_put_back_what_was_there(self):
        # Random data over the whole area the writes may touch (the first
        # 16 MiB), so any byte written back wrong changes the checksum.
        with open(self.loop.backing, 'r+b') as f:
            f.write(os.urandom(16 * MiB))
        before = sha256_of(self.loop.backing)
        res = self.ctl('run', 'qd-sweep', self.loop.node, 'writes=true', 'region_size=16777216', *SMALL_GRID,
                       '--json', '--no-save')
        self.assertEqual(res.returncode, 0, res.stderr)
        self.assertEqual(sha256_of(self.loop.backing), before, 'the device changed')
        result = json.loads(res.stdout)
        summary = result['summary']
        self.assertEqual(result['parameters']['writes'], True)
        self.assertEqual(summary['direction'], 'write')
        self.assertEqual(summary['mode'], 'preserve')
        self.assertEqual(summary['cells'], 6)
        for threads in (1, 2):
            points = series(result, f'iops-t{threads}')
            self.assertEqual([x for x, _ in points], [1, 2, 4])
            self.assertTrue(all(y > 0 for _, y in points), points)
            self.assertEqual(len(series(result, f'p99-t{threads}')), 3)
        # What the block layer saw: writes only (the reads before each
        # write-back are not timed, so not counted as the run's).
        self.assertGreater(summary['issued_write_bytes'], 0)
        self.assertEqual(summary['issued_read_bytes'], 0)
        self.assertEqual(result['warnings'], [])
        text = self.ctl('run', 'qd-sweep', self.loop.node, 'writes=true', 'region_size=16777216', *SMALL_GRID,
                        '--no-save')
        self.assertEqual(text.returncode, 0, text.stderr)
        self.assertRegex(text.stdout, r'\nbest write IOPS [\d.]+ ?k?\b')
        self.assertEqual(sha256_of(self.loop.backing), before)

    def test_device_writes_need_write_authorization_and_an_unused_device(self):
        before = sha256_of(self.loop.backing)
        reader = harness.run_ctl(self.stack, self.reader_home, 'run', 'qd-sweep', self.loop.node, *SMALL_GRID,
                                 '--no-save', user=READ_ONLY_USER)
        self.assertEqual(reader.returncode, 0, reader.stderr)
        grid = {'max_queue_depth': ('t', 2), 'max_threads': ('t', 1), 'duration_s': ('d', 0.1)}
        err = self.stack.call_error(MANAGER_PATH, MANAGER_IFACE, 'StartBenchmark', 'osa{sv}',
                                    self.loop.object_path, 'qd-sweep', {'writes': ('b', True), **grid},
                                    user=READ_ONLY_USER)
        self.assertDBusError(err, 'NotAuthorized')
        harness.wait_until(lambda: self.stack.get_property(self.mounted.object_path, harness.DEVICE_IFACE,
                                                           'Mounted'), 20, what='udisks to see the mount')
        err = self.stack.call_error(MANAGER_PATH, MANAGER_IFACE, 'StartBenchmark', 'osa{sv}',
                                    self.mounted.object_path, 'qd-sweep', {'writes': ('b', True), **grid},
                                    user='dbtest-in')
        self.assertDBusError(err, 'DeviceBusy')
        self.assertIn('mounted', err.message)
        # A grid not of powers of two: named, before anything runs.
        err = self.stack.call_error(MANAGER_PATH, MANAGER_IFACE, 'StartBenchmark', 'osa{sv}',
                                    self.loop.object_path, 'qd-sweep', {'writes': ('b', True), 'max_queue_depth':
                                                                        ('t', 3)}, user='dbtest-in')
        self.assertDBusError(err, 'InvalidArgument')
        self.assertIn('max_queue_depth', err.message)
        self.assertEqual(sha256_of(self.loop.backing), before)

    def test_folder_sweep_reads_and_writes_a_test_file_of_the_callers(self):
        for writes in ('false', 'true'):
            res = self.ctl('run', 'file-qd-sweep', self.folder, f'writes={writes}', 'file_size=16777216',
                           *SMALL_GRID, '--json', '--no-save')
            self.assertEqual(res.returncode, 0, res.stderr)
            result = json.loads(res.stdout)
            summary = result['summary']
            self.assertEqual(summary['direction'], 'write' if writes == 'true' else 'read')
            self.assertEqual(summary['cells'], 6)
            self.assertEqual(summary['file_size_bytes'], 16 * MiB)
            self.assertTrue(summary['direct_io'])
            self.assertNotIn('mode', summary)
            for threads in (1, 2):
                self.assertTrue(all(y > 0 for _, y in series(result, f'iops-t{threads}')))
            self.assertEqual(os.listdir(self.folder), [])

    def test_the_kinds_and_their_writes_parameter_are_listed(self):
        res = self.ctl('benchmarks', 'qd-sweep')
        self.assertEqual(res.returncode, 0, res.stderr)
        self.assertIn('writes', res.stdout)
        kinds = {k[0]: k for k in self.stack.call(MANAGER_PATH, MANAGER_IFACE, 'ListBenchmarks',
                                                   user='dbtest-in')[0]}
        # Both read by default: the device's writes make a run a device write
        # (the daemon decides it on the parameters), the folder's are its own.
        self.assertEqual(kinds['qd-sweep'][1], 'device')
        self.assertEqual(kinds['file-qd-sweep'][1], 'directory')
        for kind in ('qd-sweep', 'file-qd-sweep'):
            params = {p[0]: p for p in kinds[kind][4]}
            self.assertEqual(params['writes'][1], 'boolean')
            self.assertIs(params['writes'][3], False)


if __name__ == '__main__':
    harness.main()
