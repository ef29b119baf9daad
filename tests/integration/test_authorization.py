#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Who may start and cancel jobs, asked of the real polkitd with the test
rules (harness.RULES): dbtest-in is allowed, dbtest-out refused, dbtest-ask
would be asked for an admin password. And jobs whose owner goes away."""

import time

import harness
from harness import (DEVICE_IFACE, JOB_IFACE, MANAGER_IFACE, MANAGER_PATH, SEEK_LONG,
                     SEEK_QUICK, wait_until)

NO_INTERACTION = {'auth.no_user_interaction': ('b', True)}


class AuthorizationTest(harness.LoopDeviceTestCase):

    def start_error(self, user, options):
        return self.stack.call_error(MANAGER_PATH, MANAGER_IFACE, 'StartBenchmark', 'osa{sv}',
                                     self.loop.object_path, 'seek', options, user=user)

    def assertDeviceIdle(self):
        self.assertEqual(self.stack.get_property(self.loop.object_path, DEVICE_IFACE, 'Job'), '/')

    def test_outsider_is_not_authorized(self):
        self.assertDBusError(self.start_error('dbtest-out', SEEK_QUICK), 'NotAuthorized')
        self.assertDBusError(self.start_error('dbtest-out', {**SEEK_QUICK, **NO_INTERACTION}),
                             'NotAuthorized')
        self.assertDeviceIdle()

    def test_challenge_without_interaction_can_obtain(self):
        err = self.start_error('dbtest-ask', {**SEEK_QUICK, **NO_INTERACTION})
        self.assertDBusError(err, 'NotAuthorizedCanObtain')
        self.assertDeviceIdle()

    def test_challenge_with_interaction_but_no_agent(self):
        # Interaction allowed, but no authentication agent is registered (no
        # session here): polkit answers "challenge" at once; the daemon must
        # refuse promptly rather than wait for a dialog that never comes.
        started = time.monotonic()
        err = self.start_error('dbtest-ask', SEEK_QUICK)
        self.assertLess(time.monotonic() - started, 10)
        self.assertIn(err.name, [harness.ERROR_PREFIX + n for n in (
            'NotAuthorizedCanObtain', 'NotAuthorizedDismissed', 'NotAuthorized')], err)
        self.assertDeviceIdle()

    def test_allowed_user_and_root_may_start(self):
        for user in ('dbtest-in', 'root'):
            with self.subTest(user=user), self.stack.client(
                    user, (self.loop.object_path, 'seek', {**SEEK_QUICK, **NO_INTERACTION})) as c:
                self.assertIsNone(c.error)
                self.assertEqual(c.wait_completed(60)['completed'], 'finished')

    def test_owner_cancels(self):
        with self.stack.client('dbtest-in', (self.loop.object_path, 'seek', SEEK_LONG)) as c:
            self.assertIsNone(c.error)
            wait_until(lambda: self.stack.get_property(c.job, JOB_IFACE, 'SampleCount') > 0, 10,
                       what='the job to produce samples')
            # Same user, another connection: the owner is the uid.
            started = time.monotonic()
            self.stack.call(c.job, JOB_IFACE, 'Cancel', 'a{sv}', {}, user='dbtest-in')
            done = c.wait_completed(10)
            elapsed = time.monotonic() - started
            self.assertEqual(done['completed'], 'cancelled', done)
            self.assertLess(elapsed, 2.0, 'Cancel should stop the job within about 100 ms')
            props = self.job_props(c.job)
            self.assertEqual(props['State'], 'cancelled')
            # Partial figures of what was measured so far.
            self.assertGreater(props['Summary']['reads'], 0)
            self.assertLess(props['Summary']['reads'], 1000000)
            self.assertGreater(props['FinishedAt'], 0)
        self.assertDeviceIdle()

    def test_others_cannot_cancel_but_root_can(self):
        with self.stack.client('dbtest-in', (self.loop.object_path, 'seek', SEEK_LONG)) as c:
            self.assertIsNone(c.error)
            err = self.stack.call_error(c.job, JOB_IFACE, 'Cancel', 'a{sv}', {},
                                        user='dbtest-out')
            self.assertDBusError(err, 'NotAuthorized')
            err = self.stack.call_error(c.job, JOB_IFACE, 'Cancel', 'a{sv}', NO_INTERACTION,
                                        user='dbtest-ask')
            self.assertDBusError(err, 'NotAuthorizedCanObtain')
            self.assertEqual(self.stack.get_property(c.job, JOB_IFACE, 'State'), 'running')
            # root holds org.diskbench.manage-jobs.
            self.stack.call(c.job, JOB_IFACE, 'Cancel', 'a{sv}', {})
            self.assertEqual(c.wait_completed(10)['completed'], 'cancelled')

    def test_owner_vanishing_cancels_job(self):
        with self.stack.client('dbtest-in', (self.loop.object_path, 'seek', SEEK_LONG)) as c:
            self.assertIsNone(c.error)
            self.assertEqual(self.stack.get_property(c.job, JOB_IFACE, 'State'), 'running')
            c.kill()
            killed = time.monotonic()
            state = wait_until(
                lambda: (s := self.stack.get_property(c.job, JOB_IFACE, 'State')) != 'running'
                and s, 5, interval=0.02, what='the job to end')
            elapsed = time.monotonic() - killed
        self.assertEqual(state, 'cancelled')
        self.assertLess(elapsed, 1.0, f'cancelled after {elapsed:.2f} s')
        self.assertDeviceIdle()

    def test_busctl_exit_cancels_job(self):
        # `busctl call` disconnects right after the reply: without "detach" that
        # is the owner vanishing.
        job = self.stack.start_benchmark(self.loop, 'seek', SEEK_LONG, user='dbtest-in')
        returned = time.monotonic()
        state = wait_until(
            lambda: (s := self.stack.get_property(job, JOB_IFACE, 'State')) != 'running' and s,
            5, interval=0.02, what='the job to end')
        self.assertEqual(state, 'cancelled')
        self.assertLess(time.monotonic() - returned, 1.0)
        self.assertLess(self.stack.get_property(job, JOB_IFACE, 'Summary')['reads'], 1000000)


if __name__ == '__main__':
    harness.main()
