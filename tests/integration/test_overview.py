#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The overview (issue 31): GNOME Disks' benchmark, the first page, usable
from busctl and diskbenchctl like every kind. On a real loop device
through the real daemon, bus, polkitd and udisksd, as a test user: the read
rate sampled at places spread from the first byte to the last, the access
time from seeded single-block reads over the whole device, the headline's
numbers in the CLI's text; bad parameters get named errors. The opt-in
write rate (write=true, GNOME Disks' preserve mode) writes back what was
there (the device byte-identical), at the same places, and is a device
write in every respect: refused for a user polkit allows reads but not
writes, and on a mounted device, with nothing written. How long it
takes on a 4 GiB device is a benchmark figure (tests/perf), not asserted
here."""

import json
import os

import harness
from loop_devices import sha256_of
from harness import MANAGER_IFACE, MANAGER_PATH, run

CTL = os.environ.get('DISKBENCHCTL')
MiB = 1024 * 1024
SIZE = 256 * MiB


def series(result, name):
    return next(s['points'] for s in result['series'] if s['name'] == name)



READ_ONLY_USER = harness.READ_ONLY_USER


class OverviewTest(harness.IntegrationTestCase):

    @classmethod
    def prepare(cls):
        if not CTL or not os.access(CTL, os.X_OK):
            raise AssertionError(f'{CTL!r} is not built (DISKBENCHCTL)')
        cls.loop = cls.stack.attach_loop(size=SIZE)
        cls.home = harness.user_home(cls.stack)
        cls.reader_home = harness.user_home(cls.stack, READ_ONLY_USER)
        harness.install_read_only_rules(cls.stack, 'test_overview.py')
        # A device that is mounted (a filesystem of our own on it).
        cls.mounted = cls.stack.attach_loop(size=64 * MiB)
        cls.stack.mount_new_filesystem(cls.mounted)

    def ctl(self, *args):
        return harness.run_ctl(self.stack, self.home, *args)

    def test_samples_span_the_device_and_access_times_cover_it(self):
        res = self.ctl('run', 'overview', self.loop.node, '--json', '--no-save')
        self.assertEqual(res.returncode, 0, res.stderr)
        result = json.loads(res.stdout)
        summary = result['summary']
        self.assertEqual((summary['samples'], summary['sample_size'], summary['access_reads']), (100, 10 * MiB, 1000))
        rates = series(result, 'read')
        self.assertEqual(len(rates), 100)
        # GNOME Disks' places: the first at 0, the last ending at the end,
        # evenly between, each one 1 MiB aligned.
        offsets = [int(x) for x, _ in rates]
        self.assertEqual(offsets[0], 0)
        self.assertEqual(offsets[-1], SIZE - 10 * MiB)
        steps = [b - a for a, b in zip(offsets, offsets[1:])]
        self.assertLessEqual(max(steps) - min(steps), MiB)
        self.assertTrue(all(o % MiB == 0 for o in offsets))
        self.assertTrue(all(y > 0 for _, y in rates))
        self.assertEqual(summary['read_bytes'], 100 * 10 * MiB)
        self.assertAlmostEqual(summary['read_mb_s'], sum(y for _, y in rates) / 100, places=3)
        self.assertLessEqual(summary['read_min_mb_s'], summary['read_mb_s'])
        self.assertLessEqual(summary['read_mb_s'], summary['read_max_mb_s'])
        # The access reads: 1000, all inside the device, over most of it.
        access = series(result, 'access')
        self.assertEqual(len(access), 1000)
        places = [x for x, _ in access]
        self.assertTrue(all(0 <= x < SIZE for x in places))
        self.assertLess(min(places), SIZE / 10)
        self.assertGreater(max(places), SIZE * 9 / 10)
        self.assertGreater(summary['access_latency_mean_us'], 0)
        # Every read the device saw was the benchmark's own.
        self.assertEqual(summary['issued_read_bytes'], 100 * 10 * MiB + 1000 * 512)

    def test_the_same_seed_reads_the_same_places(self):
        first = json.loads(self.ctl('run', 'overview', self.loop.node, '--json', '--no-save', 'samples=10',
                                    'access_reads=50', 'seed=7').stdout)
        second = json.loads(self.ctl('run', 'overview', self.loop.node, '--json', '--no-save', 'samples=10',
                                     'access_reads=50', 'seed=7').stdout)
        self.assertEqual([x for x, _ in series(first, 'access')], [x for x, _ in series(second, 'access')])

    def test_the_cli_says_the_headline_numbers(self):
        res = self.ctl('run', 'overview', self.loop.node, '--no-save', 'access_reads=100')
        self.assertEqual(res.returncode, 0, res.stderr)
        self.assertRegex(res.stdout, r'\nread [\d.]+ [MG]B/s  ·  access time [\d.]+ [µm]?s\n')

    def test_write_rate_writes_back_what_was_there(self):
        # Some data of its own first, so "unchanged" means something.
        with open(self.loop.backing, 'r+b') as f:
            for i in range(0, SIZE, 7 * MiB):
                f.seek(i)
                f.write(os.urandom(64 * 1024))
        before = sha256_of(self.loop.backing)
        res = self.ctl('run', 'overview', self.loop.node, 'write=true', 'access_reads=200', '--json', '--no-save')
        self.assertEqual(res.returncode, 0, res.stderr)
        self.assertEqual(sha256_of(self.loop.backing), before, 'the device changed')
        result = json.loads(res.stdout)
        summary = result['summary']
        self.assertEqual(result['parameters']['write'], True)
        writes, reads = series(result, 'write'), series(result, 'read')
        # The same 100 places as the reads, each 10 MiB written (and read
        # back first, not timed).
        self.assertEqual([x for x, _ in writes], [x for x, _ in reads])
        self.assertTrue(all(y > 0 for _, y in writes))
        self.assertEqual(summary['write_bytes'], 100 * 10 * MiB)
        self.assertEqual(summary['mode'], 'preserve')
        self.assertAlmostEqual(summary['write_mb_s'], sum(y for _, y in writes) / 100, places=3)
        self.assertLessEqual(summary['write_min_mb_s'], summary['write_mb_s'])
        self.assertLessEqual(summary['write_mb_s'], summary['write_max_mb_s'])
        self.assertEqual(len(series(result, 'access')), 200)
        # The block layer's count of the measured phases: the samples and
        # the access reads read, the samples written once (the reads
        # before each write-back are not timed, so not a phase of theirs).
        self.assertEqual(summary['issued_read_bytes'], 100 * 10 * MiB + 200 * 512)
        self.assertEqual(summary['issued_write_bytes'], 100 * 10 * MiB)
        self.assertEqual(result['warnings'], [])
        # The three numbers in the CLI's headline.
        text = self.ctl('run', 'overview', self.loop.node, 'write=true', 'samples=10', 'access_reads=10',
                        '--no-save')
        self.assertEqual(text.returncode, 0, text.stderr)
        self.assertRegex(text.stdout, r'\nread [\d.]+ [MG]B/s  ·  write [\d.]+ [MG]B/s  ·  access time [\d.]+ [µm]?s\n')
        self.assertEqual(sha256_of(self.loop.backing), before)

    def test_write_rate_needs_write_authorization_and_an_unused_device(self):
        before = sha256_of(self.loop.backing)
        reader = harness.run_ctl(self.stack, self.reader_home, 'run', 'overview', self.loop.node, 'samples=10',
                                 'access_reads=10', '--no-save', user=READ_ONLY_USER)
        self.assertEqual(reader.returncode, 0, reader.stderr)
        err = self.stack.call_error(MANAGER_PATH, MANAGER_IFACE, 'StartBenchmark', 'osa{sv}',
                                    self.loop.object_path, 'overview',
                                    {'write': ('b', True), 'samples': ('t', 10)}, user=READ_ONLY_USER)
        self.assertDBusError(err, 'NotAuthorized')
        harness.wait_until(lambda: self.stack.get_property(self.mounted.object_path, harness.DEVICE_IFACE,
                                                           'Mounted'), 20, what='udisks to see the mount')
        mounted_before = sha256_of(self.mounted.backing)
        err = self.stack.call_error(MANAGER_PATH, MANAGER_IFACE, 'StartBenchmark', 'osa{sv}',
                                    self.mounted.object_path, 'overview',
                                    {'write': ('b', True), 'samples': ('t', 10)}, user='dbtest-in')
        self.assertDBusError(err, 'DeviceBusy')
        self.assertIn('mounted', err.message)
        # Each sample is kept in memory between read and write-back: at most 64 MiB.
        err = self.stack.call_error(MANAGER_PATH, MANAGER_IFACE, 'StartBenchmark', 'osa{sv}',
                                    self.loop.object_path, 'overview',
                                    {'write': ('b', True), 'samples': ('t', 2), 'sample_size': ('t', 65 * MiB)},
                                    user='dbtest-in')
        self.assertDBusError(err, 'InvalidArgument')
        self.assertIn('sample_size', err.message)
        self.assertEqual(sha256_of(self.mounted.backing), mounted_before)
        self.assertEqual(sha256_of(self.loop.backing), before)

    def test_bad_parameters_get_named_errors(self):
        for key, value in (('samples', 1), ('samples', 10_001), ('sample_size', 0), ('access_reads', 100_001),
                           ('sample_size', 2 * SIZE)):
            with self.subTest(key=key, value=value):
                err = self.stack.call_error(MANAGER_PATH, MANAGER_IFACE, 'StartBenchmark', 'osa{sv}',
                                            self.loop.object_path, 'overview', {key: ('t', value)},
                                            user='dbtest-in')
                self.assertDBusError(err, 'InvalidArgument')
                self.assertIn(key, err.message)


if __name__ == '__main__':
    harness.main()
