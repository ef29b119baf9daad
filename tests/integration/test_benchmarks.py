#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Read benchmarks run by an allowed user: completion, job properties, summary,
batched Samples signals against GetSamples(), DeviceBusy, detached jobs."""

import math
import pwd
import time

import harness
from harness import (DEVICE_IFACE, FINAL_STATES, JOB_IFACE, MANAGER_IFACE, MANAGER_PATH, SEEK_LONG,
                     SEEK_QUICK, wait_until)



# A seek's latency distribution (series "cdf", API 0.11): 19 quantiles after its reads.
CDF_POINTS = 19

class BenchmarksTest(harness.LoopDeviceTestCase):

    def test_list_benchmarks(self):
        kinds = self.stack.call(MANAGER_PATH, MANAGER_IFACE, 'ListBenchmarks',
                                user='dbtest-out')[0]
        by_kind = {k[0]: k for k in kinds}
        targets = {}
        for kind, target, *_ in kinds:
            targets.setdefault(target, set()).add(kind)
        self.assertEqual(targets, {
            'device': {'overview', 'seek', 'random', 'sequential', 'surface', 'block', 'profile', 'qd-sweep',
                       'burst'},
            'device-write': {'device-write', 'device-write-sweep', 'sustained-write', 'steady-state',
                             'verify-capacity', 'burn-in'},
            'directory': {'file-rw', 'write-sweep', 'mixed-load', 'structure', 'small-files', 'file-profile',
                          'file-qd-sweep'},
        })
        for kind, target, title, description, params in kinds:
            with self.subTest(kind=kind):
                self.assertTrue(title and description)
                self.assertTrue(params)
                for key, ptype, pdesc, default in params:
                    self.assertIn(ptype, ('boolean', 'unsigned', 'number', 'string'), key)
                    self.assertTrue(pdesc, key)
                    python_type = {'boolean': bool, 'unsigned': int, 'number': (int, float),
                                   'string': str}[ptype]
                    self.assertIsInstance(default, python_type, key)
        seek = {p[0]: p for p in by_kind['seek'][4]}
        self.assertEqual(seek['count'][1], 'unsigned')

    def test_seek_runs_to_completion(self):
        uid = pwd.getpwnam('dbtest-in').pw_uid
        with self.stack.client('dbtest-in', (self.loop.object_path, 'seek', SEEK_QUICK)) as c:
            self.assertIsNone(c.error)
            self.assertRegex(c.job, r'^/org/diskbench/DiskBench1/jobs/\d+$')
            done = c.wait_completed(60)
            self.assertEqual(done['completed'], 'finished', done)
            self.assertEqual(done['error'], '')

            props = self.job_props(c.job)
            self.assertEqual(props['State'], 'finished')
            self.assertEqual(props['Kind'], 'seek')
            self.assertEqual(props['Device'], self.loop.object_path)
            self.assertEqual(props['Owner'], uid)
            self.assertEqual(props['Error'], '')
            self.assertEqual(props['Progress'], 1.0)
            self.assertIn(props['Backend'], ('io_uring', 'psync'))
            self.assertGreater(props['StartedAt'], 0)
            self.assertGreaterEqual(props['FinishedAt'], props['StartedAt'])
            # Parameters: what was given plus every default.
            self.assertEqual(props['Parameters']['count'], 200)
            for key in ('block_size', 'seed', 'backend'):
                self.assertIn(key, props['Parameters'])
            self.assertEqual(props['DeviceInfo']['node'], self.loop.node)
            self.assertEqual(props['DeviceInfo']['size'], self.loop.size)
            self.assertEqual(props['SampleCount'], 200 + CDF_POINTS)
            self.assertTrue(props['Series'])
            self.assertIn(c.job, self.stack.get_property(MANAGER_PATH, MANAGER_IFACE, 'Jobs'))

            self.check_seek_summary(props['Summary'], 200)
            self.assertEqual(self.stack.get_property(self.loop.object_path, DEVICE_IFACE, 'Job'),
                             '/')

    def check_seek_summary(self, summary, count):
        self.assertEqual(summary['reads'], count)
        lat = {k: summary[f'latency_{k}_us'] for k in ('min', 'p50', 'p99', 'max')}
        for key, value in lat.items():
            self.assertTrue(math.isfinite(value) and value > 0, f'{key} = {value}')
        self.assertLessEqual(lat['min'], lat['p50'])
        self.assertLessEqual(lat['p50'], lat['p99'])
        self.assertLessEqual(lat['p99'], lat['max'])

    def test_samples_are_batched_and_match_get_samples(self):
        count = 20000  # about 2 s on a loop device: several Samples signals
        total = count + CDF_POINTS  # the reads, then their latency distribution
        match = "type='signal',path_namespace='/org/diskbench/DiskBench1/jobs'"
        with self.stack.monitor(match) as mon, self.stack.client(
                'dbtest-in', (self.loop.object_path, 'seek', {'count': ('t', count)})) as c:
            self.assertIsNone(c.error)
            done = c.wait_completed(120)
            self.assertEqual(done['completed'], 'finished', done)
            completed = mon.wait_for(lambda m: m['path'] == c.job and m['member'] == 'Completed',
                                     10, 'Completed on the monitor')
            signals = mon.matching(lambda m: m['path'] == c.job and m['member'] == 'Samples')
            # Every Samples signal comes before Completed.
            self.assertLess(max(m['timestamp-realtime'] for m in signals),
                            completed['timestamp-realtime'] + 1)

            # Contiguous indices from 0, several points per signal.
            batches = [m['payload']['data'] for m in signals]
            next_index = 0
            points = []
            for first_index, samples in batches:
                self.assertEqual(first_index, next_index, 'gap or overlap between Samples')
                self.assertTrue(samples, 'empty Samples signal')
                next_index += len(samples)
                points += samples
            self.assertEqual(next_index, total)
            self.assertGreaterEqual(len(batches), 3, 'expected several signals over ~2 s')
            self.assertGreaterEqual(count / len(batches), 5, 'signals should carry batches')

            # At most 20 signals a second (one more for the final flush and for
            # delivery jitter at the monitor); the same for Progress changes.
            self.assertMaxRate(signals, 'Samples')
            progress = mon.matching(
                lambda m: m['path'] == c.job and m['member'] == 'PropertiesChanged'
                and 'Progress' in m['payload']['data'][1])
            self.assertTrue(progress, 'Progress changes are not signalled')
            self.assertMaxRate(progress, 'Progress changes')
            # The end is signalled as a property change too.
            self.assertTrue(mon.matching(
                lambda m: m['path'] == c.job and m['member'] == 'PropertiesChanged'
                and harness.unwrap(m['payload']['data'][1]).get('State') == 'finished'))

            # The client saw the same batches.
            self.assertEqual([s[0] for s in c.samples_signals()], [b[0] for b in batches])

            # GetSamples(0) returns exactly the signalled points.
            next_idx, fetched = self.stack.call(c.job, JOB_IFACE, 'GetSamples', 't', 0,
                                                user='dbtest-in')
            self.assertEqual(next_idx, total)
            self.assertEqual(len(fetched), len(points))
            for i, (a, b) in enumerate(zip(fetched, points)):
                if a[0] != b[0] or not math.isclose(a[1], b[1], rel_tol=1e-12) \
                        or not math.isclose(a[2], b[2], rel_tol=1e-12):
                    self.fail(f'sample {i}: GetSamples {a} != signalled {b}')
            # And from the middle.
            next_idx, tail = self.stack.call(c.job, JOB_IFACE, 'GetSamples', 't', total - 7)
            self.assertEqual((next_idx, len(tail)), (total, 7))
            self.assertEqual(self.stack.get_property(c.job, JOB_IFACE, 'SampleCount'), total)

    def assertMaxRate(self, messages, what, per_second=20):
        """At most per_second signals a second, as seen by the monitor.

        The monitor's timestamps are delivery times: under load the bus may
        hand over two signals at once, so allow for that jitter in short
        windows and check the exact rate over the whole run. The first and
        the last (final flush at completion) are not rate-limited.
        """
        times = sorted(m['timestamp-realtime'] / 1e6 for m in messages)
        if len(times) < 3:
            return
        span = times[-1] - times[0]
        self.assertLessEqual(len(times) - 2, per_second * span + 1,
                             f'{len(times)} {what} in {span:.2f} s')
        for i, t in enumerate(times):
            in_window = sum(1 for u in times[i:] if u < t + 1.0)
            self.assertLessEqual(in_window, per_second + 3, f'{in_window} {what} within 1 s')

    def test_sequential_and_profile_complete(self):
        cases = [
            ('sequential', {'size': ('t', 16 * 1024 * 1024), 'block_size': ('t', 1024 * 1024)},
             'throughput_mb_s'),
            ('profile', {'tests': ('s', 'RND4K Q1T1'), 'duration_s': ('d', 0.5),
                         'warmup_s': ('d', 0)}, None),
        ]
        for kind, options, key in cases:
            with self.subTest(kind=kind), self.stack.client(
                    'dbtest-in', (self.loop.object_path, kind, options)) as c:
                self.assertIsNone(c.error)
                done = c.wait_completed(60)
                self.assertEqual(done['completed'], 'finished', done)
                summary = self.stack.get_property(c.job, JOB_IFACE, 'Summary')
                self.assertTrue(summary)
                if key:
                    self.assertGreater(summary[key], 0)

    def test_passes_over_the_bus(self):
        """passes=3: each pass's series, then the median under the plain name,
        and the spread keys in Summary; out-of-range passes is InvalidArgument
        naming the key, and a kind without passes refuses it."""
        options = {'tests': ('s', 'SEQ1M Q2T1'), 'duration_s': ('d', 0.3), 'warmup_s': ('d', 0),
                   'passes': ('t', 3)}
        with self.stack.client('dbtest-in', (self.loop.object_path, 'profile', options)) as c:
            self.assertIsNone(c.error)
            done = c.wait_completed(60)
            self.assertEqual(done['completed'], 'finished', done)
            names = [s[0] for s in self.stack.get_property(c.job, JOB_IFACE, 'Series')]
            for k in (1, 2, 3):
                self.assertIn(f'throughput.pass{k}', names)
            self.assertIn('throughput', names)
            self.assertGreater(names.index('throughput'), names.index('throughput.pass3'))
            summary = self.stack.get_property(c.job, JOB_IFACE, 'Summary')
            self.assertEqual(summary['passes'], 3)
            key = 'seq1m_q2t1.throughput_mb_s'
            self.assertLessEqual(summary[key + '_min'], summary[key])
            self.assertLessEqual(summary[key], summary[key + '_max'])
            self.assertGreaterEqual(summary[key + '_cv_percent'], 0)
        for bad in (0, 101):
            err = self.stack.call_error(MANAGER_PATH, MANAGER_IFACE, 'StartBenchmark', 'osa{sv}',
                                        self.loop.object_path, 'seek', {'passes': ('t', bad)},
                                        user='dbtest-in')
            self.assertDBusError(err, 'InvalidArgument', 'passes')
        err = self.stack.call_error(MANAGER_PATH, MANAGER_IFACE, 'StartBenchmark', 'osa{sv}',
                                    self.loop.object_path, 'sustained-write', {'passes': ('t', 2)},
                                    user='dbtest-in')
        self.assertDBusError(err, 'InvalidArgument', 'passes')

    def test_second_job_on_device_is_busy(self):
        with self.stack.client('dbtest-in', (self.loop.object_path, 'seek', SEEK_LONG)) as c:
            self.assertIsNone(c.error)
            self.assertEqual(self.stack.get_property(self.loop.object_path, DEVICE_IFACE, 'Job'),
                             c.job)
            for user in ('dbtest-in', 'root'):
                err = self.stack.call_error(MANAGER_PATH, MANAGER_IFACE, 'StartBenchmark',
                                            'osa{sv}', self.loop.object_path, 'seek',
                                            SEEK_QUICK, user=user)
                self.assertDBusError(err, 'DeviceBusy')
            self.assertEqual(self.stack.get_property(c.job, JOB_IFACE, 'State'), 'running')
            self.stack.call(c.job, JOB_IFACE, 'Cancel', 'a{sv}', {}, user='dbtest-in')
            self.assertEqual(self.wait_job_state(c.job, FINAL_STATES, 10), 'cancelled')
        wait_until(lambda: self.stack.get_property(self.loop.object_path, DEVICE_IFACE, 'Job')
                   == '/', 10, what='the device to be free again')

    def test_jobs_on_two_devices_run_together(self):
        other = self.stack.attach_loop(size=16 * 1024 * 1024)
        try:
            with self.stack.client('dbtest-in', (self.loop.object_path, 'seek', SEEK_LONG)) as a, \
                    self.stack.client('dbtest-in', (other.object_path, 'seek', SEEK_LONG)) as b:
                self.assertIsNone(a.error)
                self.assertIsNone(b.error)
                self.assertNotEqual(a.job, b.job)
                jobs = self.stack.get_property(MANAGER_PATH, MANAGER_IFACE, 'Jobs')
                self.assertIn(a.job, jobs)
                self.assertIn(b.job, jobs)
                for c in (a, b):
                    self.assertEqual(self.stack.get_property(c.job, JOB_IFACE, 'State'), 'running')
                    self.stack.call(c.job, JOB_IFACE, 'Cancel', 'a{sv}', {}, user='dbtest-in')
                    self.assertEqual(c.wait_completed(10)['completed'], 'cancelled')
        finally:
            self.stack.detach_loop(other)

    def test_detached_job_outlives_busctl(self):
        # busctl disconnects right after the reply; with "detach" the job goes on.
        options = {'count': ('t', 5000), 'detach': ('b', True)}
        job = self.stack.start_benchmark(self.loop, 'seek', options, user='dbtest-in')
        self.assertEqual(self.wait_job_state(job, FINAL_STATES, 60), 'finished')
        self.assertEqual(self.stack.get_property(job, JOB_IFACE, 'Summary')['reads'], 5000)

    def test_job_progress_while_running(self):
        with self.stack.client('dbtest-in', (self.loop.object_path, 'seek', SEEK_LONG)) as c:
            first = wait_until(lambda: self.stack.get_property(c.job, JOB_IFACE, 'Progress'),
                               10, what='progress')
            time.sleep(0.5)
            second = self.stack.get_property(c.job, JOB_IFACE, 'Progress')
            self.assertTrue(0 < first <= second < 1, (first, second))
            self.assertEqual(self.stack.get_property(c.job, JOB_IFACE, 'FinishedAt'), 0)
            self.assertEqual(self.stack.get_property(c.job, JOB_IFACE, 'Backend'), '')
            self.assertEqual(self.stack.get_property(c.job, JOB_IFACE, 'State'), 'running')


if __name__ == '__main__':
    harness.main()
