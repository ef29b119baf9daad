#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The app's D-Bus layer (libdiskbench-client/bus, DaemonClient on a GLib main loop)
against the real daemon, driven by tests/integration/probe/client_probe.cpp as
an unprivileged user: the device table, starting a job, refusals, and the
catch-up of a job joined mid-run (GetSamples, then Samples signals) giving
exactly the daemon's samples, none twice, none missing."""

import json
import math
import os
import pwd
import subprocess

import harness
from harness import FINAL_STATES, JOB_IFACE, wait_until

PROBE = os.environ.get('DISKBENCH_CLIENT_PROBE')


class ClientDBusTest(harness.LoopDeviceTestCase):

    def probe(self, *args, user='dbtest-in', check=True):
        self.assertTrue(PROBE, 'DISKBENCH_CLIENT_PROBE is not set (meson sets it)')
        proc = subprocess.run(self.stack.as_user(user, [os.path.abspath(PROBE), *args]),
                              capture_output=True, text=True, timeout=150)
        if check:
            self.assertEqual(proc.returncode, 0, f'probe failed: {proc.stderr}')
        return proc.returncode, json.loads(proc.stdout.strip().splitlines()[-1]) if proc.stdout.strip() else None

    def assertSameSamples(self, job, seen):
        """seen (per series lists of [x, y]) equals GetSamples(0), in order."""
        # Page by page, as a reply holds at most 262,144.
        fetched, next_index = [], 0
        while True:
            next_index, page = self.stack.call(job, JOB_IFACE, 'GetSampleRange', 'tu', next_index, 0,
                                               timeout=120)
            fetched += page
            if not page:
                break
        expected = {}
        for series, x, y in fetched:
            expected.setdefault(series, []).append((x, y))
        got = {i: [tuple(p) for p in points] for i, points in enumerate(seen) if points}
        self.assertEqual(sorted(got), sorted(expected))
        for series in expected:
            self.assertEqual(len(got[series]), len(expected[series]), f'series {series}')
            for i, (a, b) in enumerate(zip(got[series], expected[series])):
                if not (math.isclose(a[0], b[0], rel_tol=1e-12) and math.isclose(a[1], b[1], rel_tol=1e-12)):
                    self.fail(f'series {series} point {i}: client {a} != daemon {b}')
        self.assertEqual(sum(len(v) for v in expected.values()), next_index)

    def test_a_job_of_more_samples_than_a_reply_holds_comes_whole(self):
        # 300,000 points: the app's catch-up takes two pages of GetSamples.
        job = self.stack.start_benchmark(self.loop, 'seek', {'count': ('t', 300000), 'detach': ('b', True)})
        self.wait_job_state(job, ('finished',), timeout=240)
        _, out = self.probe('follow', job)
        # The reads, and the 19 points of their latency distribution (cdf).
        self.assertEqual(sum(len(s) for s in out['series']), 300000 + 19)
        self.assertSameSamples(job, out['series'])

    def test_devices_come_from_the_object_manager(self):
        _, out = self.probe('devices')
        nodes = {d['node']: d for d in out['devices']}
        self.assertIn(self.loop.node, nodes)
        self.assertEqual(nodes[self.loop.node]['size'], self.loop.size)
        self.assertEqual(nodes[self.loop.node]['path'], self.loop.object_path)

    def test_start_and_follow_to_the_end(self):
        _, out = self.probe('start', self.loop.node, 'seek', 'count=300')
        self.assertEqual(out['state'], 'finished')
        self.assertEqual(sum(len(s) for s in out['series']), 300 + 19)
        self.assertSameSamples(out['job'], out['series'])

    def test_folder_benchmark_through_a_descriptor(self):
        # A folder of the user on a filesystem of our own loop device: the
        # probe opens it and passes the descriptor (StartFilesystemBenchmark).
        loop = self.stack.attach_loop(size=64 * 1024 * 1024)
        mount = self.stack.mount_new_filesystem(loop)
        try:
            folder = os.path.join(mount[0], 'mine')
            os.mkdir(folder, 0o700)
            user = pwd.getpwnam('dbtest-in')
            os.chown(folder, user.pw_uid, user.pw_gid)
            _, out = self.probe('start-folder', folder, 'file-rw', f'size={4 * 1024 * 1024}')
            self.assertEqual(out['state'], 'finished')
            self.assertEqual(out['target'], folder)
            self.assertGreater(sum(len(s) for s in out['series']), 0)
            self.assertSameSamples(out['job'], out['series'])
            self.assertEqual(os.listdir(folder), [])
            # A folder the user may not write in: PermissionDenied, by name.
            locked = os.path.join(mount[0], 'locked')
            os.mkdir(locked, 0o755)
            code, out = self.probe('start-folder', locked, 'file-rw', f'size={1024 * 1024}', check=False)
            self.assertEqual(code, 3)
            self.assertEqual(out['error'], 'org.diskbench.DiskBench1.Error.PermissionDenied')
            self.assertEqual(out['failure_id'], 'error-folder-not-writable')
        finally:
            self.stack.umount(mount)
            self.stack.detach_loop(loop)

    def test_a_failed_job_has_its_failure_as_data(self):
        # Room for the scratch folder and its marker, no further file (3
        # inodes): file-rw fails in its run (test_security.py has the same).
        folder = '/dev/shm/diskbench-it-probe-full'
        full = self.stack.mount_tmpfs(folder, '8m', 'dbtest-in', inodes=3)
        try:
            _, out = self.probe('start-folder', folder, 'file-rw', f'size={1024 * 1024}', check=False)
            self.assertEqual(out['state'], 'failed')
            self.assertIn(out['failure_id'], ('error-scratch-file-uncreatable', 'error-filesystem-full'))
        finally:
            self.stack.umount(full)

    def test_refusal_arrives_as_a_named_error(self):
        code, out = self.probe('start', self.loop.node, 'seek', user='dbtest-out', check=False)
        self.assertEqual(code, 3)
        self.assertEqual(out['error'], 'org.diskbench.DiskBench1.Error.NotAuthorized')
        # With its failure as data, read from the error's second argument.
        self.assertEqual((out['failure_id'], out['failure_parameter']), ('error-not-authorized', ''))
        code, out = self.probe('start', self.loop.node, 'seek', 'count=0', check=False)
        self.assertEqual(code, 3)
        self.assertEqual(out['error'], 'org.diskbench.DiskBench1.Error.InvalidArgument')
        self.assertEqual((out['failure_id'], out['failure_parameter']), ('error-out-of-range', 'count'))

    def test_forged_signals_from_another_user_are_ignored(self):
        # Anyone on the system bus may send a unicast signal to the app. One
        # claiming to be the daemon's (a fake device), and one of the wrong
        # shape (which, unhandled, would leave sd-bus stuck on it), must
        # change nothing and break nothing.
        argv = self.stack.as_user('dbtest-in', [os.path.abspath(PROBE), 'spoof-check', '3'])
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            unique = json.loads(proc.stdout.readline())['unique_name']
            forger = (
                'import dbus, dbus.lowlevel, sys\n'
                'bus = dbus.SystemBus()\n'
                'm = dbus.lowlevel.SignalMessage("/org/diskbench/DiskBench1", '
                '"org.freedesktop.DBus.ObjectManager", "InterfacesAdded")\n'
                'm.set_destination(sys.argv[1])\n'
                'm.append(dbus.ObjectPath("/org/diskbench/DiskBench1/devices/forged"), '
                '{"org.diskbench.DiskBench1.Device": {"Node": "/dev/forged", "Size": dbus.UInt64(1)}}, '
                'signature="oa{sa{sv}}")\n'
                'bus.send_message(m)\n'
                'm = dbus.lowlevel.SignalMessage("/org/diskbench/DiskBench1/jobs/1", '
                '"org.diskbench.DiskBench1.Job", "Samples")\n'
                'm.set_destination(sys.argv[1])\n'
                'm.append("not", "samples", signature="ss")\n'
                'bus.send_message(m)\n'
                'bus.flush()\n')
            sent = subprocess.run(self.stack.as_user('dbtest-out', ['/usr/bin/python3', '-c', forger, unique]),
                                  capture_output=True, text=True, timeout=30)
            self.assertEqual(sent.returncode, 0, sent.stderr)
            out, err = proc.communicate(timeout=60)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        self.assertEqual(proc.returncode, 0, err)
        before_refresh, after_refresh = [[d['node'] for d in json.loads(line)['devices']]
                                         for line in out.strip().splitlines()[-2:]]
        self.assertNotIn('/dev/forged', before_refresh, 'a forged InterfacesAdded was believed')
        self.assertIn(self.loop.node, before_refresh)
        # A fresh round trip still completes: the connection is not stuck.
        self.assertIn(self.loop.node, after_refresh, 'the connection no longer works after the forged signals')

    def test_joining_a_running_job_catches_up_without_gaps_or_duplicates(self):
        # 20000 single-block reads take a few seconds on a loop device: the
        # probe joins after the first batches were signalled.
        job = self.stack.start_benchmark(self.loop, 'seek',
                                         {'count': ('t', 20000), 'detach': ('b', True)})
        wait_until(lambda: self.stack.get_property(job, JOB_IFACE, 'SampleCount') > 500,
                   timeout=30, what='first samples')
        self.assertEqual(self.stack.get_property(job, JOB_IFACE, 'State'), 'running',
                         'the job ended before the probe could join; make it longer')
        _, out = self.probe('follow', job)
        self.assertIn(out['state'], FINAL_STATES)
        self.assertEqual(sum(len(s) for s in out['series']), 20000 + 19)
        self.assertSameSamples(job, out['series'])


if __name__ == '__main__':
    harness.main()
