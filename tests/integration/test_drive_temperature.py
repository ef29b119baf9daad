#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A drive's temperature on the bus: Device.Temperature/TemperatureSource,
and a job's "temperature" series and temperature_* summary keys.

No drive here has a sensor (loop devices have none, and the VM's own disk
must not be touched), so, as in test_drive_properties.py, python3-dbusmock
plays org.freedesktop.UDisks2 with Block objects for real loop devices we
attach, one of them on a Drive with a Drive.Ata SmartTemperature. Changing
that value in the mock during a run must show in the job's series (the
daemon follows udisks' PropertiesChanged). polkitd and diskbenchd are real;
the hwmon sources are covered by the unit tests on a made-up sysfs.
"""

import mmap
import os
import threading
import time

import harness
from harness import DEVICE_IFACE, JOB_IFACE, PROPERTIES_IFACE, UDISKS_NAME
from harness import wait_until
from test_drive_properties import UDISKS_PATH, MOCK_IFACE, drive_properties, block_properties

ATA_IFACE = 'org.freedesktop.UDisks2.Drive.Ata'
KELVIN = 273.15


def ata_properties(celsius):
    """The Drive.Ata properties the daemon reads, as udisksd 2.9 names them."""
    return {
        'SmartSupported': ('b', True), 'SmartEnabled': ('b', True),
        'SmartUpdated': ('t', int(time.time())), 'SmartFailing': ('b', False),
        'SmartPowerOnSeconds': ('t', 3600), 'SmartTemperature': ('d', celsius + KELVIN),
        'SmartNumAttributesFailing': ('i', 0), 'SmartNumAttributesFailedInThePast': ('i', 0),
        'SmartNumBadSectors': ('x', 0), 'SmartSelftestStatus': ('s', 'success'),
        'SmartSelftestPercentRemaining': ('i', 0),
    }


def compete(node, n, stop):
    """Writes 1 MiB blocks with O_DIRECT over the first 32 MiB of NODE until
    STOP: another program's load on the device (the GIL is released in
    pwrite, so 8 of these are 8 writers)."""
    fd = os.open(node, os.O_WRONLY | os.O_DIRECT)
    buffer = mmap.mmap(-1, 1 << 20)  # page-aligned, as O_DIRECT needs
    try:
        offset = n * (4 << 20)
        while not stop.is_set():
            os.pwrite(fd, buffer, offset)
            offset = (offset + (7 << 20)) % (31 << 20)
    finally:
        buffer.close()
        os.close(fd)


class DriveTemperatureTest(harness.IntegrationTestCase):
    stack_options = {'udisks': 'mock'}

    @classmethod
    def prepare(cls):
        cls.add_mock_object(f'{UDISKS_PATH}/Manager', 'org.freedesktop.UDisks2.Manager',
                            {'Version': ('s', '2.9.4'), 'SupportedFilesystems': ('as', []),
                             'SupportedEncryptionTypes': ('as', []),
                             'DefaultEncryptionType': ('s', '')})
        cls.hot, cls.hot_drive = cls.add_drive('Warm_Disk_DBT0101', ata_properties(41.0))
        cls.cold, _ = cls.add_drive('No_Sensor_DBT0102', None)

    @classmethod
    def add_drive(cls, name, ata):
        loop = cls.stack.attach_loop()
        drive_path = f'{UDISKS_PATH}/drives/{name}'
        cls.add_mock_object(drive_path, 'org.freedesktop.UDisks2.Drive',
                            drive_properties(name, {'Model': ('s', name), 'Serial': ('s', name[-7:])},
                                             loop.size))
        if ata:
            cls.stack.call(drive_path, MOCK_IFACE, 'AddProperties', 'sa{sv}', ATA_IFACE, ata,
                           dest=UDISKS_NAME)
        cls.add_mock_object(loop.udisks_path, 'org.freedesktop.UDisks2.Block',
                            block_properties(loop, drive_path))
        return loop, drive_path

    @classmethod
    def add_mock_object(cls, path, iface, props):
        cls.stack.call(UDISKS_PATH, MOCK_IFACE, 'AddObject', 'ssa{sv}a(ssss)',
                       path, iface, props, [], dest=UDISKS_NAME)

    def set_mock_temperature(self, celsius):
        self.stack.call(self.hot_drive, MOCK_IFACE, 'UpdateProperties', 'sa{sv}', ATA_IFACE,
                        {'SmartTemperature': ('d', celsius + KELVIN)}, dest=UDISKS_NAME)

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
        self.set_mock_temperature(41.0)
        wait_until(lambda: abs(self.device(self.hot)['Temperature'] - 41.0) < 1e-6, 10,
                   what='Temperature back at 41 °C')
        job = self.stack.start_benchmark(self.hot, 'profile',
                                         {'tests': ('s', 'RND4K Q1T1'), 'duration_s': ('d', 4.0),
                                          'detach': ('b', True)}, user='root')
        # The reading at the start, then the drive warms up while it runs.
        wait_until(lambda: (p := self.temperature_points(job)) and len(p) >= 1, 10,
                   what='a first temperature point')
        self.set_mock_temperature(52.5)
        wait_until(lambda: abs(self.device(self.hot)['Temperature'] - 52.5) < 1e-6, 10,
                   what='Device.Temperature following udisks')
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
            self.set_mock_temperature(45.0)
            mon.wait_for(temperature_is(45.0), 20, 'Temperature to change to 45 °C')

    def sustained_write_with_planted_drop(self, hot_at_drop):
        """A sustained write on the warm mock drive, with real competing
        writes (8 threads, compete()) from the middle on: the same real
        slowdown either way; only the drive's temperature then differs."""
        self.set_mock_temperature(45.0)
        wait_until(lambda: abs(self.device(self.hot)['Temperature'] - 45.0) < 1e-6, 10,
                   what='Temperature at 45 °C')
        job = self.stack.start_benchmark(self.hot, 'sustained-write', {
            'mode': ('s', 'destroy'), 'confirm': ('s', 'DBT0101'), 'size': ('t', 32 * 1024 * 1024),
            'block_size': ('t', 1024 * 1024), 'queue_depth': ('t', 2), 'duration_s': ('d', 10.0),
            'window_s': ('d', 0.25), 'detach': ('b', True)}, user='root')
        wait_until(lambda: self.stack.get_property(job, JOB_IFACE, 'Progress') >= 0.5, 30,
                   what='the write half done')
        if hot_at_drop:
            # The drive is hot before the slowdown starts: wait until the
            # daemon has read 76 °C, or (on a slow, sanitized build) the
            # drop can begin while its last reading still says 45 °C.
            self.set_mock_temperature(76.0)
            wait_until(lambda: abs(self.device(self.hot)['Temperature'] - 76.0) < 1e-6, 10,
                       what='Temperature at 76 °C')
            time.sleep(1.5)  # the job reads its sensor once a second
        stop = threading.Event()
        writers = [threading.Thread(target=compete, args=(self.hot.node, n, stop)) for n in range(8)]
        for writer in writers:
            writer.start()
        try:
            self.assertEqual(self.wait_job_state(job), 'finished')
        finally:
            stop.set()
            for writer in writers:
                writer.join(30)
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
