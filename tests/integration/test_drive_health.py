#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A drive's SMART health next to its speed (issue 30): Device.Health from
udisks' Drive.Ata, following udisks' changes, and a job's DeviceInfo
keeping the values at its start.

As in test_drive_temperature.py, python3-dbusmock plays udisks (no drive
here has SMART, and the VM's own disk must not be touched): Block objects
for real loop devices, one on a Drive with Drive.Ata as udisksd 2.9 has it
(devtools/stack/mock_drive.py). Its SmartFailing and SmartNumBadSectors
change during the test, as a dying drive's do. polkitd and diskbenchd are
real."""

import harness
from harness import DEVICE_IFACE, JOB_IFACE, wait_until
from mock_drive import ATA_IFACE, MOCK_IFACE, MockDrive, add_mock_manager
from bus_names import UDISKS_NAME


class DriveHealthTest(harness.IntegrationTestCase):
    stack_options = {'udisks': 'mock'}

    @classmethod
    def prepare(cls):
        add_mock_manager(cls.stack)
        cls.drive = MockDrive(cls.stack, cls.stack.attach_loop(), 'Old_Disk_DBH0101', 38.0)
        cls.plain = MockDrive(cls.stack, cls.stack.attach_loop(), 'No_Smart_DBH0102').loop

    def health(self, loop):
        return self.stack.get_property(loop.object_path, DEVICE_IFACE, 'Health', user='dbtest-out')

    def set_smart(self, **props):
        self.stack.call(self.drive.path, MOCK_IFACE, 'UpdateProperties', 'sa{sv}', ATA_IFACE, props,
                        dest=UDISKS_NAME)

    def test_1_health_from_udisks(self):
        self.assertEqual(self.health(self.drive.loop), {
            'failing': False, 'bad_sectors': 0, 'power_on_seconds': 3600, 'attributes_failing': 0,
            'source': 'udisks-ata'})
        # A drive without Drive.Ata: no verdict at all, not a healthy one.
        self.assertEqual(self.health(self.plain), {})

    def test_2_a_dying_drive_changes_on_the_bus_and_in_the_job(self):
        self.set_smart(SmartNumBadSectors=('x', 23), SmartFailing=('b', True), SmartNumAttributesFailing=('i', 2))
        wait_until(lambda: self.health(self.drive.loop).get('bad_sectors') == 23, 10,
                   what='Device.Health to follow udisks')
        health = self.health(self.drive.loop)
        self.assertTrue(health['failing'])
        self.assertEqual(health['attributes_failing'], 2)

        job = self.stack.start_benchmark(self.drive.loop, 'seek', {'count': ('t', 100), 'detach': ('b', True)},
                                         user='root')
        self.assertEqual(self.wait_job_state(job), 'finished')
        info = self.stack.get_property(job, JOB_IFACE, 'DeviceInfo')
        self.assertEqual((info['smart_failing'], info['smart_bad_sectors'], info['smart_attributes_failing']),
                         (True, 23, 2))
        self.assertEqual(info['smart_power_on_seconds'], 3600)
        # No SMART, no keys.
        job = self.stack.start_benchmark(self.plain, 'seek', {'count': ('t', 100), 'detach': ('b', True)},
                                         user='root')
        self.assertEqual(self.wait_job_state(job), 'finished')
        self.assertNotIn('smart_bad_sectors', self.stack.get_property(job, JOB_IFACE, 'DeviceInfo'))

    def attribute_calls(self):
        calls = self.stack.call(self.drive.path, MOCK_IFACE, 'GetMethodCalls', 's', 'SmartGetAttributes',
                                dest=UDISKS_NAME)[0]
        return len(calls)

    def test_3_the_attributes_of_a_dying_drive(self):
        # udisks 2.9 gives them only through SmartGetAttributes: asked when
        # udisks read the drive again (SmartUpdated), not on every change.
        self.drive.set_smart_attributes({5: 12, 187: 1, 188: 0, 197: 3, 198: 1, 199: 40, 194: 38}, 1_800_000_000)
        wait_until(lambda: self.health(self.drive.loop).get('pending_sectors') == 3, 10,
                   what='Device.Health to have the attributes')
        health = self.health(self.drive.loop)
        self.assertEqual({k: health[k] for k in ('reallocated_sectors', 'reported_uncorrectable',
                                                 'command_timeouts', 'pending_sectors', 'offline_uncorrectable',
                                                 'crc_errors')},
                         {'reallocated_sectors': 12, 'reported_uncorrectable': 1, 'command_timeouts': 0,
                          'pending_sectors': 3, 'offline_uncorrectable': 1, 'crc_errors': 40})
        self.assertNotIn('attribute-194', str(health))  # the temperature is not one of them
        asked = self.attribute_calls()
        self.drive.set_temperature(40)  # another Drive.Ata change: not asked again
        self.assertEqual(self.attribute_calls(), asked)
        # The pending sectors grow: the job started now keeps the new counts.
        self.drive.set_smart_attributes({5: 12, 197: 9}, 1_800_000_600)
        wait_until(lambda: self.health(self.drive.loop).get('pending_sectors') == 9, 10,
                   what='Device.Health to follow the attributes')
        self.assertNotIn('crc_errors', self.health(self.drive.loop))
        job = self.stack.start_benchmark(self.drive.loop, 'seek', {'count': ('t', 100), 'detach': ('b', True)},
                                         user='root')
        self.assertEqual(self.wait_job_state(job), 'finished')
        info = self.stack.get_property(job, JOB_IFACE, 'DeviceInfo')
        self.assertEqual((info['smart_reallocated_sectors'], info['smart_pending_sectors']), (12, 9))


if __name__ == '__main__':
    harness.main()
