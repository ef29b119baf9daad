#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""D-Bus activation and idle exit: diskbenchd starts on the first call,
exits after --idle-timeout when no job objects remain (ended jobs stay for
--job-retention), stays while a job runs, and is activated again by the next
call."""

import time

import harness
from harness import (BUS_NAME, DEVICE_IFACE, JOB_IFACE, MANAGER_IFACE, MANAGER_PATH,
                     OBJECT_MANAGER_IFACE, wait_until)

IDLE = 2
RETENTION = 3
SLACK = 5


class ActivationTest(harness.IntegrationTestCase):
    stack_options = {'idle_timeout': IDLE, 'job_retention': RETENTION}

    @classmethod
    def prepare(cls):
        cls.loop = cls.stack.attach_loop()

    def wait_daemon_gone(self, pid, timeout):
        # name_has_owner asks the bus, not the daemon: it does not activate it.
        wait_until(lambda: not self.stack.name_has_owner(BUS_NAME) and not harness.pid_alive(pid),
                   timeout, what=f'diskbenchd {pid} to exit')

    def test_idle_exit_and_reactivation(self):
        pid = self.stack.ensure_daemon()
        self.assertIsNotNone(pid)
        self.assertIn(pid, self.stack.activated_pids())
        started = time.monotonic()
        self.wait_daemon_gone(pid, IDLE + SLACK)
        self.assertGreaterEqual(time.monotonic() - started, IDLE - 0.5,
                                'exited before its idle timeout')
        self.assertIn('exit', self.stack.read_log('diskbenchd').lower())

        # The next call activates it again, and it works.
        objects = self.stack.managed_objects(user='dbtest-out')
        self.assertIn(self.loop.object_path, objects)
        new_pid = self.stack.daemon_pid()
        self.assertNotEqual(new_pid, pid)
        self.assertIn(new_pid, self.stack.activated_pids())
        self.wait_daemon_gone(new_pid, IDLE + SLACK)

    def test_running_job_keeps_daemon(self):
        with self.stack.client('dbtest-in', (self.loop.object_path, 'seek',
                                             {'count': ('t', 1000000)})) as c:
            self.assertIsNone(c.error)
            pid = self.stack.daemon_pid()
            time.sleep(IDLE + 2)
            # Ask the bus, not the daemon (a call would count as activity).
            self.assertTrue(self.stack.name_has_owner(BUS_NAME))
            self.assertTrue(harness.pid_alive(pid))
            self.assertEqual(self.stack.get_property(c.job, JOB_IFACE, 'State'), 'running')
            self.stack.call(c.job, JOB_IFACE, 'Cancel', 'a{sv}', {}, user='dbtest-in')
            c.wait_completed(10)
        self.wait_daemon_gone(pid, RETENTION + IDLE + SLACK)

    def test_ended_job_kept_for_retention_then_exit(self):
        match = (f"type='signal',path='{MANAGER_PATH}',"
                 f"interface='{OBJECT_MANAGER_IFACE}'")
        with self.stack.monitor(match) as mon:
            with self.stack.client('dbtest-in', (self.loop.object_path, 'seek',
                                                 {'count': ('t', 200)})) as c:
                self.assertEqual(c.wait_completed(60)['completed'], 'finished')
                ended = time.monotonic()
                ended_realtime = time.time()
                pid = self.stack.daemon_pid()
            added = mon.wait_for(lambda m: m['member'] == 'InterfacesAdded'
                                 and m['payload']['data'][0] == c.job, 5,
                                 f'InterfacesAdded for {c.job}')
            self.assertIn(JOB_IFACE, added['payload']['data'][1])
            # The job object exists for RETENTION s after it ended: the daemon
            # must not exit before (checked without calling it).
            time.sleep(max(0.0, RETENTION - 1.0 - (time.monotonic() - ended)))
            self.assertTrue(harness.pid_alive(pid), 'exited while a job object remained')
            self.assertTrue(self.stack.name_has_owner(BUS_NAME))
            removed = mon.wait_for(lambda m: m['member'] == 'InterfacesRemoved'
                                   and m['payload']['data'][0] == c.job, SLACK,
                                   f'InterfacesRemoved for {c.job}')
            self.assertIn(JOB_IFACE, removed['payload']['data'][1])
            self.assertGreaterEqual(removed['timestamp-realtime'] / 1e6 - ended_realtime,
                                    RETENTION - 0.5, 'job removed before its retention time')
        self.wait_daemon_gone(pid, IDLE + SLACK + 1)
        # A new activation knows nothing of old jobs.
        self.assertEqual(self.stack.get_property(MANAGER_PATH, MANAGER_IFACE, 'Jobs'), [])
        self.assertEqual(self.stack.get_property(self.loop.object_path, DEVICE_IFACE, 'Job'), '/')

if __name__ == '__main__':
    harness.main()
