#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""SNIA's steady-state test ("steady-state", issue 43 part 3) through the
real daemon, on our own loop devices.

A loop device over a file takes discards (the loop punches holes in its
file): the purge must reach the block layer (its discard counter) for the
range only, and everything past the range stays as it was. A loop device
over the FUSE file of tests/integration/stalling-fuse, told to slow every
write down once a set amount has been written ("slow-after": a drive whose
clean blocks ran out), must be found steady after the slowdown, its fresh
figure (round 1) well above the steady one, with SNIA's window drawn as the
band around the last rounds. Bad input is refused with named errors and
nothing written."""

import os

import harness
from harness import JOB_IFACE
from loop_devices import sha256_of

KiB, MiB = 1024, 1024 * 1024
RANGE = 8 * MiB
# The slowed drive's writes wait this long each: some 200 IOPS whatever
# the machine, against thousands before the slowdown.
SLOW_MS = 4


def region_digest(path, start, length):
    import hashlib
    with open(path, 'rb') as f:
        f.seek(start)
        return hashlib.sha256(f.read(length)).hexdigest()


def discarded_sectors(node):
    """Sectors the block layer has discarded on NODE (its stat's 14th field)."""
    with open(f'/sys/block/{os.path.basename(node)}/stat') as f:
        return int(f.read().split()[13])


class SteadyStateTest(harness.LoopDeviceTestCase):

    @classmethod
    def prepare(cls):
        super().prepare()
        cls.slowing = cls.stack.attach_stalling_disk()

    def run_job(self, node_path, options, timeout=180):
        with self.stack.client('dbtest-in', (node_path, 'steady-state', options)) as c:
            if c.error:
                return None, c.error
            done = c.wait_completed(timeout)
            return done, self.job_props(c.job)

    def series(self, job_props, job):
        """{name: [(x, y)]} of a finished job, fetched with GetSamples."""
        names = [s[0] for s in job_props['Series']]
        _next, samples = self.stack.call(job, JOB_IFACE, 'GetSamples', 't', 0)
        points = {name: [] for name in names}
        for index, x, y in samples:
            points[names[index]].append((x, y))
        return points

    def confirmed(self, loop, **options):
        return dict({'mode': ('s', 'destroy'), 'confirm': ('s', loop.node)}, **options)

    def test_a_slowing_drive_reaches_steady_state_after_its_fresh_rounds(self):
        loop = self.slowing.loop
        # Twice the range preconditioned at full speed, then 1 MiB more of
        # round 1, then every write slow.
        self.slowing.plant_faults([f'slow-after {2 * RANGE + MiB} {SLOW_MS}'])
        try:
            options = self.confirmed(loop, size=('t', RANGE), round_s=('d', 0.4), max_rounds=('t', 30))
            with self.stack.client('dbtest-in', (loop.object_path, 'steady-state', options)) as c:
                self.assertIsNone(c.error)
                done = c.wait_completed(180)
                props = self.job_props(c.job)
                self.assertEqual(done['completed'], 'finished', done)
                drawn = self.series(props, c.job)
        finally:
            self.slowing.plant_faults([])
        summary = props['Summary']
        print('slowing drive:', {k: v for k, v in summary.items() if not k.startswith(('latency', 'issued',
                                                                                         'device_', 'backing'))},
              props['Notes'], flush=True)
        self.assertEqual(summary['mode'], 'destroy')
        self.assertEqual(summary['precondition_bytes'], 2 * RANGE)
        self.assertGreater(summary['precondition_mb_s'], 0)
        # The FUSE file cannot punch holes, but a loop device answers a
        # discard its file refuses as done (the kernel's loop driver), so
        # the purge is what the device said: done.
        self.assertTrue(summary['purged'])
        self.assertEqual(summary['purge_method'], 'discard')
        # Steady once slow: the window starts after the fresh round, and
        # the fresh figure is well above the steady one.
        self.assertTrue(summary['steady_state'], summary)
        first = summary['steady_first_round']
        self.assertGreaterEqual(first, 2)
        self.assertEqual(summary['rounds'], first + 4)
        self.assertEqual(summary['steady_window_rounds'], 5)
        self.assertGreater(summary['fresh_iops'], 1.5 * summary['steady_iops'], summary)
        # 4 ms a write, one at a time (the FUSE server is single-threaded).
        self.assertLess(summary['steady_iops'], 1000 / SLOW_MS)
        self.assertLessEqual(summary['window_excursion_percent'], 20)
        self.assertLessEqual(summary['window_slope_percent'], 10)
        self.assertEqual(summary['sync_rule'], 'end')
        self.assertEqual(summary['syncs'], 1 + summary['rounds'])
        # IOPS per round, the band of ±10 % around the window's mean over
        # exactly its rounds, and the preconditioning's line.
        self.assertEqual([x for x, _ in drawn['iops']], list(range(1, summary['rounds'] + 1)))
        window = list(range(first, first + 5))
        self.assertEqual([x for x, _ in drawn['iops-min']], window)
        self.assertEqual([x for x, _ in drawn['iops-max']], window)
        for (_, low), (_, high) in zip(drawn['iops-min'], drawn['iops-max']):
            self.assertAlmostEqual(low, 0.9 * summary['steady_iops'], delta=1e-6 * low)
            self.assertAlmostEqual(high, 1.1 * summary['steady_iops'], delta=1e-6 * high)
        self.assertEqual(len(drawn['latency_p99']), summary['rounds'])
        self.assertGreaterEqual(len(drawn['precondition']), 1)

    def test_the_purge_discards_the_range_and_nothing_past_it(self):
        before = discarded_sectors(self.loop.node)
        tail = region_digest(self.loop.backing, RANGE, self.loop.size - RANGE)
        start = region_digest(self.loop.backing, 0, RANGE)
        done, props = self.run_job(self.loop.object_path,
                                   self.confirmed(self.loop, size=('t', RANGE), round_s=('d', 0.1),
                                                  max_rounds=('t', 6)))
        self.assertIsNotNone(done, props)
        self.assertEqual(done['completed'], 'finished', done)
        summary = props['Summary']
        self.assertTrue(summary['purged'], summary)
        self.assertEqual(summary['purge_method'], 'discard')
        self.assertGreater(summary['discard_max_bytes'], 0)
        self.assertGreater(summary['discard_granularity'], 0)
        # The block layer saw the range discarded, not more.
        self.assertEqual(discarded_sectors(self.loop.node) - before, RANGE // 512)
        self.assertEqual(summary['written_range_bytes'], RANGE)
        self.assertEqual(region_digest(self.loop.backing, RANGE, self.loop.size - RANGE), tail,
                         'written or discarded past size')
        self.assertNotEqual(region_digest(self.loop.backing, 0, RANGE), start)
        self.assertLessEqual(summary['rounds'], 6)
        self.assertIn('fresh_iops', summary)
        if not summary['steady_state']:
            self.assertTrue(any(n.startswith('steady state not reached in 6 rounds') for n in props['Notes']),
                            props['Notes'])

    def test_bad_input_is_refused_by_name_and_nothing_written(self):
        before = sha256_of(self.loop.backing)
        discards = discarded_sectors(self.loop.node)
        for options, prefix in (
                ({}, 'mode:'),  # no consent: the kind only erases
                ({'mode': ('s', 'destroy')}, 'confirm:'),
                ({'mode': ('s', 'destroy'), 'confirm': ('s', '/dev/sda')}, 'confirm:'),
                (self.confirmed(self.loop, max_rounds=('t', 0)), 'max_rounds:'),
                (self.confirmed(self.loop, round_s=('d', 0.0)), 'round_s:'),
                (self.confirmed(self.loop, precondition_bytes=('t', self.loop.size + 512)),
                 'precondition_bytes:'),
                (self.confirmed(self.loop, precondition_bytes=('t', 1000)), 'precondition_bytes:'),
                (self.confirmed(self.loop, size=('t', self.loop.size + MiB)), 'size:'),
                (self.confirmed(self.loop, read_percent=('t', 101)), 'read_percent:'),
                # 1024 requests of 16 MiB in flight: 16 GiB of buffers.
                (self.confirmed(self.loop, block_size=('t', 16 * MiB), queue_depth=('t', 1024)), 'queue_depth:')):
            with self.subTest(options=options):
                _, error = self.run_job(self.loop.object_path, options)
                self.assertDBusError(error, 'InvalidArgument', prefix)
        self.assertEqual(sha256_of(self.loop.backing), before, 'a refused run wrote')
        self.assertEqual(discarded_sectors(self.loop.node), discards, 'a refused run discarded')


if __name__ == '__main__':
    harness.main()
