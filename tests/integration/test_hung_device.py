#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A device that stops answering (a dying USB stick, a stalled network block
device) must not take the job, the daemon or its shutdown with it.

The disk is a loop device over a file on a FUSE filesystem of our own
(tests/integration/stalling-fuse) that stops answering while told to, so
reads already at the device wait without bound, as they would at a hung
disk. The real daemon, bus, polkitd and udisksd, as in every integration
test."""

import os
import signal
import subprocess
import sys
import threading
import time

import harness
from harness import BUS_NAME, DEVICE_IFACE, JOB_IFACE, MANAGER_IFACE, MANAGER_PATH, wait_until

# Cancel's promise (DiskBench1.xml): the job has ended within a second. The
# daemon waits 0.75 s for the requests at the device; the rest is slack for
# a loaded test machine.
CANCEL_REPLY_S = 1.0
CANCELLED_WITHIN_S = 1.5
NOT_ANSWERING = 'did not answer within'


# How long any call may take while a backing file stalls: the daemon never
# waits on it on its bus thread (docs/security-model.md).
ANSWER_WITHIN_S = 1.0
NOT_ANSWERING_STACK = 'unknown (did not answer)'


class AnswerTimes:
    """Calls the daemon as another user, one call after the other, for as
    long as it is open, and keeps how long each took: a property, the
    device list and the stalled device's Stack."""

    def __init__(self, stack, device_path):
        self.stack = stack
        self.device_path = device_path
        self.times = []
        self.failures = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _call(self, *args):
        started = time.monotonic()
        res = self.stack.busctl('--timeout=25', *args, user='dbtest-out', timeout=40)
        took = time.monotonic() - started
        self.times.append((took, args[-1]))
        if res.returncode != 0:
            self.failures.append((args[-1], res.stderr.strip()))

    def _run(self):
        while not self._stop.is_set():
            self._call('get-property', BUS_NAME, MANAGER_PATH, MANAGER_IFACE, 'Version')
            self._call('get-property', BUS_NAME, self.device_path, DEVICE_IFACE, 'Stack')
            self._call('call', BUS_NAME, MANAGER_PATH, 'org.freedesktop.DBus.ObjectManager', 'GetManagedObjects')

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join(60)

    def slowest(self):
        return max(self.times)


def long_seek(backend):
    # Detached, so the busctl that starts it can leave without cancelling it.
    return {'count': ('t', 1_000_000), 'detach': ('b', True), 'backend': ('s', backend)}


class HungDeviceTest(harness.IntegrationTestCase):
    # Short retention and idle time, so the tests can see that a run still
    # waiting for its device keeps the daemon (and the device's claim) alive
    # after its job is gone.
    stack_options = {'idle_timeout': 3, 'job_retention': 2}

    @classmethod
    def prepare(cls):
        cls.disk = cls.stack.attach_stalling_disk()
        cls.healthy = cls.stack.attach_loop()

    def tearDown(self):
        if os.path.exists(self.disk.flag):
            self.disk.resume()
        wait_until(lambda: self.device_job() == '/', 20, what='the stalled disk to be free again')

    def device_job(self, loop=None):
        return self.stack.get_property((loop or self.disk.loop).object_path, DEVICE_IFACE, 'Job')

    def samples(self, job):
        return self.stack.get_property(job, JOB_IFACE, 'SampleCount')

    def start_stalled_seek(self, backend):
        """A seek that has read, and then finds the disk not answering."""
        job = self.stack.start_benchmark(self.disk.loop, 'seek', long_seek(backend))
        wait_until(lambda: self.samples(job) > 0, 20, what='the seek to read')
        self.disk.stall()

        def stopped():
            before = self.samples(job)
            time.sleep(0.6)  # the daemon publishes samples 20 times a second
            return self.samples(job) == before
        wait_until(stopped, 20, what='the seek to stop getting answers')
        self.assertEqual(self.stack.get_property(job, JOB_IFACE, 'State'), 'running')
        return job

    def test_cancel_ends_a_job_whose_device_stopped_answering(self):
        for backend in ('io_uring', 'psync'):
            with self.subTest(backend=backend):
                self.check_cancel(backend)

    def check_cancel(self, backend):
        job = self.start_stalled_seek(backend)
        started = time.monotonic()
        self.stack.call(job, JOB_IFACE, 'Cancel', 'a{sv}', {}, user='dbtest-in')
        replied = time.monotonic() - started
        state = self.wait_job_state(job, timeout=10)
        ended = time.monotonic() - started
        print(f'\n{backend}: Cancel answered in {replied * 1000:.0f} ms, the job was cancelled after '
              f'{ended * 1000:.0f} ms', file=sys.stderr)
        self.assertLess(replied, CANCEL_REPLY_S, 'Cancel must answer at once')
        self.assertEqual(state, 'cancelled')
        self.assertLess(ended, CANCELLED_WITHIN_S, f'the job took {ended:.2f} s to end after Cancel')
        warnings = self.stack.get_property(job, JOB_IFACE, 'Warnings')
        self.assertTrue(any(NOT_ANSWERING in w for w in warnings), warnings)

        # The device stays claimed while its requests are out: a second job
        # there would hang too.
        self.assertEqual(self.device_job(), job)
        busy = self.stack.call_error(MANAGER_PATH, MANAGER_IFACE, 'StartBenchmark', 'osa{sv}',
                                     self.disk.loop.object_path, 'seek', {'count': ('t', 10)},
                                     user='dbtest-in')
        self.assertDBusError(busy, 'DeviceBusy')
        self.assertIn('not answering', busy.message)

        # Everyone else is served meanwhile.
        other = self.stack.start_benchmark(self.healthy, 'seek',
                                           {'count': ('t', 200), 'detach': ('b', True)})
        self.assertEqual(self.wait_job_state(other, timeout=30), 'finished')
        self.stack.call(MANAGER_PATH, MANAGER_IFACE, 'ListBenchmarks', user='dbtest-out')

        # Once the device answers, the run comes back and frees it.
        self.disk.resume()
        wait_until(lambda: self.device_job() == '/', 20, what='the device to be released')
        self.assertIn(f'{job}: the device answered', self.stack.read_log('diskbenchd'))
        again = self.stack.start_benchmark(self.disk.loop, 'seek',
                                           {'count': ('t', 100), 'detach': ('b', True)})
        self.assertEqual(self.wait_job_state(again, timeout=30), 'finished')

    def test_a_waiting_run_keeps_the_daemon_until_the_device_answers(self):
        pid = self.stack.ensure_daemon()
        job = self.start_stalled_seek('io_uring')
        self.stack.call(job, JOB_IFACE, 'Cancel', 'a{sv}', {}, user='dbtest-in')
        self.assertEqual(self.wait_job_state(job, timeout=10), 'cancelled')
        # Retention 2 s and idle time 3 s: the job would be gone, and an idle
        # daemon with it, by now. This one still has a run waiting for the
        # device, and keeps its job on the bus to say why the device is busy.
        time.sleep(6)
        self.assertTrue(harness.pid_alive(pid), 'the daemon left while a run still waited for its device')
        self.assertEqual(self.stack.daemon_pid(), pid)
        self.assertIn(job, self.stack.get_property(MANAGER_PATH, MANAGER_IFACE, 'Jobs'))
        self.assertEqual(self.device_job(), job)

        self.disk.resume()
        wait_until(lambda: job not in self.stack.get_property(MANAGER_PATH, MANAGER_IFACE, 'Jobs'), 20,
                   what='the job to go once the device answered (retention 2 s)')
        wait_until(lambda: not harness.pid_alive(pid), 20,
                   what='the daemon to leave once the device answered and it was idle')

    def test_sigterm_does_not_wait_for_a_device_that_does_not_answer(self):
        pid = self.stack.ensure_daemon()
        self.start_stalled_seek('io_uring')
        started = time.monotonic()
        os.kill(pid, signal.SIGTERM)
        wait_until(lambda: not harness.pid_alive(pid), 10,
                   what='the daemon to exit while its device does not answer')
        self.assertLess(time.monotonic() - started, 5)
        self.assertIn('still wait for a device that does not answer', self.stack.read_log('diskbenchd'))
        self.assertTrue(os.path.exists(self.disk.flag), 'the disk answered before the daemon left')

    def stack_of(self, loop):
        return self.stack.get_property(loop.object_path, DEVICE_IFACE, 'Stack', user='dbtest-out')

    def test_a_stalled_backing_file_freezes_nothing(self):
        """A loop device over a file on a FUSE filesystem that stopped
        answering (an NFS server gone away does the same): the daemon reads
        what lies under every device at each udisks change and at its start,
        and must answer everyone meanwhile."""
        loop = self.disk.loop
        pid = self.stack.ensure_daemon()
        self.assertTrue(self.stack_of(loop)[0].startswith(f'{loop.name} (file on fuse'), self.stack_of(loop))
        self.disk.stall()
        # Past FUSE's attribute cache (1 s): from now on looking at the file
        # waits for the filesystem.
        time.sleep(1.5)
        with AnswerTimes(self.stack, loop.object_path) as during_change:
            # A udisks change: another loop device comes and goes.
            other = self.stack.attach_loop()
            objects = lambda: self.stack.managed_objects(user='dbtest-out')
            wait_until(lambda: other.object_path in objects(), 20, what='the new loop device to be listed')
            self.stack.detach_loop(other)
            wait_until(lambda: other.object_path not in objects(), 20, what='the loop device to go')
            time.sleep(1)
        # A daemon that starts while the file stalls: it cannot read that
        # device's layers, says so, and serves meanwhile.
        os.kill(pid, signal.SIGTERM)
        wait_until(lambda: not harness.pid_alive(pid), 10, what='the daemon to exit')
        self.stack.ensure_daemon()
        with AnswerTimes(self.stack, loop.object_path) as after_start:
            wait_until(lambda: self.stack_of(loop) == [NOT_ANSWERING_STACK], 10,
                       what="the stalled device's Stack to say it did not answer")
            self.assertTrue(self.stack_of(self.healthy)[0].startswith(f'{self.healthy.name} (file on '))
        for name, times in (('during a udisks change', during_change), ('after a start', after_start)):
            took, what = times.slowest()
            print(f'\n{name}: {len(times.times)} calls, the slowest ({what}) took {took * 1000:.0f} ms',
                  file=sys.stderr)
            self.assertEqual(times.failures, [], name)
            self.assertLess(took, ANSWER_WITHIN_S, f'{name}: {what} took {took:.2f} s')
        self.assertIn('were not read within', self.stack.read_log('diskbenchd'))
        # Once the file answers, the late answer is published.
        self.disk.resume()
        wait_until(lambda: self.stack_of(loop)[0].startswith(f'{loop.name} (file on fuse'), 20,
                   what="the device's layers once the file answered")


def daemon_threads(pid):
    return len(os.listdir(f'/proc/{pid}/task'))


def threads_waiting_at_io(pid):
    """How many of the daemon's threads are in uninterruptible sleep (state
    D): waiting for the disk, which a thread at a condition variable or a
    poll never is."""
    waiting = 0
    for tid in os.listdir(f'/proc/{pid}/task'):
        try:
            with open(f'/proc/{pid}/task/{tid}/stat') as f:
                # "TID (COMM) STATE ...": COMM may hold spaces and parentheses.
                state = f.read().rsplit(')', 1)[1].split()[0]
        except (FileNotFoundError, ProcessLookupError):
            continue  # a thread that ended meanwhile
        waiting += state == 'D'
    return waiting


class StuckRunLimitsTest(harness.IntegrationTestCase):
    """Issue 26, finding 3: a cancelled job whose threads still wait at a
    filesystem that stopped answering keeps counting against its owner until
    they return; a user may have 2 such runs, and is refused new starts
    naming them. Reproduced before the fix: mixed-load with 64 threads on a
    stalled filesystem, cancelled: the daemon still held its 67 threads and
    the same user got 4 new jobs accepted."""

    @classmethod
    def prepare(cls):
        cls.disks = []
        cls.folders = []
        for _ in range(2):
            disk = cls.stack.attach_stalling_disk(size=192 * 1024 * 1024)
            mountpoint, _entry = cls.stack.mount_new_filesystem(disk.loop)
            folder = os.path.join(mountpoint, 'folder')
            os.mkdir(folder)
            subprocess.run(['chown', 'dbtest-in:', folder], check=True)
            cls.disks.append(disk)
            cls.folders.append(folder)
        cls.healthy = cls.stack.attach_loop()

    def tearDown(self):
        for disk in self.disks:
            if os.path.exists(disk.flag):
                disk.resume()
        for disk in self.disks:
            wait_until(lambda: self.stack.get_property(disk.loop.object_path, DEVICE_IFACE, 'Job') == '/', 60,
                       what='the stalled filesystem\'s run to return')

    THREADS = 64

    def stuck_mixed_load(self, pid, disk, folder):
        """mixed-load with 64 threads, stalled while every one of them is
        writing its file, then cancelled: the job ends, its threads stay at
        the filesystem.

        Stalling at a moment chosen by time (once Progress > 0) left anything
        from 11 to 64 threads held: a thread that had written its 2 MiB and
        reached the start line goes home on Cancel. So the disk is slowed
        first (200 ms a request, one request at a time, in the order they
        came: each thread's second chunk queues behind the 64 first ones,
        so none can finish its file within a minute), the test waits until
        all 64 wait at the disk, and only then stalls it."""
        options = {'threads': ('t', self.THREADS), 'file_size': ('t', 2 * 1024 * 1024), 'direct': ('b', True),
                   'detach': ('b', True)}
        busy_before = threads_waiting_at_io(pid)
        disk.slow_down(200)
        with self.stack.client('dbtest-in', start_fs=(folder, 'mixed-load', options)) as c:
            self.assertIsNone(c.error)
            job = c.job
        wait_until(lambda: threads_waiting_at_io(pid) - busy_before >= self.THREADS, 60,
                   what='all 64 of mixed-load\'s threads to wait at the slowed disk')
        disk.stall()
        disk.slow_down(0)  # read once the disk answers again
        self.assertEqual(self.stack.get_property(job, JOB_IFACE, 'State'), 'running')
        self.stack.call(job, JOB_IFACE, 'Cancel', 'a{sv}', {}, user='dbtest-in')
        self.assertEqual(self.wait_job_state(job, timeout=10), 'cancelled')
        return job

    SEEK = {'count': ('t', 100), 'detach': ('b', True)}

    def seek_runs(self):
        """A quick seek of dbtest-in's on the healthy disk is accepted and runs."""
        job = self.stack.start_benchmark(self.healthy, 'seek', self.SEEK, user='dbtest-in')
        self.assertEqual(self.wait_job_state(job, timeout=30), 'finished')

    def seek_refused(self):
        return self.stack.call_error(MANAGER_PATH, MANAGER_IFACE, 'StartBenchmark', 'osa{sv}',
                                     self.healthy.object_path, 'seek', self.SEEK, user='dbtest-in')

    def test_cancelled_runs_stuck_at_their_io_count_until_their_threads_return(self):
        pid = self.stack.ensure_daemon()
        before = daemon_threads(pid)
        first = self.stuck_mixed_load(pid, self.disks[0], self.folders[0])
        held = daemon_threads(pid)
        print(f'\ndaemon threads: {before} before, {held} with one cancelled mixed-load (64 threads) stuck',
              file=sys.stderr)
        # Every one of its 64 threads was at the disk when it stalled, and
        # still is: the daemon holds them all.
        self.assertGreaterEqual(held - before, self.THREADS, 'the stuck run\'s threads are not held')

        # One stuck run counts as one of the user's 4 jobs: 3 more may start.
        self.seek_runs()
        second = self.stuck_mixed_load(pid, self.disks[1], self.folders[1])
        print(f'daemon threads with two stuck: {daemon_threads(pid)}', file=sys.stderr)

        # Two are the most one user may have: every start is refused, naming them.
        refused = self.seek_refused()
        self.assertDBusError(refused, 'LimitsExceeded')
        self.assertIn(first, refused.message)
        self.assertIn(second, refused.message)
        print(f'refused: {refused.message}', file=sys.stderr)
        # Others are not held back by it.
        other = self.stack.start_benchmark(self.healthy, 'seek', self.SEEK, user='root')
        self.assertEqual(self.wait_job_state(other, timeout=30), 'finished')

        # Once the first filesystem answers, its run returns and stops counting.
        self.disks[0].resume()
        wait_until(lambda: self.stack.get_property(self.disks[0].loop.object_path, DEVICE_IFACE, 'Job') == '/',
                   60, what='the first run to return')
        self.seek_runs()
        self.disks[1].resume()
        wait_until(lambda: daemon_threads(pid) < before + 16, 60, what='the stuck threads to return')
        print(f'daemon threads once both filesystems answered: {daemon_threads(pid)}', file=sys.stderr)


if __name__ == '__main__':
    harness.main()
