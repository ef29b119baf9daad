#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""diskbenchd ends cleanly: on SIGTERM (what systemd sends), idle or with a
job running, and when its bus connection goes away (the bus restarts or the
machine shuts down). "Cleanly" means it exits (any status) rather than dying
of a signal such as SIGABRT from an uncaught exception, which would leave a
core dump and a failed unit behind.

Here the daemon is started directly as our child (it takes its name itself),
not by D-Bus activation, so that its exit status is ours to see. Each
scenario gets a stack of its own, because two of them stop the bus."""

import os
import signal
import time

import harness
from harness import JOB_IFACE

SEEK_LONG = {'count': ('t', 1000000), 'detach': ('b', True)}


class ShutdownScenario(harness.IntegrationTestCase):
    """One scenario per subclass (each with its own stack)."""

    def run_scenario(self, stop_bus, with_job):
        loop = self.stack.attach_loop()
        daemon = self.stack.spawn_daemon_directly()
        if with_job:
            job = self.stack.start_benchmark(loop, 'seek', SEEK_LONG, user='dbtest-in')
            harness.wait_until(lambda: self.stack.get_property(job, JOB_IFACE, 'SampleCount'),
                               10, what='the job to run')
        victim = self.stack.services['dbus-daemon'] if stop_bus else daemon
        os.kill(victim.popen.pid, signal.SIGTERM)
        started = time.monotonic()
        rc = daemon.popen.wait(20)
        log = self.stack.read_log(daemon.name)
        return rc, time.monotonic() - started, log

    def assertCleanExit(self, rc, log, expect_status=None):
        self.assertGreaterEqual(rc, 0, f'diskbenchd died of signal {-rc}')
        self.assertTrue('terminate called' not in log,
                        'diskbenchd ended by an uncaught C++ exception (see its log)')
        if expect_status is not None:
            self.assertEqual(rc, expect_status)


class SigtermWhileIdle(ShutdownScenario):
    def test_sigterm_while_idle(self):
        rc, elapsed, log = self.run_scenario(stop_bus=False, with_job=False)
        self.assertCleanExit(rc, log, expect_status=0)
        self.assertLess(elapsed, 5)


class SigtermDuringJob(ShutdownScenario):
    def test_sigterm_during_job(self):
        rc, elapsed, log = self.run_scenario(stop_bus=False, with_job=True)
        self.assertCleanExit(rc, log, expect_status=0)
        self.assertLess(elapsed, 5, 'the running job should be cancelled within about 100 ms')


class BusGoneWhileIdle(ShutdownScenario):
    def test_bus_gone_while_idle(self):
        rc, _elapsed, log = self.run_scenario(stop_bus=True, with_job=False)
        self.assertCleanExit(rc, log)


class BusGoneDuringJob(ShutdownScenario):
    def test_bus_gone_during_job(self):
        rc, _elapsed, log = self.run_scenario(stop_bus=True, with_job=True)
        self.assertCleanExit(rc, log)


if __name__ == '__main__':
    harness.main()
