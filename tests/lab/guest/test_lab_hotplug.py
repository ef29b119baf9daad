# SPDX-License-Identifier: GPL-3.0-or-later
"""A USB stick plugged in and pulled out with QEMU's monitor (QMP
device_add / device_del) while the daemon runs: it appears on the bus and
in diskbenchctl, and pulled during a surface scan it ends that job within
seconds with a named error while the daemon goes on serving others, with
no thread or descriptor left behind."""

import os
import subprocess
import time
import unittest

import host_control
import lab_context as lab
from stack import BUS_NAME, DEVICE_IFACE, JOB_IFACE, MANAGER_PATH, OBJECT_MANAGER_IFACE


def daemon_threads_and_fds():
    pid = lab.STACK.daemon_pid()
    return len(os.listdir(f'/proc/{pid}/task')), len(os.listdir(f'/proc/{pid}/fd'))


class HotplugTest(unittest.TestCase):
    def test_plug_in_then_pull_out_during_a_surface_scan(self):
        serial = lab.truth('hot')['serial']
        match = (f"type='signal',sender='{BUS_NAME}',path='{MANAGER_PATH}',"
                 f"interface='{OBJECT_MANAGER_IFACE}'")
        lab.STACK.ensure_daemon()
        before = daemon_threads_and_fds()
        with lab.STACK.monitor(match) as mon:
            host_control.qmp('device_add', driver='usb-storage', bus='xhci.0', drive='hot', id='hotstick',
                             serial=serial, removable=True)
            added = mon.wait_for(
                lambda m: m['member'] == 'InterfacesAdded'
                and lab.unwrap(m['payload']['data'][1]).get(DEVICE_IFACE, {}).get('Serial') == serial,
                lab.seconds(120), 'InterfacesAdded of the plugged-in stick')
            path = added['payload']['data'][0]
            node = lab.unwrap(added['payload']['data'][1])[DEVICE_IFACE]['Node']
            listing = lab.ctl('devices')
            self.assertIn(node + ' ', listing.stdout)
            lab.finding('hot', 'plugged in', f'InterfacesAdded {path}, {node} in diskbenchctl devices',
                        'QMP device_add usb-storage on xhci')
            self.assertEqual(lab.STACK.get_property(path, DEVICE_IFACE, 'Link', user=lab.USER),
                             lab.truth('hot')['link'])

            # 4 KiB reads: a scan of minutes under TCG, so it is pulled mid-run.
            with lab.STACK.client(lab.USER, (path, 'surface', {'block_size': ('t', 4096)})) as c:
                self.assertIsNone(c.error)
                job = c.job
                lab.wait_until(lambda: lab.STACK.get_property(job, JOB_IFACE, 'Progress') > 0.02, lab.seconds(120),
                               what='the surface scan under way')
                pulled = time.monotonic()
                host_control.qmp('device_del', id='hotstick')
                done = c.wait_completed(lab.seconds(60))
                ended = time.monotonic() - pulled
                props = lab.STACK.get_all(job, JOB_IFACE)
            lab.finding('hot', 'pulled during surface', f'{props["State"]} after {ended:.1f} s: '
                        f'{props["ErrorName"]}: {props["ErrorMessage"]}', 'the device is gone')
            self.assertEqual(done['completed'], 'failed', props)
            self.assertLess(ended, lab.seconds(20), 'the job did not end within seconds of the pull')
            self.assertTrue(props['ErrorName'].startswith('org.diskbench.DiskBench1.Error.'), props)
            mon.wait_for(lambda m: m['member'] == 'InterfacesRemoved' and m['payload']['data'][0] == path,
                         lab.seconds(60), 'InterfacesRemoved of the pulled stick')
        # The daemon serves another user meanwhile, and keeps no thread or
        # descriptor of the run (the job object stays for its retention time).
        res = lab.ctl('devices', user='dbtest-out')
        self.assertEqual(res.returncode, 0, res.stderr)
        self.assertNotIn(node + ' ', res.stdout)
        lab.wait_until(lambda: daemon_threads_and_fds() <= before, lab.seconds(30),
                       what=f'the daemon back to {before} threads and descriptors')
