#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The fake-capacity check (issue 30, "verify-capacity"), on real block
devices that lie about their size.

The disk is a loop device over the FUSE file of tests/integration/
stalling-fuse, told to keep only its first N bytes: "wrap N" makes writes
at N and beyond land at offset % N (a stick whose controller wraps), "drop
N" makes them vanish and read back as zeros (one that loses them). The
engine alone (diskbench-engine as root), then the daemon through
diskbenchctl as a test user (the real bus, polkitd and udisksd), must
report the planted size: to the byte for a wrap, within one probe block
for a drop; a healthy device is reported healthy; the CLI exits with its
own status for a fake; bad parameters get named errors."""

import json
import os
import sys
import time

import harness
from harness import MANAGER_IFACE, MANAGER_PATH

CTL = os.environ.get('DISKBENCHCTL')
ENGINE = os.environ.get('DISKBENCH_ENGINE')
KiB, MiB = 1024, 1024 * 1024
EXIT_OK, EXIT_BAD_BLOCKS, EXIT_CAPACITY_LOST = 0, 15, 16
DISK = 64 * MiB
# Odd sizes on purpose: a real fake stick's flash ends where it ends, not on
# a round number, and the check must not assume one.
WRAP_AT = 40 * MiB + 3 * 512
# Between two probes (every 640 KiB here), so the bisection has to find it.
DROP_AT = 45 * MiB + 200 * KiB + 5 * 512
BLOCK = 64 * KiB


def series(result, name):
    for s in result['series']:
        if s['name'] == name:
            return s['points']
    return None


class VerifyCapacityTest(harness.IntegrationTestCase):

    @classmethod
    def prepare(cls):
        for tool in (CTL, ENGINE):
            if not tool or not os.access(tool, os.X_OK):
                raise AssertionError(f'{tool!r} is not built (DISKBENCHCTL, DISKBENCH_ENGINE)')
        cls.fake = cls.stack.attach_stalling_disk(DISK)
        cls.home = harness.user_home(cls.stack)

    def engine(self, *params):
        argv = [ENGINE, 'verify-capacity', self.fake.loop.node, 'mode=destroy', 'confirm=test'] + list(params)
        started = time.monotonic()
        res = harness.run_write_again_while_udev_holds(argv)
        self.assertEqual(res.returncode, 0, res.stderr)
        return json.loads(res.stdout), time.monotonic() - started

    def ctl(self, *args):
        return harness.run_ctl(self.stack, self.home, *args)

    def check_with_ctl(self, *args):
        """diskbenchctl run verify-capacity on the fake disk, confirmed;
        again while udev still holds the device after the last run (exit
        status 8, DeviceBusy: see engine())."""
        node = self.fake.loop.node
        return harness.run_ctl_write_again_while_udev_holds(self.stack, self.home, 'run', 'verify-capacity', node,
                                                            'mode=destroy', f'confirm={node}', *args)

    def test_a_wrapping_device_to_the_byte(self):
        self.fake.plant_faults([f'wrap {WRAP_AT}'])
        result, took = self.engine()
        summary = result['summary']
        self.assertEqual(summary['failure'], 'wraps')
        self.assertEqual(summary['claimed_bytes'], DISK)
        self.assertEqual(summary['real_size_bytes'], WRAP_AT)
        self.assertEqual(summary['lost_bytes'], DISK - WRAP_AT)
        self.assertEqual(summary['boundary_uncertainty_bytes'], 0)
        # The layout: every probe below the real size intact, none beyond.
        points = series(result, 'intact')
        self.assertGreaterEqual(len(points), 100)
        for x, y in points:
            if x + BLOCK <= WRAP_AT:
                self.assertEqual(y, 100, x)
            elif x >= WRAP_AT:
                self.assertEqual(y, 0, x)
        self.assertTrue(any(w.startswith('data beyond 40.0 MiB of the claimed 64 MiB is lost') for w in
                            result['warnings']), result['warnings'])
        print(f'\nwrap at {WRAP_AT}: found {summary["real_size_bytes"]} in {took:.2f} s, '
              f'{summary["written_bytes"] // KiB} KiB written', file=sys.stderr)

    def test_a_dropping_device_within_one_block(self):
        self.fake.plant_faults([f'drop {DROP_AT}'])
        result, took = self.engine()
        summary = result['summary']
        self.assertEqual(summary['failure'], 'drops')
        real, uncertainty = summary['real_size_bytes'], summary['boundary_uncertainty_bytes']
        # Everything below `real` was seen intact, the first lost sector is
        # at real + uncertainty, and the planted end lies between them.
        self.assertLessEqual(real, DROP_AT)
        self.assertGreaterEqual(real + uncertainty, DROP_AT)
        self.assertLess(uncertainty, BLOCK)
        self.assertGreater(summary['bisection_steps'], 0)
        self.assertTrue(any('dropped' in n for n in result['notes']), result['notes'])
        print(f'\ndrop at {DROP_AT}: found {real} (+{uncertainty}) after {summary["bisection_steps"]} bisection '
              f'steps in {took:.2f} s', file=sys.stderr)

    def test_a_healthy_device_is_healthy(self):
        self.fake.plant_faults([])
        result, _ = self.engine()
        summary = result['summary']
        self.assertEqual(summary['failure'], 'none')
        self.assertEqual(summary['real_size_bytes'], DISK)
        self.assertEqual(summary['probes_lost'], 0)
        self.assertEqual({y for _, y in series(result, 'intact')}, {100})
        self.assertEqual(result['warnings'][:0], [])
        self.assertFalse(any('lost' in w for w in result['warnings']), result['warnings'])

    def test_bad_sectors_are_damage_not_a_smaller_capacity(self):
        # One probe unreadable in the middle (a bad sector), every probe
        # after it fine: the capacity is whole, the device loses data.
        self.fake.plant_faults([f'eio {20 * MiB} {BLOCK}'])
        result, _ = self.engine()
        summary = result['summary']
        self.assertEqual(summary['failure'], 'scattered')
        self.assertEqual(summary['real_size_bytes'], DISK)
        self.assertEqual(summary['lost_bytes'], 0)
        self.assertEqual((summary['probes_lost'], summary['probes_unreadable']), (1, 1))
        self.assertTrue(any(w.startswith('probe blocks lost: 1 of ') for w in result['warnings']),
                        result['warnings'])
        self.assertFalse(any('data beyond' in w for w in result['warnings']), result['warnings'])
        res = self.check_with_ctl()
        self.assertEqual(res.returncode, EXIT_BAD_BLOCKS, res.stderr)
        self.assertIn('⚠ Blocks are lost here and there on this device', res.stdout)

    def test_a_stale_copy_from_an_earlier_run_does_not_pass(self):
        # A drop device that still holds the probes of an earlier check
        # where they were kept: the key drawn per run tells them apart.
        self.fake.plant_faults([])
        self.engine()
        self.fake.plant_faults([f'drop {DROP_AT}'])
        result, _ = self.engine()
        self.assertEqual(result['summary']['failure'], 'drops')
        self.assertLessEqual(result['summary']['real_size_bytes'], DROP_AT)

    def test_daemon_and_cli_as_a_user(self):
        self.fake.plant_faults([f'wrap {WRAP_AT}'])
        res = self.check_with_ctl('--json')
        self.assertEqual(res.returncode, EXIT_CAPACITY_LOST, res.stderr)
        summary = json.loads(res.stdout)['summary']
        self.assertEqual((summary['failure'], summary['real_size_bytes']), ('wraps', WRAP_AT))
        res = self.check_with_ctl()
        self.assertEqual(res.returncode, EXIT_CAPACITY_LOST, res.stderr)
        self.assertIn('⚠ Data beyond 40.0\u00a0MiB of the claimed 64.0\u00a0MiB is lost: writes there land at the '
                      'start again', res.stdout)
        self.assertNotIn('✓ The whole claimed', res.stdout)
        self.fake.plant_faults([])
        res = self.check_with_ctl()
        self.assertEqual(res.returncode, EXIT_OK, res.stderr)
        self.assertIn('✓ The whole claimed 64.0\u00a0MiB holds data', res.stdout)

    def test_unconfirmed_or_bad_parameters_get_named_errors(self):
        path = self.fake.loop.object_path
        for options, name, key in (({}, 'InvalidArgument', 'mode'),
                                   ({'mode': ('s', 'preserve')}, 'InvalidArgument', 'mode'),
                                   ({'mode': ('s', 'destroy')}, 'InvalidArgument', 'confirm'),
                                   ({'mode': ('s', 'destroy'), 'confirm': ('s', '/dev/sda')}, 'InvalidArgument',
                                    'confirm'),
                                   ({'mode': ('s', 'destroy'), 'confirm': ('s', self.fake.loop.node),
                                     'probes': ('t', 99)}, 'InvalidArgument', 'probes'),
                                   ({'mode': ('s', 'destroy'), 'confirm': ('s', self.fake.loop.node),
                                     'block_size': ('t', 1000)}, 'InvalidArgument', 'block_size')):
            with self.subTest(options=options):
                err = self.stack.call_error(MANAGER_PATH, MANAGER_IFACE, 'StartBenchmark', 'osa{sv}', path,
                                            'verify-capacity', options, user='dbtest-in')
                self.assertDBusError(err, name)
                self.assertIn(key, err.message)


if __name__ == '__main__':
    harness.main()
