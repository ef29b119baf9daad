#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The burn-in (issue 42, "burn-in"): every block written and read back, on
real block devices that are sick in planted ways.

The disk is a loop device over the FUSE file of tests/integration/
stalling-fuse: "eio START LENGTH" makes a range fail (bad sectors),
"wrap N" makes writes at N and beyond land at offset % N (a controller that
drops address bits: the writes land elsewhere), "drop N" makes them vanish
(lost writes). The engine alone (diskbench-engine as root), then the daemon
through diskbenchctl as a test user (the real bus, polkitd and udisksd),
must fail each sick drive for its planted reason, with the place found to
the sector (to the logical block for unreadable ones), and pass a healthy
one; the CLI exits with its own status for a failed drive; bad parameters
get named errors and write nothing."""

import json
import os
import sys

import harness
from harness import MANAGER_IFACE, MANAGER_PATH
from loop_devices import sha256_of

CTL = os.environ.get('DISKBENCHCTL')
ENGINE = os.environ.get('DISKBENCH_ENGINE')
KiB, MiB = 1024, 1024 * 1024
EXIT_OK, EXIT_BURN_IN_FAILED = 0, 17
DISK = 32 * MiB
# Odd places on purpose: a drive's fault is where it is, not on a block.
BAD_AT, BAD_LENGTH = 20 * MiB + 8 * KiB, 4 * KiB
WRAP_AT = 24 * MiB + 3 * 512
DROP_AT = 27 * MiB + 5 * 512


def series(result, name):
    for s in result['series']:
        if s['name'] == name:
            return s['points']
    return None


class BurnInTest(harness.IntegrationTestCase):

    @classmethod
    def prepare(cls):
        for tool in (CTL, ENGINE):
            if not tool or not os.access(tool, os.X_OK):
                raise AssertionError(f'{tool!r} is not built (DISKBENCHCTL, DISKBENCH_ENGINE)')
        cls.disk = cls.stack.attach_stalling_disk(DISK)
        cls.home = harness.user_home(cls.stack)

    def engine(self, *params):
        res = harness.run_write_again_while_udev_holds(
            [ENGINE, 'burn-in', self.disk.loop.node, 'mode=destroy', 'confirm=test'] + list(params))
        self.assertEqual(res.returncode, 0, res.stderr)
        return json.loads(res.stdout)

    def ctl(self, *args):
        node = self.disk.loop.node
        return harness.run_ctl_write_again_while_udev_holds(self.stack, self.home, 'run', 'burn-in', node,
                                                            'mode=destroy', f'confirm={node}', *args)

    def test_a_healthy_drive_passes_every_cycle(self):
        self.disk.plant_faults([])
        result = self.engine('cycles=2', 'second_pattern=true')
        summary = result['summary']
        self.assertEqual((summary['verdict'], summary['verdict_reasons']), ('pass', ''))
        self.assertEqual(summary['cycles_done'], 2)
        self.assertEqual(summary['verified_bytes'], 2 * DISK)
        self.assertEqual((summary['mismatched_blocks'], summary['unreadable_ranges'], summary['write_errors']),
                         (0, 0, 0))
        self.assertTrue(series(result, 'write2_mean'), 'the second cycle drew no write speed')
        self.assertIsNone(series(result, 'mismatch'))
        print(f'\nhealthy: write {summary["write_mb_s"]:.0f} MB/s, read {summary["read_mb_s"]:.0f} MB/s over the FUSE '
              f'disk', file=sys.stderr)

    def test_unreadable_blocks_are_listed_to_the_logical_block(self):
        self.disk.plant_faults([f'eio {BAD_AT} {BAD_LENGTH}'])
        result = self.engine()
        summary = result['summary']
        self.assertEqual(summary['verdict'], 'fail')
        self.assertIn('unreadable', summary['verdict_reasons'].split(','))
        # The write of the block holding it failed too: the helper fails
        # writes touching the range as a bad sector does.
        self.assertIn('write-errors', summary['verdict_reasons'].split(','))
        self.assertEqual(series(result, 'bad'), [[BAD_AT, BAD_LENGTH]])
        self.assertEqual(summary['first_unreadable_lba'], BAD_AT // 512)
        self.assertEqual(summary['unreadable_bytes'], BAD_LENGTH)
        self.assertTrue(any(w.startswith('unreadable ranges: 1,') for w in result['warnings']),
                        result['warnings'])

    def test_a_drive_that_fails_every_write_is_not_written_for_hours(self):
        self.disk.plant_faults([f'eio 0 {DISK}'])
        result = self.engine('max_bad_ranges=3', 'block_size=65536', 'queue_depth=4')
        summary = result['summary']
        self.assertEqual(summary['stopped_reason'], 'max-bad-writes')
        self.assertEqual(summary['verdict'], 'fail')
        self.assertIn('write-errors', summary['verdict_reasons'].split(','))
        # It stops at the fourth failure; what was in flight then still
        # comes back: far fewer than the drive's 512 blocks.
        self.assertGreaterEqual(summary['write_errors'], 4)
        self.assertLessEqual(summary['write_errors'], 4 + 4)
        self.assertEqual(summary['cycles_done'], 1)

    def test_writes_that_land_elsewhere_are_found_and_named(self):
        # Writes past WRAP_AT land at offset - WRAP_AT: the start of the
        # drive ends up holding the writes meant for its end, and each
        # wrong sector says which place it was written for.
        self.disk.plant_faults([f'wrap {WRAP_AT}'])
        result = self.engine()
        summary = result['summary']
        self.assertEqual(summary['verdict'], 'fail')
        self.assertEqual(summary['verdict_reasons'], 'mismatched')
        self.assertEqual(summary['first_mismatch_offset'], 0)
        self.assertEqual(summary['first_mismatch_holds_offset'], WRAP_AT)
        self.assertGreater(summary['misplaced_blocks'], 0)
        self.assertEqual(summary['misplaced_blocks'], summary['mismatched_blocks'])
        # Wrong bytes: the DISK - WRAP_AT at the start that the wrapped
        # writes overwrote, nothing else.
        self.assertEqual(summary['mismatched_bytes'], DISK - WRAP_AT)
        wrong = series(result, 'mismatch')
        self.assertEqual(sum(y for _, y in wrong), DISK - WRAP_AT)
        self.assertTrue(all(x < DISK - WRAP_AT for x, _ in wrong), wrong)
        self.assertTrue(any(n.startswith(f'the sector at 0 holds what was written to {WRAP_AT}') for n in
                            result['notes']), result['notes'])

    def test_writes_that_are_lost_are_found_from_where_they_start(self):
        self.disk.plant_faults([f'drop {DROP_AT}'])
        result = self.engine()
        summary = result['summary']
        self.assertEqual((summary['verdict'], summary['verdict_reasons']), ('fail', 'mismatched'))
        self.assertEqual(summary['first_mismatch_offset'], DROP_AT)
        self.assertNotIn('first_mismatch_holds_offset', summary)
        self.assertEqual(summary['misplaced_blocks'], 0)
        self.assertEqual(summary['mismatched_bytes'], DISK - DROP_AT)

    def test_daemon_and_cli_as_a_user(self):
        self.disk.plant_faults([f'wrap {WRAP_AT}'])
        res = self.ctl('--json')
        self.assertEqual(res.returncode, EXIT_BURN_IN_FAILED, res.stderr)
        summary = json.loads(res.stdout)['summary']
        self.assertEqual((summary['verdict'], summary['first_mismatch_holds_offset']), ('fail', WRAP_AT))
        res = self.ctl()
        self.assertEqual(res.returncode, EXIT_BURN_IN_FAILED, res.stderr)
        self.assertIn('⚠ failed: blocks read back other than written', res.stdout)
        self.assertIn('wrong: the block at 0 B, 1 MiB read back other than written', res.stdout)
        self.disk.plant_faults([])
        res = self.ctl()
        self.assertEqual(res.returncode, EXIT_OK, res.stderr)
        self.assertIn('✓ passed: every block of 32 MiB written and read back as written', res.stdout)

    def test_unconfirmed_or_bad_parameters_get_named_errors_and_write_nothing(self):
        self.disk.plant_faults([])
        path = self.disk.loop.object_path
        before = sha256_of(self.disk.loop.backing)
        node = self.disk.loop.node
        for options, key in (({}, 'mode'),
                             ({'mode': ('s', 'preserve')}, 'mode'),
                             ({'mode': ('s', 'destroy')}, 'confirm'),
                             ({'mode': ('s', 'destroy'), 'confirm': ('s', '/dev/sda')}, 'confirm'),
                             ({'mode': ('s', 'destroy'), 'confirm': ('s', node), 'cycles': ('t', 0)}, 'cycles'),
                             ({'mode': ('s', 'destroy'), 'confirm': ('s', node), 'block_size': ('t', 1000)},
                              'block_size'),
                             ({'mode': ('s', 'destroy'), 'confirm': ('s', node), 'queue_depth': ('t', 0)},
                              'queue_depth')):
            with self.subTest(options=options):
                err = self.stack.call_error(MANAGER_PATH, MANAGER_IFACE, 'StartBenchmark', 'osa{sv}', path,
                                            'burn-in', options, user='dbtest-in')
                self.assertDBusError(err, 'InvalidArgument')
                self.assertIn(key, err.message)
        self.assertEqual(sha256_of(self.disk.loop.backing), before, 'a refused start wrote to the device')


if __name__ == '__main__':
    harness.main()
