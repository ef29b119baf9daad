#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Drive-level properties (Model, Vendor, Serial, WWN, Revision, RotationRate,
ConnectionBus, Removable) taken from udisks2's Drive object.

No real Drive object exists on the test machines: loop devices have none, and
the VM's own disk must not be touched. So this scenario runs on a private bus
of its own where python3-dbusmock plays org.freedesktop.UDisks2
(devtools/stack/mock_drive.py): it exports Block objects for real loop
devices we attach (so sysfs facts and the benchmark itself are real)
pointing at mock Drive objects with a model, serial and rotation rate.
Everything else (polkitd, diskbenchd) is real.
"""

import harness
from harness import DEVICE_IFACE, JOB_IFACE, UDISKS_NAME
from mock_drive import UDISKS_PATH, add_mock_manager, add_mock_object, block_properties, drive_properties

MIB = 1024 * 1024

DRIVES = {
    # drive object name: Drive properties
    'ACME_Spinner_2000_DBT0001': {
        'Vendor': ('s', 'ACME'),
        'Model': ('s', 'ACME Spinner 2000'),
        'Revision': ('s', 'FW1.2'),
        'Serial': ('s', 'DBT0001'),
        'WWN': ('s', '0x5000c500deadbeef'),
        'RotationRate': ('i', 7200),
        'ConnectionBus': ('s', 'usb'),
        'Removable': ('b', True),
        'MediaRemovable': ('b', False),
    },
    'Flashy_SSD_DBT0002': {
        'Vendor': ('s', ''),
        'Model': ('s', 'Flashy SSD'),
        'Revision': ('s', '3B2Q'),
        'Serial': ('s', 'DBT0002'),
        'WWN': ('s', ''),
        'RotationRate': ('i', 0),
        'ConnectionBus': ('s', ''),
        'Removable': ('b', False),
        'MediaRemovable': ('b', False),
    },
}


# udev's links of the first drive; the second has none. Device.ById is the
# by-id name that is not the WWN's (API 0.8).
SYMLINKS = {
    'ACME_Spinner_2000_DBT0001': ('/dev/disk/by-path/pci-0000:00:14.0-usb-0:1:1.0-scsi-0:0:0:0',
                                  '/dev/disk/by-id/wwn-0x5000c500deadbeef',
                                  '/dev/disk/by-id/usb-ACME_Spinner_2000_DBT0001-0:0'),
}
BY_ID = {'ACME_Spinner_2000_DBT0001': 'usb-ACME_Spinner_2000_DBT0001-0:0', 'Flashy_SSD_DBT0002': ''}


class DrivePropertiesTest(harness.IntegrationTestCase):
    stack_options = {'udisks': 'mock'}

    @classmethod
    def prepare(cls):
        cls.devices = {}
        add_mock_manager(cls.stack)
        for name, props in DRIVES.items():
            loop = cls.stack.attach_loop()
            drive_path = f'{UDISKS_PATH}/drives/{name}'
            add_mock_object(cls.stack, drive_path, 'org.freedesktop.UDisks2.Drive',
                            drive_properties(name, props, loop.size))
            add_mock_object(cls.stack, loop.udisks_path, 'org.freedesktop.UDisks2.Block',
                            block_properties(loop, drive_path, SYMLINKS.get(name, ())))
            cls.devices[name] = (loop, drive_path)

    def test_mock_is_what_the_daemon_reads(self):
        objects = self.stack.call(UDISKS_PATH, 'org.freedesktop.DBus.ObjectManager',
                                  'GetManagedObjects', dest=UDISKS_NAME)[0]
        for loop, drive_path in self.devices.values():
            self.assertIn(loop.udisks_path, objects)
            self.assertIn(drive_path, objects)

    def test_device_shows_drive_properties(self):
        objects = self.stack.managed_objects(user='dbtest-out')
        for name, drive in DRIVES.items():
            loop, drive_path = self.devices[name]
            with self.subTest(drive=name):
                self.assertIn(loop.object_path, objects)
                props = objects[loop.object_path][DEVICE_IFACE]
                self.assertEqual(props['Node'], loop.node)
                self.assertEqual(props['Size'], loop.size)
                self.assertEqual(props['UDisksBlock'], loop.udisks_path)
                self.assertEqual(props['UDisksDrive'], drive_path)
                for key in ('Model', 'Vendor', 'Serial', 'WWN', 'Revision', 'RotationRate',
                            'ConnectionBus', 'Removable'):
                    self.assertEqual(props[key], drive[key][1], key)
                self.assertEqual(props['ById'], BY_ID[name])

    def test_job_device_info_from_drive(self):
        loop, _ = self.devices['ACME_Spinner_2000_DBT0001']
        job = self.stack.start_benchmark(loop, 'seek', {'count': ('t', 200),
                                                        'detach': ('b', True)}, user='root')
        self.assertEqual(self.wait_job_state(job), 'finished')
        info = self.stack.get_property(job, JOB_IFACE, 'DeviceInfo')
        self.assertEqual(info['model'], 'ACME Spinner 2000')
        self.assertEqual(info['vendor'], 'ACME')
        self.assertEqual(info['serial'], 'DBT0001')
        self.assertEqual(info['wwn'], '0x5000c500deadbeef')
        self.assertEqual(info['revision'], 'FW1.2')
        self.assertEqual(info['rotation_rate'], 7200)
        self.assertEqual(info['connection_bus'], 'usb')
        self.assertEqual(info['node'], loop.node)
        self.assertEqual(info['by_id'], BY_ID['ACME_Spinner_2000_DBT0001'])


if __name__ == '__main__':
    harness.main()
