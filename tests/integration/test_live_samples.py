#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Live samples of a slow surface map (API 0.5): while a bucket that takes
more than a second fills, the daemon sends partial points in the series
"NAME.partial" (so busctl users tell them from final ones by the series
name), each bucket's final point comes after its partial ones at the same x,
and Samples signals stay at 20 a second or fewer."""

import sys

import harness
from harness import JOB_IFACE

MIB = 1024 * 1024
LOOP_SIZE = 48 * MIB
BUCKETS = 2
# 512-byte reads one at a time: a loop device serves tens of MB/s at most
# that way, so each 24 MiB bucket takes seconds (checked below).
OPTIONS = {'buckets': ('t', BUCKETS), 'block_size': ('t', 512)}


class LiveSamplesTest(harness.IntegrationTestCase):

    @classmethod
    def prepare(cls):
        cls.loop = cls.stack.attach_loop(size=LOOP_SIZE)

    def test_slow_surface_buckets_send_marked_partial_points(self):
        match = "type='signal',path_namespace='/org/diskbench/DiskBench1/jobs'"
        with self.stack.monitor(match) as mon, self.stack.client(
                'dbtest-in', (self.loop.object_path, 'surface', OPTIONS)) as c:
            self.assertIsNone(c.error)
            done = c.wait_completed(240)
            self.assertEqual(done['completed'], 'finished', done)
            mon.wait_for(lambda m: m['path'] == c.job and m['member'] == 'Completed', 10,
                         'Completed on the monitor')
            signals = mon.matching(lambda m: m['path'] == c.job and m['member'] == 'Samples')

            # The precondition of the scenario: a bucket took over a second.
            summary = harness.unwrap(self.stack.get_property(c.job, JOB_IFACE, 'Summary'))
            self.assertEqual(summary['buckets'], BUCKETS)
            bucket_s = LOOP_SIZE / BUCKETS / (summary['throughput_mb_s'] * 1e6)
            self.assertGreater(bucket_s, 1.0, f'a bucket took only {bucket_s:.2f} s: the test needs slow buckets')

            # The marker, as busctl shows it: the series' names.
            series = self.stack.get_property(c.job, JOB_IFACE, 'Series')
            names = [s[0] for s in series]
            for name in ('mean', 'min', 'max'):
                self.assertIn(name + '.partial', names)
                final, partial = series[names.index(name)], series[names.index(name + '.partial')]
                self.assertEqual(final[1:], partial[1:], 'a partial series has its final series\' units')
            out = self.stack.busctl('get-property', harness.BUS_NAME, c.job, JOB_IFACE, 'Series',
                                    user='dbtest-out', check=True).stdout
            self.assertIn('"mean.partial"', out)

            # Contiguous batches; every partial point is at a bucket's x and
            # followed, later, by that bucket's final point at the same x.
            samples, next_index = [], 0
            for first_index, batch in (m['payload']['data'] for m in signals):
                self.assertEqual(first_index, next_index)
                samples += batch
                next_index += len(batch)
            bucket_x = [i * LOOP_SIZE // BUCKETS for i in range(BUCKETS)]
            partial_per_bucket = {}
            for name in ('mean', 'min', 'max'):
                final_i, partial_i = names.index(name), names.index(name + '.partial')
                finals = [(i, x) for i, (s, x, _y) in enumerate(samples) if s == final_i]
                self.assertEqual([x for _i, x in finals], bucket_x)
                final_at = {x: i for i, x in finals}
                for i, (s, x, y) in enumerate(samples):
                    if s != partial_i:
                        continue
                    self.assertIn(x, final_at, f'partial point at {x} is at no bucket')
                    self.assertLess(i, final_at[x], 'a partial point came after its bucket\'s final point')
                    self.assertGreater(y, 0)
                    partial_per_bucket.setdefault((name, x), 0)
                    partial_per_bucket[(name, x)] += 1
            for x in bucket_x:
                count = partial_per_bucket.get(('mean', x), 0)
                # One per 0.2 s and 1 % of the bucket (the first comes after
                # both), at most 100 a bucket: half of that at least, under load.
                expected = min(bucket_s / 0.2, 100)
                self.assertGreaterEqual(count, expected / 2 - 1,
                                        f'bucket at {x}: {count} partial points in {bucket_s:.1f} s')
                self.assertLessEqual(count, 100)

            # Partial points are samples like others: GetSamples gives them again.
            fetched_next, fetched = self.stack.call(c.job, JOB_IFACE, 'GetSamples', 't', 0, user='dbtest-in')
            self.assertEqual(fetched_next, next_index)
            self.assertEqual([tuple(f) for f in fetched], [tuple(s) for s in samples])

            # The signal cap holds with partial points flowing.
            times = sorted(m['timestamp-realtime'] / 1e6 for m in signals)
            span = times[-1] - times[0]
            rate = (len(times) - 1) / span if span > 0 else 0
            print(f'\nsurface, {bucket_s:.1f} s a bucket: {len(times)} Samples signals in {span:.1f} s '
                  f'= {rate:.1f}/s', file=sys.stderr)
            self.assertLessEqual(len(times) - 2, 20 * span + 1)
            for i, t in enumerate(times):
                in_window = sum(1 for u in times[i:] if u < t + 1.0)
                self.assertLessEqual(in_window, 23, f'{in_window} Samples signals within 1 s')


if __name__ == '__main__':
    harness.main()
