# SPDX-License-Identifier: GPL-3.0-or-later
"""What diskbench says of each drive, read as the lab's non-root user over
the bus (busctl) and with diskbenchctl, against what the lab gave QEMU and
what the guest's kernel, smartctl and nvme-cli say (the truth)."""

import glob
import json
import os
import re
import subprocess
import unittest

import lab_context as lab
import lab_storage

# PCIe generation by transfer rate (sysfs current_link_speed).
PCIE_GENERATION = {'2.5 GT/s': '1.0', '5.0 GT/s': '2.0', '8.0 GT/s': '3.0', '16.0 GT/s': '4.0'}
PCIE_LANE_MB_S = {'2.5 GT/s': 250, '5.0 GT/s': 500, '8.0 GT/s': 984.6, '16.0 GT/s': 1969.2}


def nvme_pci_link():
    """The NVMe function's link as the guest's kernel reports it."""
    function = os.path.realpath('/sys/class/nvme/nvme0/device')
    speed = open(os.path.join(function, 'current_link_speed')).read().strip()
    width = int(open(os.path.join(function, 'current_link_width')).read().strip())
    rate = ' '.join(speed.split()[:2])
    return f'PCIe {PCIE_GENERATION[rate]} x{width}', PCIE_LANE_MB_S[rate] * width


def usb_protocol(node):
    """'uas' or 'usb-storage': the driver of the USB interface above the disk."""
    path = os.path.realpath(f'/sys/block/{os.path.basename(node)}/device')
    while path != '/':
        driver = os.path.join(path, 'driver')
        if os.path.islink(driver) and os.path.basename(os.readlink(driver)) in ('uas', 'usb-storage'):
            return os.path.basename(os.readlink(driver))
        path = os.path.dirname(path)
    return None


def smartctl(node):
    res = subprocess.run(['smartctl', '--json', '-i', '-H', '-A', node], stdout=subprocess.PIPE, text=True)
    return json.loads(res.stdout)


def nvme_smart_log():
    res = subprocess.run(['nvme', 'smart-log', '/dev/nvme0', '--output-format=json'],
                         stdout=subprocess.PIPE, text=True, check=True)
    # nvme-cli prints the 128-bit counters as strings.
    return {k: int(v) if isinstance(v, str) and v.isdigit() else v for k, v in json.loads(res.stdout).items()}


class DrivesTest(unittest.TestCase):
    def props(self, name):
        return lab.device_of(lab.node(name))[1]

    def test_identity_of_every_drive(self):
        for name in ['nvme', 'hdd', 'ssd', 'bad', 'uas', 'bot', 'scsi', 'dm']:
            with self.subTest(drive=name):
                p = self.props(name)
                t = lab.truth(name)
                self.assertEqual(p['Serial'], t['serial'])
                self.assertEqual(p['Size'], t['size'])
                if 'model' in t:
                    self.assertEqual(p['Model'], t['model'])
                # The kernel's queue/rotational: QEMU's SATA disks say what
                # rotation_rate they were given; SCSI disks that report no
                # rotation rate (VPD page B1) are taken to rotate.
                sysfs = open(f'/sys/block/{os.path.basename(lab.node(name))}/queue/rotational').read().strip()
                self.assertEqual(p['Rotational'], sysfs == '1')
                if 'rotational' in t:
                    self.assertEqual(p['Rotational'], t['rotational'])
                lab.finding(name, 'model, serial', f'{p["Model"]}, {p["Serial"]}',
                            f'{t.get("model", p["Model"])}, {t["serial"]}')
                lab.finding(name, 'rotational, removable', f'{p["Rotational"]}, {p["Removable"]}',
                            f'{sysfs == "1"} (queue/rotational), '
                            f'{open(f"/sys/block/{os.path.basename(lab.node(name))}/removable").read().strip()} '
                            '(sysfs removable)')

    def test_connection_bus_is_udisks(self):
        # Device.ConnectionBus is udisks' Drive.ConnectionBus: "usb" for the
        # sticks, "" for SATA, NVMe and SCSI (udisks names only usb, sdio
        # and ieee1394). The link line says the rest.
        for name in ['nvme', 'hdd', 'uas', 'bot', 'scsi']:
            with self.subTest(drive=name):
                self.assertEqual(self.props(name)['ConnectionBus'], 'usb' if name in ('uas', 'bot') else '')

    def test_links(self):
        link, limit = nvme_pci_link()
        expected = {
            'nvme': (link, limit),
            'hdd': ('SATA 1.5 Gbps', 150), 'ssd': ('SATA 1.5 Gbps', 150),
            'uas': ('USB 5Gbps (5000 Mbps)', 500), 'bot': ('USB 2 (480 Mbps)', 60),
            'scsi': ('virtual (virtio)', 0),
        }
        for name, (text, mb_s) in expected.items():
            with self.subTest(drive=name):
                p = self.props(name)
                lab.finding(name, 'Link', f'{p["Link"]} ({p["LinkLimit"]:.0f} MB/s)', f'{text} ({mb_s:.0f} MB/s)')
                self.assertEqual(p['Link'], text)
                self.assertAlmostEqual(p['LinkLimit'], mb_s, delta=1)
        # The USB protocol each stick speaks, as the kernel bound it.
        self.assertEqual(usb_protocol(lab.node('uas')), 'uas')
        self.assertEqual(usb_protocol(lab.node('bot')), 'usb-storage')

    def test_stacks_top_first(self):
        md = os.path.basename(os.path.realpath(lab_storage.MD))
        a, b = sorted(os.path.basename(lab.node(n)) for n in ('raid-a', 'raid-b'))
        raid = f'md raid1 ({md}) of {a}, {b}'
        lv = os.path.realpath(f'/dev/{lab_storage.VG}/{lab_storage.LV}')
        crypt = os.path.realpath(f'/dev/mapper/{lab_storage.CRYPT}')
        expected = {
            lv: [f'LVM {lab_storage.VG}-{lab_storage.LV}', 'dm-crypt', raid, a],
            crypt: ['dm-crypt', raid, a],
            os.path.realpath(lab_storage.MD): [raid, a],
        }
        for node, stack in expected.items():
            with self.subTest(node=node):
                p = lab.device_of(node)[1]
                lab.finding('md+LUKS+LVM', f'Stack of {node}', ' → '.join(p['Stack']), ' → '.join(stack))
                self.assertEqual(p['Stack'], stack)
                self.assertEqual(p['Link'], 'SATA 1.5 Gbps')
        dm = os.path.basename(lab.node('dm'))
        for name in (lab_storage.FLAKEY, lab_storage.DELAY):
            with self.subTest(dm=name):
                p = lab.device_of(f'/dev/mapper/{name}')[1]
                lab.finding(name, 'Stack', ' → '.join(p['Stack']), f'{name} → {dm}')
                self.assertEqual(p['Stack'], [f'device mapper {name}', dm])

    def test_nvme_temperature_from_its_sensor(self):
        p = self.props('nvme')
        hwmon = glob.glob('/sys/class/nvme/nvme0/hwmon*/temp1_input')[0]
        kernel = int(open(hwmon).read()) / 1000
        lab.finding('nvme', 'Temperature', f'{p["Temperature"]:.2f} °C ({p["TemperatureSource"]})',
                    f'{kernel:.2f} °C (hwmon)')
        self.assertEqual(p['TemperatureSource'], 'nvme-hwmon')
        self.assertAlmostEqual(p['Temperature'], kernel, delta=0.5)

    def test_sata_smart_and_temperature(self):
        for name in ['hdd', 'ssd']:
            with self.subTest(drive=name):
                truth = smartctl(lab.node(name))
                attrs = {a['id']: a for a in truth['ata_smart_attributes']['table']}
                celsius = truth['temperature']['current']
                path = lab.device_of(lab.node(name))[0]
                # The daemon reads a drive's health on a probe thread when
                # it appears: wait for the answer, not for a time.
                health = lab.wait_until(
                    lambda: lab.STACK.get_property(path, lab.DEVICE_IFACE, 'Health', user=lab.USER), lab.seconds(60),
                    what=f'Health of {name}')
                p = self.props(name)
                lab.finding(name, 'Health', json.dumps(health, sort_keys=True),
                            f'smartctl: {"PASSED" if truth["smart_status"]["passed"] else "FAILED"}, '
                            f'power-on {attrs[9]["raw"]["value"]} h, reallocated {attrs[5]["raw"]["value"]}')
                lab.finding(name, 'Temperature', f'{p["Temperature"]:.0f} °C ({p["TemperatureSource"]})',
                            f'{celsius} °C (smartctl)')
                self.assertEqual(health['source'], 'ata-smart')
                self.assertEqual(health['failing'], not truth['smart_status']['passed'])
                self.assertEqual(health['power_on_seconds'], attrs[9]['raw']['value'] * 3600)
                self.assertEqual(health['reallocated_sectors'], attrs[5]['raw']['value'])
                self.assertEqual(health['bad_sectors'], attrs[5]['raw']['value'])
                self.assertEqual(p['Temperature'], celsius)
                self.assertEqual(p['TemperatureSource'], 'ata-smart')

    def test_nvme_health(self):
        path = lab.device_of(lab.node('nvme'))[0]
        health = lab.wait_until(
            lambda: lab.STACK.get_property(path, lab.DEVICE_IFACE, 'Health', user=lab.USER), lab.seconds(60),
            what='Health of the NVMe drive')
        truth = nvme_smart_log()
        lab.finding('nvme', 'Health', json.dumps(health, sort_keys=True), json.dumps(truth, sort_keys=True))
        self.assertEqual(health['source'], 'nvme')
        self.assertEqual(health['critical_warning'], truth['critical_warning'])
        self.assertFalse(health['failing'])
        self.assertAlmostEqual(health['temperature_celsius'], truth['temperature'] - 273.15, delta=0.01)
        self.assertEqual(health['available_spare_percent'], truth['avail_spare'])
        self.assertEqual(health['available_spare_threshold_percent'], truth['spare_thresh'])
        self.assertEqual(health['percentage_used'], truth['percent_used'])
        self.assertEqual(health['power_on_hours'], truth['power_on_hours'])
        self.assertEqual(health['unsafe_shutdowns'], truth['unsafe_shutdowns'])
        self.assertEqual(health['media_errors'], truth['media_errors'])
        self.assertEqual(health['error_log_entries'], truth['num_err_log_entries'])
        # Data units only grow; nvme-cli read them after the daemon did.
        self.assertLessEqual(health['data_read_bytes'], truth['data_units_read'] * 512000)

    def test_cli_devices_lists_every_drive(self):
        res = lab.ctl('devices')
        self.assertEqual(res.returncode, 0, res.stderr)
        for name in ['nvme', 'hdd', 'ssd', 'bad', 'uas', 'bot', 'scsi', 'dm']:
            with self.subTest(drive=name):
                line = [l for l in res.stdout.splitlines() if l.startswith(lab.node(name) + ' ')]
                self.assertEqual(len(line), 1, res.stdout)
                self.assertIn(self.props(name)['Link'], line[0])
