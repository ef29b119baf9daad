#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Device objects: listed from the real udisksd, looked up by node, and
following loop devices as they are attached and detached."""

import os
import stat

import harness
from harness import (BUS_NAME, DEVICE_IFACE, DEVICES_PATH, MANAGER_IFACE, MANAGER_PATH,
                     OBJECT_MANAGER_IFACE, PROPERTIES_IFACE)

MIB = 1024 * 1024


class DevicesTest(harness.IntegrationTestCase):

    @classmethod
    def prepare(cls):
        cls.loop = cls.stack.attach_loop()

    def test_devices_listed_with_our_loop_device(self):
        # Reading needs no authorization: ask as the user polkit refuses.
        objects = self.stack.managed_objects(user='dbtest-out')
        self.assertIn(self.loop.object_path, objects, sorted(objects))
        props = objects[self.loop.object_path][DEVICE_IFACE]
        self.assertEqual(props['Node'], self.loop.node)
        self.assertEqual(props['Name'], self.loop.name)
        self.assertEqual(props['DeviceKind'], 'loop')
        self.assertEqual(props['Size'], 64 * MIB)
        self.assertEqual(props['LogicalBlockSize'], 512)
        self.assertGreaterEqual(props['PhysicalBlockSize'], 512)
        self.assertEqual(props['UDisksBlock'], self.loop.udisks_path)
        self.assertEqual(props['UDisksDrive'], '/')   # loop devices have no Drive
        self.assertEqual(props['Model'], '')
        self.assertEqual(props['Serial'], '')
        self.assertFalse(props['Mounted'])
        self.assertFalse(props['InUse'])
        self.assertEqual(props['Job'], '/')
        self.assertGreater(props['MaxSectorsKiB'], 0)
        with open(f'/sys/class/block/{self.loop.name}/queue/rotational') as f:
            self.assertEqual(props['Rotational'], f.read().strip() == '1')

        # Every device object is a non-empty block device that is not ram/zram,
        # at the path its kernel name gives.
        for path, ifaces in objects.items():
            if DEVICE_IFACE not in ifaces:
                continue
            dev = ifaces[DEVICE_IFACE]
            with self.subTest(device=path):
                self.assertEqual(path, f'{DEVICES_PATH}/{dev["Name"]}')
                self.assertTrue(stat.S_ISBLK(os.stat(dev['Node']).st_mode))
                self.assertGreater(dev['Size'], 0)
                self.assertFalse(dev['Name'].startswith(('ram', 'zram')))
                self.assertIn(dev['DeviceKind'], ('disk', 'partition', 'loop'))

    def test_device_properties_match_get_all(self):
        props = self.stack.get_all(self.loop.object_path, DEVICE_IFACE, user='dbtest-in')
        self.assertEqual(props['Node'], self.loop.node)
        self.assertEqual(self.stack.get_property(self.loop.object_path, DEVICE_IFACE, 'Size'),
                         64 * MIB)

    def test_find_device(self):
        path = self.stack.call(MANAGER_PATH, MANAGER_IFACE, 'FindDevice', 's', self.loop.node,
                               user='dbtest-out')[0]
        self.assertEqual(path, self.loop.object_path)

    def test_hotplug_added_and_removed(self):
        self.stack.ensure_daemon()
        match = (f"type='signal',sender='{BUS_NAME}',path='{MANAGER_PATH}',"
                 f"interface='{OBJECT_MANAGER_IFACE}'")
        with self.stack.monitor(match) as mon:
            loop = self.stack.attach_loop(size=16 * MIB)
            try:
                added = mon.wait_for(
                    lambda m: m['member'] == 'InterfacesAdded'
                    and m['payload']['data'][0] == loop.object_path, 20,
                    f'InterfacesAdded for {loop.object_path}')
                props = harness.unwrap(added['payload']['data'][1])[DEVICE_IFACE]
                self.assertEqual(props['Node'], loop.node)
                self.assertEqual(props['Size'], 16 * MIB)
                self.assertEqual(self.stack.call(MANAGER_PATH, MANAGER_IFACE, 'FindDevice', 's',
                                                 loop.node)[0], loop.object_path)
            finally:
                self.stack.detach_loop(loop)
            removed = mon.wait_for(
                lambda m: m['member'] == 'InterfacesRemoved'
                and m['payload']['data'][0] == loop.object_path, 20,
                f'InterfacesRemoved for {loop.object_path}')
            self.assertIn(DEVICE_IFACE, removed['payload']['data'][1])
        # (Unless something else on this machine attached the same loop number again.)
        if loop.node not in harness.loop_devices():
            self.assertNotIn(loop.object_path, self.stack.managed_objects())
            err = self.stack.call_error(MANAGER_PATH, MANAGER_IFACE, 'FindDevice', 's', loop.node)
            self.assertDBusError(err, 'NotFound')

    def test_mounted_device_is_in_use(self):
        loop = self.stack.attach_loop(size=32 * MIB)
        try:
            self.stack.ensure_daemon()
            props = self.stack.get_all(loop.object_path, DEVICE_IFACE)
            self.assertFalse(props['Mounted'])
            self.assertFalse(props['InUse'])
            match = (f"type='signal',path='{loop.object_path}',"
                     f"interface='{PROPERTIES_IFACE}',member='PropertiesChanged'")

            def changed_to(value):
                return lambda m: harness.unwrap(m['payload']['data'][1]).get('Mounted') is value

            with self.stack.monitor(match) as mon:
                mount = self.stack.mount_new_filesystem(loop)
                try:
                    mon.wait_for(changed_to(True), 20, 'Mounted to change to true')
                    props = self.stack.get_all(loop.object_path, DEVICE_IFACE)
                    self.assertTrue(props['Mounted'])
                    self.assertTrue(props['InUse'])
                finally:
                    self.stack.umount(mount)
                mon.wait_for(changed_to(False), 20, 'Mounted to change to false')
            props = self.stack.get_all(loop.object_path, DEVICE_IFACE)
            self.assertFalse(props['Mounted'])
            self.assertFalse(props['InUse'])
        finally:
            self.stack.detach_loop(loop)

    def test_4k_logical_block_device(self):
        loop = self.stack.attach_loop(size=16 * MIB, sector_size=4096)
        try:
            self.stack.ensure_daemon()
            props = self.stack.get_all(loop.object_path, DEVICE_IFACE)
            self.assertEqual(props['LogicalBlockSize'], 4096)
            self.assertGreaterEqual(props['PhysicalBlockSize'], 4096)
            err = self.stack.call_error(MANAGER_PATH, MANAGER_IFACE, 'StartBenchmark', 'osa{sv}',
                                        loop.object_path, 'seek',
                                        {'count': ('t', 10), 'block_size': ('t', 512)},
                                        user='dbtest-in')
            self.assertDBusError(err, 'InvalidArgument', 'block_size')
            # The default block size is the device's logical block.
            with self.stack.client('dbtest-in', (loop.object_path, 'seek',
                                                 {'count': ('t', 200)})) as c:
                done = c.wait_completed(60)
                self.assertEqual(done['completed'], 'finished', done)
                self.assertEqual(done['summary']['block_size'], 4096)
                self.assertEqual(done['summary']['reads'], 200)
        finally:
            self.stack.detach_loop(loop)


if __name__ == '__main__':
    harness.main()
