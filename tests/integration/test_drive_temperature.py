#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A drive's temperature on the bus: Device.Temperature/TemperatureSource,
and a job's "temperature" series and temperature_* summary keys.

No drive here has a sensor (loop devices have none, and the VM's own disk
must not be touched), so, as in test_drive_properties.py, python3-dbusmock
plays org.freedesktop.UDisks2 with Block objects for real loop devices we
attach, one of them on a Drive with a Drive.Ata SmartTemperature (all in
devtools/stack/mock_drive.py, with the planted slowdown). Changing that
value in the mock during a run must show in the job's series (the daemon
follows udisks' PropertiesChanged). polkitd and diskbenchd are real;
the hwmon sources are covered by the unit tests on a made-up sysfs.
"""

import harness
from harness import DEVICE_IFACE, JOB_IFACE, PROPERTIES_IFACE
from harness import wait_until
from mock_drive import MockDrive, add_mock_manager, sustained_write_with_planted_drop


class DriveTemperatureTest(harness.IntegrationTestCase):
    stack_options = {'udisks': 'mock'}

    @classmethod
    def prepare(cls):
        add_mock_manager(cls.stack)
        cls.hot_drive = MockDrive(cls.stack, cls.stack.attach_loop(), 'Warm_Disk_DBT0101', 41.0)
        cls.hot = cls.hot_drive.loop
        cls.cold = MockDrive(cls.stack, cls.stack.attach_loop(), 'No_Sensor_DBT0102').loop

    def device(self, loop):
        return self.stack.get_all(loop.object_path, DEVICE_IFACE)

    def samples(self, job):
        """Every sample of the job, paged as a client does."""
        out, next_index = [], 0
        while True:
            next_index, page = self.stack.call(job, JOB_IFACE, 'GetSampleRange', 'tu', next_index, 0,
                                               user='root')
            if not page:
                return out
            out.extend(page)

    def temperature_points(self, job):
        series = self.stack.get_property(job, JOB_IFACE, 'Series')
        names = [s[0] for s in series]
        if 'temperature' not in names:
            return None
        index = names.index('temperature')
        # Never the first series: clients draw that one as the benchmark's.
        self.assertGreater(index, 0, names)
        self.assertEqual(tuple(series[index][1:]), ('s', '°C', 'line'))
        return [(x, y) for (i, x, y) in self.samples(job) if i == index]

    def test_1_device_temperature_from_udisks_smart(self):
        props = self.device(self.hot)
        self.assertAlmostEqual(props['Temperature'], 41.0, places=3)
        self.assertEqual(props['TemperatureSource'], 'udisks-smart')
        props = self.device(self.cold)
        self.assertEqual(props['Temperature'], 0.0)
        self.assertEqual(props['TemperatureSource'], '')

    def test_2_job_series_follows_the_drive(self):
        self.hot_drive.set_temperature(41.0)
        job = self.stack.start_benchmark(self.hot, 'profile',
                                         {'tests': ('s', 'RND4K Q1T1'), 'duration_s': ('d', 4.0),
                                          'detach': ('b', True)}, user='root')
        # The reading at the start, then the drive warms up while it runs.
        wait_until(lambda: (p := self.temperature_points(job)) and len(p) >= 1, 10,
                   what='a first temperature point')
        self.hot_drive.set_temperature(52.5)  # and Device.Temperature follows
        self.assertEqual(self.wait_job_state(job), 'finished')

        points = self.temperature_points(job)
        self.assertIsNotNone(points, 'no temperature series')
        ys = [y for _, y in points]
        self.assertAlmostEqual(ys[0], 41.0, places=3)
        self.assertTrue(any(abs(y - 52.5) < 1e-6 for y in ys), ys)
        xs = [x for x, _ in points]
        self.assertEqual(xs, sorted(xs))
        self.assertLess(xs[0], 1.0)
        # About once a second over a run of 4 s, not 20 times a second.
        self.assertGreaterEqual(len(points), 3, points)
        self.assertLessEqual(len(points), 12, points)

        summary = self.stack.get_property(job, JOB_IFACE, 'Summary')
        self.assertEqual(summary['temperature_source'], 'udisks-smart')
        self.assertAlmostEqual(summary['temperature_start_c'], 41.0, places=3)
        self.assertAlmostEqual(summary['temperature_max_c'], 52.5, places=3)
        notes = self.stack.get_property(job, JOB_IFACE, 'Notes')
        self.assertNotIn('this device reports no temperature', notes)

    def test_3_job_without_sensor_says_so(self):
        job = self.stack.start_benchmark(self.cold, 'seek', {'count': ('t', 200), 'detach': ('b', True)},
                                         user='root')
        self.assertEqual(self.wait_job_state(job), 'finished')
        self.assertIsNone(self.temperature_points(job))
        summary = self.stack.get_property(job, JOB_IFACE, 'Summary')
        self.assertEqual(summary['temperature_source'], '')
        self.assertNotIn('temperature_start_c', summary)
        self.assertNotIn('temperature_max_c', summary)
        self.assertIn('this device reports no temperature',
                      self.stack.get_property(job, JOB_IFACE, 'Notes'))

    def test_4_device_signals_a_new_smart_temperature(self):
        self.stack.ensure_daemon()
        match = (f"type='signal',path='{self.hot.object_path}',"
                 f"interface='{PROPERTIES_IFACE}',member='PropertiesChanged'")

        def temperature_is(value):
            return lambda m: abs(harness.unwrap(m['payload']['data'][1]).get('Temperature', -1) - value) < 1e-6

        with self.stack.monitor(match) as mon:
            self.hot_drive.set_temperature(45.0, wait=False)
            mon.wait_for(temperature_is(45.0), 20, 'Temperature to change to 45 °C')

    def sustained_write_with_planted_drop(self, hot_at_drop):
        """The planted slowdown (mock_drive.py) on the warm drive: its job's
        Summary, Warnings and Notes."""
        job, state = sustained_write_with_planted_drop(self.hot_drive, hot_at_drop, 'DBT0101')
        self.assertEqual(state, 'finished')
        return (self.stack.get_property(job, JOB_IFACE, 'Summary'),
                self.stack.get_property(job, JOB_IFACE, 'Warnings'),
                self.stack.get_property(job, JOB_IFACE, 'Notes'))

    def test_5_hot_drop_is_throttling_cool_drop_is_cache_cliff(self):
        # udisks' SMART value has no threshold: the daemon takes 70 °C and says so.
        summary, warnings, notes = self.sustained_write_with_planted_drop(hot_at_drop=True)
        print('hot drive:', {k: v for k, v in summary.items() if k.startswith(('speed_drop', 'temperature'))},
              warnings, flush=True)
        self.assertEqual(summary.get('speed_drop_cause'), 'thermal-throttling', (summary, warnings, notes))
        self.assertGreaterEqual(summary['speed_drop_percent'], 25)
        self.assertAlmostEqual(summary['speed_drop_c'], 76.0, places=3)
        self.assertTrue(any(w.startswith('speed fell ') and w.endswith(
            ' at 76 °C (the drive gives no warning threshold; taken as 70 °C): thermal throttling')
            for w in warnings), warnings)

        summary, warnings, notes = self.sustained_write_with_planted_drop(hot_at_drop=False)
        print('cool drive:', {k: v for k, v in summary.items() if k.startswith(('speed_drop', 'temperature'))},
              notes, flush=True)
        self.assertEqual(summary.get('speed_drop_cause'), 'cache', (summary, warnings, notes))
        self.assertAlmostEqual(summary['speed_drop_c'], 45.0, places=3)
        self.assertTrue(any('at 45 °C' in n and 'SLC cache cliff' in n for n in notes), notes)
        self.assertFalse(any('thermal throttling' in w for w in warnings), warnings)


if __name__ == '__main__':
    harness.main()
