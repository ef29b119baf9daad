#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The burst rate (issue 41's proof kind, HD Tune's "burst rate"): one small
region read again and again, so the drive's cache answers. On a real loop
device through the real daemon, bus, polkitd and udisksd, as a test user,
from diskbenchctl and from the bus alone: MB/s over the measured time in
50 ms windows, every measured read counted by the block layer and none
outside the region, the CLI's headline, named errors for bad parameters."""

import json
import os

import harness
from harness import MANAGER_IFACE, MANAGER_PATH

CTL = os.environ.get('DISKBENCHCTL')
MiB = 1024 * 1024
SIZE = 64 * MiB


def series(result, name):
    return next(s['points'] for s in result['series'] if s['name'] == name)


class BurstTest(harness.IntegrationTestCase):

    @classmethod
    def prepare(cls):
        if not CTL or not os.access(CTL, os.X_OK):
            raise AssertionError(f'{CTL!r} is not built (DISKBENCHCTL)')
        cls.loop = cls.stack.attach_loop(size=SIZE)
        cls.home = harness.user_home(cls.stack)

    def ctl(self, *args):
        return harness.run_ctl(self.stack, self.home, *args)

    def test_windows_over_the_measured_time_and_every_read_counted(self):
        res = self.ctl('run', 'burst', self.loop.node, 'duration_s=0.5', 'warmup_s=0.1', '--json', '--no-save')
        self.assertEqual(res.returncode, 0, res.stderr)
        result = json.loads(res.stdout)
        summary = result['summary']
        self.assertEqual(summary['region_size'], MiB)
        self.assertGreater(summary['burst_mb_s'], 0)
        self.assertLessEqual(summary['throughput_min_mb_s'], summary['throughput_max_mb_s'])
        # Windows of 50 ms over 0.5 s: about ten, each at its end time.
        points = series(result, 'throughput')
        self.assertGreaterEqual(len(points), 5)
        self.assertLessEqual(len(points), 11)
        times = [x for x, _ in points]
        self.assertEqual(times, sorted(times))
        self.assertGreaterEqual(times[0], 0.045)
        self.assertLess(times[-1], 0.5 + 0.1)
        rates = [y for _, y in points]
        self.assertEqual(min(rates), summary['throughput_min_mb_s'])
        self.assertEqual(max(rates), summary['throughput_max_mb_s'])
        # The measured reads (not the warm-up's) are what the block layer
        # saw; the default 128 KiB reads fill the 1 MiB region 8 times a lap.
        self.assertEqual(summary['issued_read_bytes'], summary['bytes'])
        self.assertEqual(summary['bytes'] % (128 * 1024), 0)
        self.assertGreater(summary['bytes'], MiB)
        self.assertGreater(summary['latency_mean_us'], 0)

    def test_the_cli_says_the_burst_rate(self):
        res = self.ctl('run', 'burst', self.loop.node, 'duration_s=0.2', 'warmup_s=0', '--no-save')
        self.assertEqual(res.returncode, 0, res.stderr)
        # A loop device has no link, so no limit beside it.
        self.assertRegex(res.stdout, r'\nburst [\d.]+ [MG]B/s')
        self.assertNotIn('link allows', res.stdout)

    def test_listed_for_busctl_with_its_parameters(self):
        [kinds] = self.stack.call(MANAGER_PATH, MANAGER_IFACE, 'ListBenchmarks')
        burst = next(k for k in kinds if k[0] == 'burst')
        self.assertEqual(burst[1], 'device')
        params = {p[0]: p for p in burst[4]}
        self.assertEqual(params['region_size'][3], MiB)
        self.assertEqual(params['block_size'][3], 128 * 1024)
        self.assertEqual(params['queue_depth'][3], 4)
        # Started and finished from the bus alone, as busctl would.
        job = self.stack.start_benchmark(self.loop, 'burst', {'duration_s': ('d', 0.1), 'warmup_s': ('d', 0.0),
                                                              'detach': ('b', True)})
        self.assertEqual(self.wait_job_state(job, harness.FINAL_STATES, 60), 'finished')

    def test_bad_parameters_get_named_errors(self):
        # A region larger than a cache holds measures the medium, not the link.
        for key, value in (('region_size', 65 * MiB), ('region_size', 0), ('queue_depth', 0),
                           ('queue_depth', 257), ('block_size', 32 * MiB)):
            with self.subTest(key=key, value=value):
                err = self.stack.call_error(MANAGER_PATH, MANAGER_IFACE, 'StartBenchmark', 'osa{sv}',
                                            self.loop.object_path, 'burst', {key: ('t', value)}, user='dbtest-in')
                self.assertDBusError(err, 'InvalidArgument')
                self.assertIn(key, err.message)


if __name__ == '__main__':
    harness.main()
