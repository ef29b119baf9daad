#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Raw device writes through the real daemon, on our own loop devices:
preserve mode leaves the device byte-identical, destroy mode needs the
device named in `confirm` (and then writes only its range, also in the
sweep and the sustained write), a mounted, exclusively held or system disk
is DeviceBusy with nothing written, and only users polkit allows
org.diskbench.write-device get to write."""

import hashlib
import os
import time

import harness
from loop_devices import sha256_of
from harness import JOB_IFACE, MANAGER_IFACE, MANAGER_PATH, run, wait_until

MiB = 1024 * 1024
# Small and quick: the loop device is 64 MiB.
QUICK = {'size': ('t', 8 * MiB), 'region_size': ('t', 8 * MiB), 'duration_s': ('d', 0.2)}
WRITE_KINDS = {'device-write', 'device-write-sweep', 'sustained-write', 'steady-state', 'verify-capacity',
               'burn-in'}



def region_digest(path, start, length):
    with open(path, 'rb') as f:
        f.seek(start)
        return hashlib.sha256(f.read(length)).hexdigest()


class DeviceWriteTest(harness.LoopDeviceTestCase):

    def setUp(self):
        self.before = sha256_of(self.loop.backing)

    def assertUnchanged(self):
        self.assertEqual(sha256_of(self.loop.backing), self.before, 'the device was written')

    def run_job(self, kind, options, user='dbtest-in', timeout=120):
        with self.stack.client(user, (self.loop.object_path, kind, options)) as c:
            if c.error:
                return None, c.error
            done = c.wait_completed(timeout)
            return done, self.job_props(c.job)

    def test_write_kinds_are_listed_as_device_writes(self):
        kinds = self.stack.call(MANAGER_PATH, MANAGER_IFACE, 'ListBenchmarks')[0]
        writes = {k[0] for k in kinds if k[1] == 'device-write'}
        self.assertEqual(writes, WRITE_KINDS)
        for kind in kinds:
            if kind[0] in WRITE_KINDS:
                keys = {p[0]: p for p in kind[4]}
                self.assertEqual(keys['mode'][3], 'preserve', kind[0])
                self.assertEqual(keys['confirm'][3], '', kind[0])

    def test_preserve_leaves_the_device_byte_identical(self):
        self.assertFalse(self.stack.get_property(self.loop.object_path, harness.DEVICE_IFACE, 'SystemDisk'))
        done, props = self.run_job('device-write', QUICK)
        self.assertEqual(done['completed'], 'finished', done)
        self.assertEqual(props['Kind'], 'device-write')
        self.assertEqual(props['Parameters']['mode'], 'preserve')
        mb_s = {k: v for k, v in props['Summary'].items() if k.endswith('mb_s')}
        self.assertTrue(mb_s, props['Summary'])
        for key, value in mb_s.items():
            self.assertGreater(value, 0, key)
        self.assertUnchanged()

    def test_destroy_needs_the_device_named(self):
        for options, prefix in (({'mode': ('s', 'destroy')}, 'confirm:'),
                                ({'mode': ('s', 'destroy'), 'confirm': ('s', '/dev/sda')}, 'confirm:'),
                                ({'mode': ('s', 'erase')}, 'mode:')):
            with self.subTest(options=options):
                _, error = self.run_job('device-write', dict(QUICK, **options))
                self.assertDBusError(error, 'InvalidArgument', prefix)
        # The kinds that only make sense on data one may lose refuse preserve.
        for kind in ('device-write-sweep', 'sustained-write', 'steady-state'):
            with self.subTest(kind=kind):
                _, error = self.run_job(kind, {})
                self.assertDBusError(error, 'InvalidArgument', 'mode:')
        self.assertUnchanged()

    def test_destroy_named_writes_only_where_it_says(self):
        # A loop device has no serial: its node confirms.
        tail_start = 16 * MiB
        tail = region_digest(self.loop.backing, tail_start, self.loop.size - tail_start)
        # Blanks around it, as a copied name may have, neither help nor hurt.
        done, props = self.run_job('device-write', dict(QUICK, mode=('s', 'destroy'),
                                                        confirm=('s', f' {self.loop.node}\n')))
        self.assertEqual(done['completed'], 'finished', done)
        self.assertNotEqual(sha256_of(self.loop.backing), self.before)
        self.assertEqual(region_digest(self.loop.backing, tail_start, self.loop.size - tail_start),
                         tail, 'written past size/region_size')

    def test_the_destroying_kinds_run_through_the_daemon(self):
        # The dd study on the raw device (9 repetitions, the least it
        # allows) and a sustained write of 0.2 s windows, each confirmed.
        runs = {
            'device-write-sweep': {'min_block': ('t', 4096), 'max_block': ('t', MiB),
                                   'amount_per_size': ('t', 2 * MiB)},
            'sustained-write': {'size': ('t', 16 * MiB), 'duration_s': ('d', 1.0), 'window_s': ('d', 0.2)},
        }
        tail_start = 16 * MiB
        tail = region_digest(self.loop.backing, tail_start, self.loop.size - tail_start)
        for kind, options in runs.items():
            with self.subTest(kind=kind):
                done, props = self.run_job(kind, dict(options, mode=('s', 'destroy'),
                                                      confirm=('s', self.loop.node)))
                # Started right after the sweep's raw write, while udevd may
                # still probe the device (its lock): the daemon waits for that.
                self.assertIsNotNone(done, f'not started: {props}')
                self.assertEqual(done['completed'], 'finished', done)
                summary = props['Summary']
                self.assertEqual(summary['mode'], 'destroy')
                rates = {k: v for k, v in summary.items() if k.endswith('mb_s')}
                self.assertTrue(rates, summary)
                for key, value in rates.items():
                    self.assertGreater(value, 0, key)
                if kind == 'device-write-sweep':  # 4 KiB .. 1 MiB: 9 sizes x 9 repetitions x 2 MiB
                    self.assertEqual(summary['bytes'], 9 * 9 * 2 * MiB)
                else:  # about 5 windows of 0.2 s, and the steady-state verdict
                    self.assertGreaterEqual(summary['windows'], 4)
                    self.assertIn('steady_state', summary)
                    self.assertIn('cliff', summary)
                    if summary['cliff']:
                        self.assertLessEqual(summary['cliff_at_bytes'], summary['bytes'])
                    else:
                        self.assertNotIn('cliff_at_s', summary)
        self.assertEqual(region_digest(self.loop.backing, tail_start, self.loop.size - tail_start),
                         tail, 'written past amount_per_size/size')
        self.assertNotEqual(sha256_of(self.loop.backing), self.before)

    def test_the_profiles_write_column(self):
        # profile write=true: a raw write in every respect (writes_when).
        column = {'tests': ('s', 'SEQ1M Q2T1, RND4K Q4T1'), 'region_size': ('t', 8 * MiB),
                  'duration_s': ('d', 30.0), 'warmup_s': ('d', 0.0), 'max_bytes': ('t', 2 * MiB),
                  'write': ('b', True)}
        # Keeping the data: the sequential test written, the random one not.
        done, props = self.run_job('profile', column)
        self.assertEqual(done['completed'], 'finished', done)
        summary = props['Summary']
        self.assertEqual(summary['mode'], 'preserve')
        self.assertEqual(summary['sync_rule'], 'batch')
        self.assertEqual(summary['written_tests'], 'SEQ1M Q2T1')
        self.assertGreater(summary['seq1m_q2t1.write_throughput_mb_s'], 0)
        self.assertNotIn('rnd4k_q4t1.write_throughput_mb_s', summary)
        self.assertUnchanged()
        # Erasing needs the device named, as every destroying write.
        _, error = self.run_job('profile', dict(column, mode=('s', 'destroy')))
        self.assertDBusError(error, 'InvalidArgument', 'confirm:')
        self.assertUnchanged()
        tail_start = 8 * MiB
        tail = region_digest(self.loop.backing, tail_start, self.loop.size - tail_start)
        done, props = self.run_job('profile', dict(column, mode=('s', 'destroy'), confirm=('s', self.loop.node)))
        self.assertEqual(done['completed'], 'finished', done)
        summary = props['Summary']
        self.assertEqual(summary['written_tests'], 'SEQ1M Q2T1,RND4K Q4T1')
        self.assertEqual(summary['tests'], 'SEQ1M Q2T1,RND4K Q4T1,MIX RND4K Q1T1')
        self.assertEqual(summary['sync_rule'], 'end')
        self.assertEqual(summary['syncs'], 3)
        for key in ('seq1m_q2t1.write_throughput_mb_s', 'rnd4k_q4t1.write_iops', 'mix.total_mb_s',
                    'mix.write_iops'):
            self.assertGreater(summary[key], 0, key)
        self.assertNotEqual(sha256_of(self.loop.backing), self.before)
        self.assertEqual(region_digest(self.loop.backing, tail_start, self.loop.size - tail_start),
                         tail, 'written past region_size')

    def test_refused_users_write_nothing(self):
        _, error = self.run_job('device-write', QUICK, user='dbtest-out')
        self.assertDBusError(error, 'NotAuthorized')
        _, error = self.run_job('device-write', dict(QUICK, **{
            'auth.no_user_interaction': ('b', True)}), user='dbtest-ask')
        self.assertDBusError(error, 'NotAuthorizedCanObtain')
        self.assertUnchanged()

    def test_an_exclusively_held_device_is_busy(self):
        # Not mounted, so udisks sees nothing: the daemon's O_EXCL open is
        # what notices someone else has it.
        holder = os.open(self.loop.node, os.O_RDONLY | os.O_EXCL)
        try:
            _, error = self.run_job('device-write', QUICK)
        finally:
            os.close(holder)
        self.assertDBusError(error, 'DeviceBusy')
        self.assertUnchanged()

    def test_the_device_lock_is_waited_for_briefly_then_busy(self):
        # udevd holds the device's lock (shared) for a moment after every
        # writer's close, while it probes: a write is started once it goes
        # (the daemon tries again for up to a second, off its bus thread).
        # A lock held for longer (a partitioner) is DeviceBusy.
        import fcntl
        import threading
        # The lock goes with the descriptor, as udevd's does (the daemon
        # also refuses a device someone merely has open).
        holder = os.open(self.loop.node, os.O_RDONLY)
        try:
            fcntl.flock(holder, fcntl.LOCK_SH)
            threading.Timer(0.3, lambda: os.close(holder)).start()
            started = time.monotonic()
            done, props = self.run_job('device-write', QUICK)
            self.assertIsNotNone(done, f'not started: {props}')
            self.assertEqual(done['completed'], 'finished', done)
            self.assertUnchanged()
            self.assertGreater(time.monotonic() - started, 0.3)
            holder = os.open(self.loop.node, os.O_RDONLY)
            fcntl.flock(holder, fcntl.LOCK_SH)
            # While the daemon tries again, it answers others at once: the
            # wait is on its loop's timers, not on its bus thread.
            answered = []

            def list_kinds():
                time.sleep(0.3)
                asked = time.monotonic()
                self.stack.call(MANAGER_PATH, MANAGER_IFACE, 'ListBenchmarks')
                answered.append(time.monotonic() - asked)
            other = threading.Thread(target=list_kinds)
            busy_from = time.monotonic()
            other.start()
            _, error = self.run_job('device-write', QUICK)
            other.join(30)
            self.assertDBusError(error, 'DeviceBusy')
            self.assertIn("holds the device's lock", error.message)
            self.assertGreater(time.monotonic() - busy_from, 0.9, 'gave up before a second')
            self.assertEqual(len(answered), 1)
            self.assertLess(answered[0], 0.5, 'the daemon did not answer while it waited for the lock')
        finally:
            os.close(holder)
        self.assertUnchanged()

    def holding_process(self, mode):
        """Another program with the device open (as QEMU on a raw disk, or
        dd): no O_EXCL, no flock. MODE 'hold' only keeps it open; 'write'
        writes 64 KiB of 0x5a at 32 MiB once told to (a line on stdin),
        syncs and says so, then keeps it open until stdin closes."""
        program = r"""
import mmap, os, sys
fd = os.open(sys.argv[1], os.O_RDWR | os.O_DIRECT)
print('open', flush=True)
if sys.argv[2] == 'write':
    sys.stdin.readline()
    buffer = mmap.mmap(-1, 65536)
    buffer.write(b'\x5a' * 65536)
    os.pwritev(fd, [buffer], 32 << 20)
    os.fsync(fd)
    print('written', flush=True)
sys.stdin.read()
"""
        import subprocess
        proc = subprocess.Popen(['/usr/bin/python3', '-c', program, self.loop.node, mode],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.addCleanup(lambda: (proc.poll() is None and proc.kill(), proc.wait()))
        self.assertEqual(proc.stdout.readline().strip(), 'open')
        return proc

    def test_a_device_another_program_has_open_is_busy(self):
        holder = self.holding_process('hold')
        done, props = self.run_job('device-write', QUICK)
        holder.stdin.close()
        holder.wait(10)
        self.assertIsNotNone(done, props)
        self.assertEqual(done['completed'], 'failed', done)
        self.assertEqual(props['ErrorName'], harness.ERROR_PREFIX + 'DeviceBusy', props)
        self.assertIn('the device is open in another program', props['ErrorMessage'])
        self.assertIn(f'python3 (pid {holder.pid})', props['ErrorMessage'])
        self.assertUnchanged()

    def test_a_write_by_another_program_stops_a_preserve_run(self):
        # Random writes in [0, 8 MiB) for up to a minute; the other program
        # writes at 32 MiB, where the run never does, once the run is
        # writing (its first samples).
        options = dict(QUICK, duration_s=('d', 60.0))
        with open(self.loop.backing, 'rb') as f:
            expected = bytearray(f.read())
        expected[32 << 20:(32 << 20) + 65536] = b'\x5a' * 65536
        with self.stack.client('dbtest-in', (self.loop.object_path, 'device-write', options)) as c:
            self.assertIsNone(c.error)
            wait_until(lambda: c.samples_signals(), 60, what='the run to write')
            writer = self.holding_process('write')
            writer.stdin.write('go\n')
            writer.stdin.flush()
            self.assertEqual(writer.stdout.readline().strip(), 'written')
            # Well before its minute: it stops at the next batch.
            done = c.wait_completed(30)
            props = self.job_props(c.job)
        writer.stdin.close()
        writer.wait(10)
        self.assertEqual(done['completed'], 'failed', done)
        self.assertEqual(props['ErrorName'], harness.ERROR_PREFIX + 'DeviceBusy', props)
        self.assertIn('another program wrote 64 KiB to the device', props['ErrorMessage'])
        # What the other program wrote is there, and every other byte is as it was.
        with open(self.loop.backing, 'rb') as f:
            after = f.read()
        self.assertEqual(after[32 << 20:(32 << 20) + 65536], b'\x5a' * 65536)
        self.assertTrue(after == bytes(expected), 'the run changed bytes besides what the other program wrote')

    def test_busctl_alone_can_run_it(self):
        res = self.stack.busctl(
            '--json=short', 'call', harness.BUS_NAME, MANAGER_PATH, MANAGER_IFACE,
            'StartBenchmark', 'osa{sv}', self.loop.object_path, 'device-write', '5',
            'size', 't', str(4 * MiB), 'region_size', 't', str(4 * MiB),
            'duration_s', 'd', '0.1', 'mode', 's', 'preserve', 'detach', 'b', 'true',
            user='dbtest-in')
        self.assertEqual(res.returncode, 0, res.stderr)
        job = __import__('json').loads(res.stdout)['data'][0]
        self.assertEqual(self.wait_job_state(job, timeout=120), 'finished')
        self.assertUnchanged()


class MountedDeviceWriteTest(harness.IntegrationTestCase):

    @classmethod
    def prepare(cls):
        cls.loop = cls.stack.attach_loop()
        run(['mkfs.ext4', '-q', '-F', '-E', 'lazy_itable_init=0,lazy_journal_init=0', cls.loop.node])
        # Read-only: the filesystem writes nothing while mounted, so the
        # device's checksum is a fair witness.
        cls.mount = cls.stack.mount_read_only(cls.loop.node)

    @classmethod
    def tearDownClass(cls):
        cls.stack.umount(cls.mount)
        super().tearDownClass()

    def test_a_mounted_device_is_busy_and_untouched(self):
        harness.wait_until(lambda: self.stack.get_property(self.loop.object_path, harness.DEVICE_IFACE,
                                                           'Mounted'), 20, what='udisks to see the mount')
        before = sha256_of(self.loop.backing)
        for mode in ('preserve', 'destroy'):
            with self.subTest(mode=mode):
                options = dict(QUICK, mode=('s', mode), confirm=('s', self.loop.node))
                with self.stack.client('dbtest-in', (self.loop.object_path, 'device-write', options)) as c:
                    self.assertDBusError(c.error, 'DeviceBusy')
                    self.assertIn('mounted', c.error.message)
        self.assertEqual(sha256_of(self.loop.backing), before)


class SystemDiskWriteTest(harness.IntegrationTestCase):
    """A disk the running system is on is never written, not even an
    unmounted partition of it. The harness starts the daemon with
    --protect-mount-point, which makes the disk under that mount point count
    like the one under /: partition 1 of our loop device is mounted there,
    partition 2 is free and unused, and still refused."""

    @classmethod
    def prepare(cls):
        cls.loop = cls.stack.attach_loop()  # 64 MiB: partitions of 31 MiB and 32 MiB
        system_part, cls.spare = cls.stack.add_partitions(cls.loop, [(2048, 63488), (65536, 65536)])
        run(['mkfs.ext4', '-q', '-F', system_part])
        cls.mount = cls.stack.mount_read_only(system_part, cls.stack.protected_mount_point)

    @classmethod
    def tearDownClass(cls):
        cls.stack.umount(cls.mount)
        super().tearDownClass()

    def test_an_unmounted_partition_of_a_system_disk_is_busy_and_untouched(self):
        def listed():
            try:
                return self.stack.call(MANAGER_PATH, MANAGER_IFACE, 'FindDevice', 's', self.spare)[0]
            except harness.DBusError:
                return None
        path = harness.wait_until(listed, 20, what=f'the daemon to list {self.spare}')
        self.assertFalse(self.stack.get_property(path, harness.DEVICE_IFACE, 'Mounted'))
        # Said up front, so the app shows why instead of Start.
        self.assertTrue(self.stack.get_property(path, harness.DEVICE_IFACE, 'SystemDisk'))
        self.assertTrue(self.stack.get_property(self.loop.object_path, harness.DEVICE_IFACE, 'SystemDisk'))
        spare = (65536 * 512, 65536 * 512)
        before = region_digest(self.loop.backing, *spare)
        for mode in ('preserve', 'destroy'):
            with self.subTest(mode=mode):
                options = dict(QUICK, mode=('s', mode), confirm=('s', self.spare))
                with self.stack.client('dbtest-in', (path, 'device-write', options)) as c:
                    self.assertDBusError(c.error, 'DeviceBusy')
                    self.assertIn('running system', c.error.message)
        self.assertEqual(region_digest(self.loop.backing, *spare), before, 'the partition was written')


if __name__ == '__main__':
    harness.main()
