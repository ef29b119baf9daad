#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The dying-drive scan (issue 30): a surface scan that survives bad
sectors and finds slow spots, on a real block device with real I/O errors.

The disk is a loop device over the FUSE file of tests/integration/
stalling-fuse, told to fail reads of planted byte ranges with EIO and to
answer others slowly (every time, or once). The engine alone
(diskbench-engine as root), then the daemon through diskbenchctl as a test
user (the real bus, polkitd and udisksd), must find exactly the planted
ranges, to the logical block, and classify the slow spots; the CLI exits
with its own status when bad blocks were found; a cap stops a scan of a
dead region by itself; bad parameters get named errors."""

import json
import os
import sys
import time

import harness
from harness import MANAGER_IFACE, MANAGER_PATH, run

CTL = os.environ.get('DISKBENCHCTL')
ENGINE = os.environ.get('DISKBENCH_ENGINE')
KiB, MiB = 1024, 1024 * 1024
EXIT_OK, EXIT_BAD_BLOCKS = 0, 15
SECTOR = 512  # the loop device's logical block

# Planted: two bad ranges (one 4 KiB, one of 100 KiB across a 64 KiB piece
# boundary, odd sector counts at both ends), a weak sector that is slow
# every time and one slow only once.
BAD = [(10 * MiB + 7 * SECTOR, 8 * SECTOR), (33 * MiB - 3 * SECTOR, 200 * SECTOR)]
SLOW_EVERY_TIME = 50 * MiB
SLOW_ONCE = 20 * MiB
SLOW_MS = 60


def faults():
    lines = [f'eio {start} {length}' for start, length in BAD]
    lines += [f'slow {SLOW_EVERY_TIME} {4 * KiB} {SLOW_MS}', f'slow-once {SLOW_ONCE} {4 * KiB} {SLOW_MS}']
    return lines


def series(result, name):
    for s in result['series']:
        if s['name'] == name:
            return s['points']
    return None


class SurfaceScanTest(harness.IntegrationTestCase):

    @classmethod
    def prepare(cls):
        for tool in (CTL, ENGINE):
            if not tool or not os.access(tool, os.X_OK):
                raise AssertionError(f'{tool!r} is not built (DISKBENCHCTL, DISKBENCH_ENGINE)')
        cls.sick = cls.stack.attach_stalling_disk()
        cls.healthy = cls.stack.attach_loop()
        cls.home = harness.user_home(cls.stack)

    def setUp(self):
        self.sick.plant_faults(faults())  # again: slow-once is used up by a read

    def ctl(self, *args):
        return harness.run_ctl(self.stack, self.home, *args)

    def assert_planted(self, result, exact_slow=True):
        """The planted faults, exactly. With EXACT_SLOW false (the automatic
        threshold, 5 ms here, where a loaded machine may add a slow read of
        its own) the planted slow spots must be among those found."""
        summary = result['summary']
        self.assertEqual([tuple(map(int, p)) for p in series(result, 'bad')], BAD)
        self.assertEqual({int(p[1]) for p in series(result, 'bad_errno')}, {5})  # EIO
        self.assertEqual(summary['bad_ranges'], len(BAD))
        self.assertEqual(summary['bad_bytes'], sum(length for _, length in BAD))
        self.assertEqual(summary['first_bad_lba'], BAD[0][0] // SECTOR)
        self.assertNotIn('stopped_reason', summary)
        self.assertNotIn('bad_ranges_not_narrowed', summary)
        # The 1 MiB reads that failed: one at 10 MiB, two across 33 MiB.
        self.assertEqual(summary['failed_reads'], 3)
        slow = {int(x): y for x, y in series(result, 'slow')}
        again = {int(x): y for x, y in series(result, 'slow_again')}
        # The slow reads are the 1 MiB reads holding the planted sectors.
        if exact_slow:
            self.assertEqual(sorted(slow), [SLOW_ONCE, SLOW_EVERY_TIME], slow)
        else:
            self.assertLessEqual({SLOW_ONCE, SLOW_EVERY_TIME}, set(slow), slow)
        self.assertGreaterEqual(slow[SLOW_EVERY_TIME], SLOW_MS)
        self.assertGreaterEqual(again[SLOW_EVERY_TIME], summary['slow_threshold_ms'], 'a weak sector: slow again')
        self.assertLess(again[SLOW_ONCE], summary['slow_threshold_ms'], 'a one-off: fast when read again')
        if exact_slow:
            self.assertEqual((summary['slow_repeatable'], summary['slow_one_off']), (1, 1))
            self.assertEqual(summary['slow_blocks'], 2)
            self.assertIn(summary['slowest_read_offset'], (SLOW_ONCE, SLOW_EVERY_TIME))

    def test_engine_finds_the_planted_ranges_to_the_block(self):
        started = time.monotonic()
        res = run([ENGINE, 'surface', self.sick.loop.node], check=False, timeout=120)
        took = time.monotonic() - started
        self.assertEqual(res.returncode, 0, res.stderr)
        result = json.loads(res.stdout)
        self.assert_planted(result, exact_slow=False)
        self.assertTrue(any(w.startswith('bad ranges: 2, ') for w in result['warnings']), result['warnings'])
        self.assertFalse(any('other I/O' in w for w in result['warnings']),
                         'the failed reads and re-reads are the scan\'s own I/O')
        print(f'\nengine: scan of 64 MiB with 2 bad ranges and 2 slow spots in {took:.2f} s', file=sys.stderr)

    def test_daemon_and_cli_as_a_user(self):
        # slow_ms: above anything a loaded test machine does by itself.
        res = self.ctl('run', 'surface', self.sick.loop.node, '--json', f'slow_ms={SLOW_MS // 2}')
        self.assertEqual(res.returncode, EXIT_BAD_BLOCKS, res.stderr)
        self.assert_planted(json.loads(res.stdout))
        # The table says it in words, every range named by its blocks.
        self.sick.plant_faults(faults())
        res = self.ctl('run', 'surface', self.sick.loop.node, f'slow_ms={SLOW_MS // 2}')
        self.assertEqual(res.returncode, EXIT_BAD_BLOCKS, res.stderr)
        first, length = BAD[0]
        self.assertIn('⚠ 2 bad ranges, ', res.stdout)
        self.assertIn(f'bad: LBA {first // SECTOR}–{(first + length) // SECTOR - 1} (4 KiB)', res.stdout)
        self.assertIn('a weak sector', res.stdout)
        self.assertIn('a one-off', res.stdout)
        self.assertNotIn('✓ no bad blocks', res.stdout)

    def test_a_clean_device_shows_none(self):
        res = self.ctl('run', 'surface', self.healthy.node, '--json', f'slow_ms={SLOW_MS // 2}')
        self.assertEqual(res.returncode, EXIT_OK, res.stderr)
        result = json.loads(res.stdout)
        self.assertEqual(result['summary']['bad_ranges'], 0)
        self.assertEqual(result['summary']['slow_blocks'], 0)
        # Nothing found, nothing declared: a healthy scan has only its map.
        self.assertIsNone(series(result, 'bad'))
        self.assertIsNone(series(result, 'slow'))
        res = self.ctl('run', 'surface', self.healthy.node, f'slow_ms={SLOW_MS // 2}')
        self.assertEqual(res.returncode, EXIT_OK, res.stderr)
        self.assertIn('✓ no bad blocks; no slow spots', res.stdout)

    def test_the_cap_stops_a_scan_of_a_dead_region(self):
        # From 16 MiB on nothing reads: 48 MiB, far beyond 1 % of the disk.
        self.sick.plant_faults([f'eio {16 * MiB} {48 * MiB}'])
        started = time.monotonic()
        res = self.ctl('run', 'surface', self.sick.loop.node, '--json')
        took = time.monotonic() - started
        self.assertEqual(res.returncode, EXIT_BAD_BLOCKS, res.stderr)
        result = json.loads(res.stdout)
        summary = result['summary']
        self.assertEqual(summary['stopped_reason'], 'max-bad-percent')
        self.assertEqual(summary['first_bad_lba'], 16 * MiB // SECTOR)
        # It stopped at the first failed MiB (1.5 % of 64 MiB), not 48 reads later.
        self.assertEqual(summary['failed_reads'], 1)
        self.assertTrue(any('stopped by itself' in w for w in result['warnings']), result['warnings'])
        print(f'\ncap: stopped after {summary["failed_reads"]} failed read in {took:.2f} s', file=sys.stderr)
        # Told to go on, the same scan reads to the end: one range, exact.
        res = self.ctl('run', 'surface', self.sick.loop.node, '--json', 'max_bad_percent=100',
                       'reread_limit=100000')
        result = json.loads(res.stdout)
        self.assertEqual(result['summary']['bad_bytes'], 48 * MiB)
        self.assertEqual([tuple(map(int, p)) for p in series(result, 'bad')], [(16 * MiB, 48 * MiB)])

    def test_bad_parameters_get_named_errors(self):
        for key, value in (('max_bad_percent', 0.0), ('max_bad_percent', 101.0), ('max_bad_ranges', 0),
                           ('reread_limit', 100001), ('slow_ms', -1.0)):
            with self.subTest(key=key, value=value):
                sig = 'd' if isinstance(value, float) else 't'
                if key == 'slow_ms':
                    sig = 'd'
                err = self.stack.call_error(MANAGER_PATH, MANAGER_IFACE, 'StartBenchmark', 'osa{sv}',
                                            self.healthy.object_path, 'surface', {key: (sig, value)},
                                            user='dbtest-in')
                self.assertDBusError(err, 'InvalidArgument')
                self.assertIn(key, err.message)


if __name__ == '__main__':
    harness.main()
