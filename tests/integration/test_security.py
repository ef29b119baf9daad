#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""What one local user must not be able to do to the daemon or to others:
forge the signals it follows, get it disconnected with an oversized reply,
take more than a user's share, get past polkit without the dialog naming
the device, or forge lines of its log. All as unprivileged test users on
the private bus with the real daemon, polkitd and udisksd."""

import atexit
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

import harness
from cleanup import PHASE_CLIENTS
from harness import (BUS_NAME, DEVICE_IFACE, JOB_IFACE, MANAGER_IFACE, MANAGER_PATH,
                     OBJECT_MANAGER_IFACE, SEEK_LONG, UDISKS_NAME, run, wait_until)

NO_INTERACTION = {'auth.no_user_interaction': ('b', True)}
DRIVER = ('org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus')
# The daemon's own check, logged when it drops a forged signal.
IGNORED_OWNER_CHANGE = 'ignored a NameOwnerChanged signal that'
IGNORED_UDISKS = 'ignored a udisks2 signal'
# The bus policy's rule against signals addressed to the daemon.
SIGNAL_DENY = ('<deny send_destination="org.diskbench.DiskBench1" send_type="signal" '
               'send_broadcast="false"/>')


def without_signal_deny(policy):
    """The bus policy less its signal rule, so forged signals reach the daemon
    and its own checks are what a test sees (the rule is tested apart)."""
    if SIGNAL_DENY not in policy:
        raise AssertionError('the bus policy no longer has the signal rule this test takes out')
    return policy.replace(SIGNAL_DENY, '')


def unique_name(stack, name):
    return stack.call(DRIVER[1], DRIVER[2], 'GetNameOwner', 's', name, dest=DRIVER[0])[0]


def forge(stack, user, dest, path, signal, *args):
    """Sends, as `user`, a signal addressed to `dest`, as a local attacker can
    with gdbus; the bus fills in the user's own unique name as its sender.
    Arguments are GVariant text."""
    argv = ['gdbus', 'emit', '--system', '--dest', dest, '--object-path', path,
            '--signal', signal, *args]
    res = subprocess.run(stack.as_user(user, argv), env=dict(os.environ, **stack.bus_env()),
                         capture_output=True, text=True, timeout=30)
    if res.returncode != 0:
        raise AssertionError(f'gdbus emit failed: {res.stderr}')


def forge_owner_gone(stack, user, name, old_owner=None):
    forge(stack, user, unique_name(stack, BUS_NAME), DRIVER[1], 'org.freedesktop.DBus.NameOwnerChanged',
          f"'{name}'", f"'{old_owner or name}'", "''")


def settle(stack):
    """Gives forged signals time to be handled: a method call answered after
    them (the daemon handles messages in order), and a moment for a job a
    signal cancelled to end."""
    time.sleep(0.5)
    stack.call(MANAGER_PATH, MANAGER_IFACE, 'ListBenchmarks', user='dbtest-out')
    time.sleep(1.0)


# Sends every start in `starts` (folder, kind, options) on one connection
# without waiting for a reply in between, so they reach the daemon together,
# and prints their replies as JSON, in order. Run as a test user.
START_TOGETHER = r'''
import json, os, sys
import dbus, dbus.mainloop.glib
from gi.repository import GLib
TYPES = {'b': dbus.Boolean, 't': dbus.UInt64, 'u': dbus.UInt32, 'd': dbus.Double, 's': dbus.String}
dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
bus = dbus.bus.BusConnection(os.environ['DBUS_SYSTEM_BUS_ADDRESS'])
manager = dbus.Interface(bus.get_object('org.diskbench.DiskBench1', '/org/diskbench/DiskBench1'),
                         'org.diskbench.DiskBench1.Manager')
starts = json.loads(sys.argv[1])
replies = [None] * len(starts)
loop = GLib.MainLoop()
def done(i, reply):
    replies[i] = reply
    if all(r is not None for r in replies):
        loop.quit()
for i, (folder, kind, options) in enumerate(starts):
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    manager.StartFilesystemBenchmark(
        dbus.types.UnixFd(fd), kind,
        dbus.Dictionary({k: TYPES[sig](v, variant_level=1) for k, (sig, v) in options.items()}, signature='sv'),
        reply_handler=lambda job, i=i: done(i, {'job': str(job)}),
        error_handler=lambda e, i=i: done(i, {'error': e.get_dbus_name(), 'message': e.get_dbus_message()}),
        timeout=120)
    os.close(fd)  # the message holds its own copy
loop.run()
print(json.dumps(replies))
'''


# Keeps 8 calls of START (device, kind, options) in flight on one
# connection, sending another as each is answered, until its stdin closes:
# what a flooder does rather than wait for each answer. Prints
# {"flooding": true} after its first 8 answers and, at the end, how many
# calls were answered and the error names they got. Run as a test user.
FLOOD_STARTS = r"""
import json, os, sys
import dbus, dbus.mainloop.glib
from gi.repository import GLib
TYPES = {'b': dbus.Boolean, 't': dbus.UInt64, 's': dbus.String}
dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
device, kind, options = json.loads(sys.argv[1])
bus = dbus.bus.BusConnection(os.environ['DBUS_SYSTEM_BUS_ADDRESS'])
manager = dbus.Interface(bus.get_object('org.diskbench.DiskBench1', '/org/diskbench/DiskBench1'),
                         'org.diskbench.DiskBench1.Manager')
options = dbus.Dictionary({k: TYPES[sig](v, variant_level=1) for k, (sig, v) in options.items()}, signature='sv')
loop = GLib.MainLoop()
state = {'answered': 0, 'in_flight': 0, 'stopping': False, 'errors': {}}
def answered(name):
    state['errors'][name] = state['errors'].get(name, 0) + 1
    state['answered'] += 1
    state['in_flight'] -= 1
    if state['answered'] == 8:
        print(json.dumps({'flooding': True}), flush=True)
    if not state['stopping']:
        send()
    elif state['in_flight'] == 0:
        loop.quit()
def send():
    state['in_flight'] += 1
    manager.StartBenchmark(dbus.ObjectPath(device), kind, options, timeout=120,
                           reply_handler=lambda job: answered('(started)'),
                           error_handler=lambda e: answered(e.get_dbus_name() + (
                               ' (refused starts)' if 'refused by polkit' in e.get_dbus_message() else '')))
def stdin_closed(*_):
    state['stopping'] = True
    if state['in_flight'] == 0:
        loop.quit()
    return False
GLib.io_add_watch(sys.stdin.fileno(), GLib.IO_IN | GLib.IO_HUP, stdin_closed)
for _ in range(8):
    send()
loop.run()
print(json.dumps({'calls': state['answered'], 'errors': state['errors']}), flush=True)
"""

# Reads the Manager's Version N times, one call after another, on one
# connection (the daemon answers Properties.Get on its bus thread, as it
# does every call), and prints how long each took from send to reply (s).
TIMED_CALLS = r"""
import json, os, sys, time
import dbus
bus = dbus.bus.BusConnection(os.environ['DBUS_SYSTEM_BUS_ADDRESS'])
properties = dbus.Interface(bus.get_object('org.diskbench.DiskBench1', '/org/diskbench/DiskBench1'),
                            'org.freedesktop.DBus.Properties')
properties.Get('org.diskbench.DiskBench1.Manager', 'Version')
took = []
for _ in range(int(sys.argv[1])):
    started = time.monotonic()
    properties.Get('org.diskbench.DiskBench1.Manager', 'Version')
    took.append(time.monotonic() - started)
print(json.dumps(took))
"""


def start_together(stack, user, starts):
    res = subprocess.run(stack.as_user(user, ['/usr/bin/python3', '-c', START_TOGETHER, json.dumps(starts)]),
                         env=dict(os.environ, **stack.bus_env()), capture_output=True, text=True, timeout=180)
    if res.returncode != 0:
        raise AssertionError(f'the starts failed: {res.stderr}')
    return json.loads(res.stdout)


def plant_leftover(folder, user, files):
    """A scratch folder of `user`'s that a crashed run left in `folder`, with
    `files` files in it: the next run there removes it while its folder is
    prepared, which takes that long."""
    leftover = os.path.join(folder, '.diskbench-scratch-leftover')
    os.mkdir(leftover, 0o700)
    with open(os.path.join(leftover, 'diskbench-scratch-marker'), 'w') as f:
        f.write('diskbench scratch directory: diskbench removes it (and any it finds left over by a crash).\n')
    for i in range(files):
        with open(os.path.join(leftover, f'f{i}'), 'w'):
            pass
    subprocess.run(['chown', '-R', f'{user}:', leftover], check=True)


def devices(stack):
    objects = stack.managed_objects()
    return {path: (ifaces[DEVICE_IFACE]['Node'], ifaces[DEVICE_IFACE]['Size'])
            for path, ifaces in objects.items() if DEVICE_IFACE in ifaces}


class ForgedSignalsTest(harness.LoopDeviceTestCase):
    """The daemon's own checks: the bus policy's rule against signals
    addressed to it is taken out here, so the forged signals do arrive."""

    stack_options = {'bus_policy_edit': without_signal_deny}

    def test_forged_owner_vanishing_cancels_nothing(self):
        # Without the check, another user could cancel any job it cannot
        # cancel through polkit (manage-jobs) by "announcing" that the
        # owner's connection closed.
        with self.stack.client('dbtest-in', (self.loop.object_path, 'seek', SEEK_LONG)) as c:
            self.assertIsNone(c.error)
            marks = self.stack.log_marks()
            forge_owner_gone(self.stack, 'dbtest-out', c.unique_name)
            settle(self.stack)
            self.assertEqual(self.stack.get_property(c.job, JOB_IFACE, 'State'), 'running')
            # It did arrive, and was dropped for its sender.
            self.assertIn(IGNORED_OWNER_CHANGE, self.stack.read_log('diskbenchd', marks['diskbenchd']))
            # The real one still counts.
            c.kill()
            wait_until(lambda: self.stack.get_property(c.job, JOB_IFACE, 'State') == 'cancelled', 5,
                       what='the job to end with its owner')

    def test_forged_udisks_signals_change_nothing(self):
        before = devices(self.stack)
        self.assertIn(self.loop.object_path, before)
        udisks = unique_name(self.stack, UDISKS_NAME)
        daemon = unique_name(self.stack, BUS_NAME)
        marks = self.stack.log_marks()
        root = '/org/freedesktop/UDisks2'
        # A "device" whose node would be a link to a file root may read.
        forge(self.stack, 'dbtest-out', daemon, root, 'org.freedesktop.DBus.ObjectManager.InterfacesAdded',
              f"objectpath '{root}/block_devices/evil0'",
              "{'org.freedesktop.UDisks2.Block': {'Device': <b'/dev/evil0'>, "
              "'DeviceNumber': <uint64 1999>, 'Size': <uint64 1048576>, 'Drive': <objectpath '/'>}}")
        forge(self.stack, 'dbtest-out', daemon, self.loop.udisks_path,
              'org.freedesktop.DBus.Properties.PropertiesChanged',
              "'org.freedesktop.UDisks2.Block'", "{'Size': <uint64 4096>}", '@as []')
        forge(self.stack, 'dbtest-out', daemon, root, 'org.freedesktop.DBus.ObjectManager.InterfacesRemoved',
              f"objectpath '{self.loop.udisks_path}'",
              "['org.freedesktop.UDisks2.Block', 'org.freedesktop.UDisks2.Loop']")
        forge_owner_gone(self.stack, 'dbtest-out', UDISKS_NAME, udisks)

        settle(self.stack)
        self.assertEqual(devices(self.stack), before)
        # They did arrive, and were dropped for their sender.
        log = self.stack.read_log('diskbenchd', marks['diskbenchd'])
        self.assertEqual(log.count(IGNORED_UDISKS), 3, log)
        self.assertIn(IGNORED_OWNER_CHANGE, log)
        # udisksd's own signals still count: a new device shows up.
        other = self.stack.attach_loop(size=8 * 1024 * 1024)
        try:
            wait_until(lambda: other.object_path in devices(self.stack), 20,
                       what='a real hotplug to reach the daemon')
        finally:
            self.stack.detach_loop(other)


class BusPolicyTest(harness.LoopDeviceTestCase):
    """The second lock, with the installed bus policy: a signal addressed to
    the daemon never reaches it."""

    def test_bus_refuses_signals_addressed_to_the_daemon(self):
        with self.stack.client('dbtest-in', (self.loop.object_path, 'seek', SEEK_LONG)) as c:
            self.assertIsNone(c.error)
            marks = self.stack.log_marks()
            forge_owner_gone(self.stack, 'dbtest-out', c.unique_name)
            settle(self.stack)
            self.assertNotIn(IGNORED_OWNER_CHANGE, self.stack.read_log('diskbenchd', marks['diskbenchd']))
            self.assertEqual(self.stack.get_property(c.job, JOB_IFACE, 'State'), 'running')


class PagedSamplesTest(harness.LoopDeviceTestCase):

    def test_more_samples_than_one_reply_holds_are_paged(self):
        # 300,000 reads make 300,000 points, more than one reply carries
        # (262,144). In 0.1 GetSamples(0) put them all in one reply; with a
        # job of ~1.4 M points that passed dbus-daemon's 32 MiB limit and
        # got the daemon disconnected, ending every user's jobs.
        pid = self.stack.ensure_daemon()
        job = self.stack.start_benchmark(self.loop, 'seek', {'count': ('t', 300000),
                                                            'detach': ('b', True)})
        self.wait_job_state(job, ('finished',), timeout=240)
        count = self.stack.get_property(job, JOB_IFACE, 'SampleCount')
        self.assertEqual(count, 300000 + 19)  # and the 19 points of their latency distribution
        first_next, first = self.stack.call(job, JOB_IFACE, 'GetSamples', 't', 0, timeout=120)
        self.assertEqual(first_next, 262144)
        self.assertEqual(len(first), 262144)
        rest_next, rest = self.stack.call(job, JOB_IFACE, 'GetSampleRange', 'tu', first_next, 0,
                                          timeout=120)
        self.assertEqual(rest_next, count)
        self.assertEqual(len(rest), count - 262144)
        page_next, page = self.stack.call(job, JOB_IFACE, 'GetSampleRange', 'tu', 10, 5)
        self.assertEqual((page_next, len(page)), (15, 5))
        self.assertEqual(page[0], first[10])
        # The same daemon, still on the bus.
        self.assertEqual(self.stack.daemon_pid(), pid)
        self.assertTrue(self.stack.name_has_owner(BUS_NAME))


class FolderPrivacyTest(harness.IntegrationTestCase):

    def test_a_folder_jobs_samples_are_its_owners(self):
        folder = '/dev/shm/diskbench-it-private'
        os.makedirs(folder, exist_ok=True)
        try:
            subprocess.run(['chown', 'dbtest-in:', folder], check=True)
            options = {'size': ('t', 64 * 1024 * 1024), 'block_size': ('t', 4096)}
            with self.stack.client('dbtest-in', start_fs=(folder, 'file-rw', options)) as c:
                self.assertIsNone(c.error)
                c.wait_completed(120)
                err = self.stack.call_error(c.job, JOB_IFACE, 'GetSamples', 't', 0, user='dbtest-out')
                self.assertDBusError(err, 'NotAuthorized')
                err = self.stack.call_error(c.job, JOB_IFACE, 'GetSampleRange', 'tu', 0, 0,
                                            user='dbtest-out')
                self.assertDBusError(err, 'NotAuthorized')
                # Nor the folder.
                self.assertEqual(self.stack.get_property(c.job, JOB_IFACE, 'Target', user='dbtest-out'), '')
                err = self.stack.call_error(c.job, JOB_IFACE, 'GetTarget', user='dbtest-out')
                self.assertDBusError(err, 'NotAuthorized')
                self.assertEqual(self.stack.call(c.job, JOB_IFACE, 'GetTarget', user='dbtest-in'), [folder])
                # The owner (another connection of the same user) and root may.
                count = self.stack.get_property(c.job, JOB_IFACE, 'SampleCount')
                self.assertGreater(count, 0)
                for user in ('dbtest-in', 'root'):
                    next_index, samples = self.stack.call(c.job, JOB_IFACE, 'GetSamples', 't', 0, user=user)
                    self.assertEqual((next_index, len(samples)), (count, count))
                # Its Samples signals went to the owner's connection only.
                self.assertTrue(c.samples_signals())
        finally:
            subprocess.run(['rm', '-rf', folder], check=False)

    def test_a_folder_jobs_error_names_its_folder_only_to_its_owner(self):
        # A filesystem with room for the scratch folder and its marker but
        # no further file (its root, the folder, the marker: 3 inodes):
        # file-rw fails in its run with "FOLDER: cannot create a scratch
        # file: No space left on device", an engine error that names the
        # folder.
        folder = '/dev/shm/diskbench-it-secret-name'
        mount = self.stack.mount_tmpfs(folder, '8m', 'dbtest-in', inodes=3)
        try:
            with self.stack.client('dbtest-out', watch_completed=True) as listener:
                options = {'size': ('t', 1024 * 1024)}
                with self.stack.client('dbtest-in', start_fs=(folder, 'file-rw', options)) as c:
                    self.assertIsNone(c.error)
                    completed = c.wait_completed(60)
                    # Its owner hears the whole story.
                    self.assertEqual(completed['completed'], 'failed')
                    self.assertIn(folder, completed['error'])
                    self.assertIn('cannot create a scratch file', completed['error'])
                    self.assertEqual(self.stack.call(c.job, JOB_IFACE, 'GetErrorMessage', user='dbtest-in')[0],
                                     self.stack.get_property(c.job, JOB_IFACE, 'ErrorMessage',
                                                             user='dbtest-in').replace('the folder', folder))
                    # Anyone else: what failed, not where.
                    for name in ('ErrorMessage', 'Error'):
                        public = self.stack.get_property(c.job, JOB_IFACE, name, user='dbtest-out')
                        self.assertNotIn('secret-name', public)
                        self.assertIn('the folder: cannot create a scratch file', public)
                    # Job.Failure (0.16), the same failure as data, is as public:
                    # the folder is the catalogue's "the folder", nowhere its name.
                    failure = self.stack.get_property(c.job, JOB_IFACE, 'Failure', user='dbtest-out')
                    self.assertNotIn('secret-name', json.dumps(failure))
                    ids, targets = [], []
                    at = failure
                    while at:
                        ids.append(at['id'])
                        targets.append(at['arguments'].get('target'))
                        at = at['arguments'].get('detail') if isinstance(at['arguments'].get('detail'), dict) else None
                    self.assertIn('error-scratch-file-uncreatable', ids)
                    self.assertEqual(targets, [{'id': 'error-the-folder', 'arguments': {}}] * len(targets))
                    err = self.stack.call_error(c.job, JOB_IFACE, 'GetErrorMessage', user='dbtest-out')
                    self.assertDBusError(err, 'NotAuthorized')
                    self.assertIn(folder, self.stack.call(c.job, JOB_IFACE, 'GetErrorMessage', user='root')[0])
                    # The listener subscribed before the job started and got
                    # its Completed only if it was broadcast: a device job's
                    # is (the control), a folder job's is not.
                    seek = self.stack.start_benchmark(self.stack.attach_loop(), 'seek',
                                                      {'count': ('t', 50), 'detach': ('b', True)})
                    listener.wait_for(lambda line: line.get('overheard') == seek, 30,
                                      "the device job's Completed to reach the listener")
                    self.assertEqual([line for line in listener.overheard() if line['overheard'] == c.job], [])
        finally:
            self.stack.umount(mount)

    def test_a_folder_name_cannot_forge_a_log_line(self):
        folder = '/dev/shm/diskbench-it-x\nDec 24 12:00:00 host sshd[1]: Accepted password for root'
        os.makedirs(folder, exist_ok=True)
        try:
            subprocess.run(['chown', 'dbtest-in:', folder], check=True)
            marks = self.stack.log_marks()
            options = {'size': ('t', 4 * 1024 * 1024)}
            with self.stack.client('dbtest-in', start_fs=(folder, 'file-rw', options)) as c:
                self.assertIsNone(c.error)
                c.wait_completed(60)
            log = self.stack.read_log('diskbenchd', marks['diskbenchd'])
            # The name is logged escaped (the folder's display form escapes
            # control characters, the log escapes again), and on one line
            # with the daemon's own text: nothing of it starts a line.
            named = [line for line in log.splitlines() if 'diskbench-it-x' in line]
            self.assertTrue(named, log)
            self.assertTrue(all('Dec 24' in line for line in named), log)
            self.assertFalse([line for line in log.splitlines() if line.startswith('Dec 24')], log)
        finally:
            subprocess.run(['rm', '-rf', folder], check=False)


# The configuration an administrator writes (diskbenchd.8, CONFIGURATION),
# in place before any daemon of ConfiguredLimitsTest's stack starts: the
# daemon reads it once, as it starts. Not named diskbench-it-*: a stack
# starting removes what such a name holds, as an earlier run's leftover.
CONFIG_DIR = tempfile.mkdtemp(prefix='diskbenchd-conf-test-', dir='/var/tmp')
atexit.register(shutil.rmtree, CONFIG_DIR, True)
LAB_CONFIG = os.path.join(CONFIG_DIR, 'diskbenchd.conf')
with open(LAB_CONFIG, 'w') as config:
    config.write('[Limits]\n# a lab that runs many drives at once\nMaxJobsPerUser=3\n')


class ConfiguredLimitsTest(harness.IntegrationTestCase):
    """The jobs cap set in the configuration file (issue 42: a lab runs more
    drives at once than a desktop), 3 here: the fourth start is refused."""

    stack_options = {'daemon_args': ['--config', LAB_CONFIG]}

    @classmethod
    def prepare(cls):
        cls.loops = [cls.stack.attach_loop() for _ in range(4)]

    def start(self, loop, user):
        return self.stack.start_benchmark(loop, 'seek', {**SEEK_LONG, 'detach': ('b', True)}, user=user)

    def test_the_files_cap_holds(self):
        jobs = [self.start(loop, 'dbtest-in') for loop in self.loops[:3]]
        try:
            err = self.stack.call_error(MANAGER_PATH, MANAGER_IFACE, 'StartBenchmark', 'osa{sv}',
                                        self.loops[3].object_path, 'seek', SEEK_LONG, user='dbtest-in')
            self.assertDBusError(err, 'LimitsExceeded')
            self.assertIn('already runs 3 benchmarks', err.message)
        finally:
            for job in jobs:
                self.stack.call(job, JOB_IFACE, 'Cancel', 'a{sv}', {})
            for job in jobs:
                self.wait_job_state(job, harness.FINAL_STATES, timeout=10)
        with open(self.stack.logs['diskbenchd']) as log:
            self.assertIn('at most 3 benchmarks per user at once', log.read())


class UserLimitsTest(harness.IntegrationTestCase):
    """Per-user caps, with the daemon allowing 2 running jobs a user."""

    stack_options = {'daemon_args': ['--max-jobs-per-user', '2']}

    @classmethod
    def prepare(cls):
        cls.loops = [cls.stack.attach_loop() for _ in range(3)]

    def start(self, loop, user):
        return self.stack.start_benchmark(loop, 'seek', {**SEEK_LONG, 'detach': ('b', True)}, user=user)

    def test_running_jobs_per_user_are_capped(self):
        jobs = [self.start(self.loops[0], 'dbtest-in'), self.start(self.loops[1], 'dbtest-in')]
        try:
            err = self.stack.call_error(MANAGER_PATH, MANAGER_IFACE, 'StartBenchmark', 'osa{sv}',
                                        self.loops[2].object_path, 'seek', SEEK_LONG, user='dbtest-in')
            self.assertDBusError(err, 'LimitsExceeded')
            self.assertIn('already runs 2 benchmarks', err.message)
            # Another user is not held back by it.
            jobs.append(self.start(self.loops[2], 'root'))
        finally:
            for job in jobs:
                self.stack.call(job, JOB_IFACE, 'Cancel', 'a{sv}', {})
            for job in jobs:
                self.wait_job_state(job, harness.FINAL_STATES, timeout=10)
        # With one ended, the user may start again.
        job = self.start(self.loops[0], 'dbtest-in')
        self.stack.call(job, JOB_IFACE, 'Cancel', 'a{sv}', {})
        self.wait_job_state(job, harness.FINAL_STATES, timeout=10)

    def small_filesystem(self):
        """A tmpfs of its own (a filesystem to claim), with a folder of dbtest-in's."""
        mountpoint = tempfile.mkdtemp(prefix='tmpfs-', dir=self.stack.tmp)
        entry = self.stack.undo.add(PHASE_CLIENTS, kind='mount', path=mountpoint, dev='tmpfs')
        run(['mount', '-t', 'tmpfs', '-o', 'size=64m,mode=0755', 'tmpfs', mountpoint])
        self.addCleanup(self.stack.undo.remove, entry)
        # A refused start's prepared folder may still be being removed in
        # the background (busy for a moment).
        self.addCleanup(wait_until, lambda: run(['umount', mountpoint], check=False).returncode == 0, 30,
                        what=f'{mountpoint} to be unmounted')
        folder = os.path.join(mountpoint, 'folder')
        os.mkdir(folder)
        subprocess.run(['chown', 'dbtest-in:', folder], check=True)
        return folder

    def test_starts_sent_together_cannot_pass_the_jobs_cap(self):
        # Issue 26, finding 6: with the cap one short, starts sent together
        # each passed the check while the others' folders were still being
        # prepared (a leftover scratch folder to remove first makes that
        # take a while), and all of them ran.
        folders = [self.small_filesystem() for _ in range(4)]
        for folder in folders:
            plant_leftover(folder, 'dbtest-in', 20000)
        jobs = [self.start(self.loops[0], 'dbtest-in')]  # 1 of the 2 the user may run
        try:
            # Runs for seconds, so an accepted job still runs when the last
            # reply comes: the count is of jobs running at once.
            timed = {'file_size': ('t', 16 * 1024 * 1024), 'tests': ('s', 'SEQ1M Q1T1'), 'mix': ('s', ''),
                     'duration_s': ('d', 5.0), 'warmup_s': ('d', 0.0), 'interval_s': ('d', 0.0),
                     'detach': ('b', True)}
            replies = start_together(self.stack, 'dbtest-in', [(f, 'file-profile', timed) for f in folders])
            jobs += [r['job'] for r in replies if 'job' in r]
            refused = [r for r in replies if 'error' in r]
            print(f'\n4 starts sent together beside 1 running job (cap 2): {len(jobs) - 1} accepted', file=sys.stderr)
            self.assertEqual(len(jobs), 2, f'more jobs than the cap of 2 were started: {replies}')
            for reply in refused:
                self.assertEqual(reply['error'], harness.ERROR_PREFIX + 'LimitsExceeded', reply)
                self.assertIn('already runs', reply['message'])
            # They did overlap: a refusal counted a folder still being prepared.
            self.assertTrue(any('1 more being started' in r['message'] for r in refused), refused)
        finally:
            for job in jobs:
                self.stack.call(job, JOB_IFACE, 'Cancel', 'a{sv}', {})
            for job in jobs:
                self.wait_job_state(job, harness.FINAL_STATES, timeout=60)

    def test_folder_jobs_claim_a_filesystem_no_device_holds(self):
        # /dev/shm is tmpfs: no Device of the daemon's to claim, so the
        # filesystem itself is.
        folder = '/dev/shm/diskbench-it-claim'
        os.makedirs(folder, exist_ok=True)
        try:
            subprocess.run(['chown', 'dbtest-in:', folder], check=True)
            # About 9 s on tmpfs here: it is still running when the second asks.
            slow = {'amount_per_size': ('t', 128 * 1024 * 1024)}
            with self.stack.client('dbtest-in', start_fs=(folder, 'write-sweep', slow)) as first:
                self.assertIsNone(first.error)
                self.assertEqual(self.stack.get_property(first.job, JOB_IFACE, 'Device'), '/')
                quick = {'size': ('t', 4 * 1024 * 1024)}
                with self.stack.client('dbtest-in', start_fs=(folder, 'file-rw', quick)) as second:
                    self.assertIsNotNone(second.error)
                    self.assertDBusError(second.error, 'DeviceBusy')
                    self.assertIn('in use by ' + first.job, second.error.message)
                self.stack.call(first.job, JOB_IFACE, 'Cancel', 'a{sv}', {}, user='dbtest-in')
                first.wait_completed(30)
        finally:
            subprocess.run(['rm', '-rf', folder], check=False)


class DisposalLimitsTest(harness.IntegrationTestCase):
    """A scratch folder whose removal never comes back holds two threads of
    the daemon (the disposal's and the folder's own); a user may have 2 of
    them, and is refused new starts past that instead of piling threads up.
    The filesystem is a FUSE folder whose unlink and rmdir wait while
    stalled; all else is answered."""

    @classmethod
    def prepare(cls):
        cls.fuse = cls.stack.mount_stalling_folder()
        # A folder for the job that holds the filesystem, and one for each
        # later start: a removal that waits keeps the kernel's lock on its
        # folder, which a start in the same folder would wait for while
        # its folder is prepared.
        cls.folders = {}
        for name in ('hold', 'first', 'second', 'third', 'after'):
            cls.folders[name] = os.path.join(cls.fuse.mountpoint, name)
            os.mkdir(cls.folders[name])
            subprocess.run(['chown', 'dbtest-in:', cls.folders[name]], check=True)

    def tearDown(self):
        if os.path.exists(self.fuse.flag):
            self.fuse.resume()

    def start_error(self, folder, options):
        with self.stack.client('dbtest-in', start_fs=(self.folders[folder], 'file-rw', options)) as c:
            return c.error

    def test_scratch_folders_whose_removal_hangs_are_capped(self):
        pid = self.stack.ensure_daemon()

        def threads():
            return len(os.listdir(f'/proc/{pid}/task'))
        # A long job holds the filesystem. Each further start there has its
        # folder prepared (a scratch folder made) and is then refused as
        # DeviceBusy, its scratch folder removed in the background: on a
        # filesystem whose removals hang, that removal never ends.
        long_rw = {'size': ('t', 256 * 1024 * 1024), 'block_size': ('u', 4096)}
        quick = {'size': ('t', 1024 * 1024)}
        with self.stack.client('dbtest-in', start_fs=(self.folders['hold'], 'file-rw', long_rw)) as holder:
            self.assertIsNone(holder.error)
            self.fuse.stall()
            before = threads()
            for folder in ('first', 'second'):
                self.assertDBusError(self.start_error(folder, quick), 'DeviceBusy')
            during = threads()
            refused = self.start_error('third', quick)
            after = threads()
            print(f'\ndaemon threads: {before} before, {during} with 2 scratch folders whose removal hangs, '
                  f'{after} after a third start', file=sys.stderr)
            self.assertDBusError(refused, 'LimitsExceeded')
            self.assertIn('2 scratch folders whose removal has not finished', refused.message)
            self.assertEqual(after, during, 'the refused start left a thread behind')
            self.assertEqual(os.listdir(self.folders['third']), [], 'the refused start prepared its folder')
            # Once removals are answered they finish and stop counting: the
            # folders empty, and their threads gone. (The folders first: the
            # holder's own threads may end meanwhile, when its run finishes
            # before the cancel below, and the count alone would then drop
            # while a removal still runs: seen in CI.)
            self.fuse.resume()
            wait_until(lambda: not os.listdir(self.folders['first']) and not os.listdir(self.folders['second']), 30,
                       what='the scratch folders to be removed')
            wait_until(lambda: threads() <= before, 30, what='the removals to finish')
            self.stack.call(holder.job, JOB_IFACE, 'Cancel', 'a{sv}', {}, user='dbtest-in')
            holder.wait_completed(60)
        with self.stack.client('dbtest-in', start_fs=(self.folders['after'], 'file-rw', quick)) as c:
            self.assertIsNone(c.error)
            self.assertEqual(c.wait_completed(60)['completed'], 'finished')
        for folder in self.folders.values():
            self.assertEqual(os.listdir(folder), [], f'{folder}: scratch folders were left behind')


class PolkitQuestionTest(harness.LoopDeviceTestCase):
    """What polkit is asked: the erase action apart from the keep-data one,
    with the device named in the details its messages show ($(device))."""

    @classmethod
    def prepare(cls):
        super().prepare()
        node = cls.loop.node
        # dbtest-out is refused everything by the main test rules; this
        # file (read first) lets it erase only when the daemon asks about
        # the erase action and names this very device.
        cls.stack.install_polkit_rules('00-aaa-diskbench-detail-test.rules', f'''
polkit.addRule(function(action, subject) {{
    if (subject.user == "dbtest-out" && action.id == "org.diskbench.write-device-destroy"
        && action.lookup("device") == "{node}")
        return polkit.Result.YES;
}});
''')
        time.sleep(1)  # polkitd reloads rules files on its own

    def test_erasing_asks_for_the_erase_action_naming_the_device(self):
        destroy = {'mode': ('s', 'destroy'), 'confirm': ('s', self.loop.node),
                   'size': ('t', 8 * 1024 * 1024), 'region_size': ('t', 8 * 1024 * 1024),
                   'duration_s': ('d', 0.2), **NO_INTERACTION}
        with self.stack.client('dbtest-out', (self.loop.object_path, 'device-write', destroy)) as c:
            self.assertIsNone(c.error)
            self.assertIn(c.wait_completed(60)['completed'], ('finished',))
        # Keeping the data is the other action, which the rule does not grant.
        keep = {k: v for k, v in destroy.items() if k not in ('mode', 'confirm')}
        err = self.stack.call_error(MANAGER_PATH, MANAGER_IFACE, 'StartBenchmark', 'osa{sv}',
                                    self.loop.object_path, 'device-write', keep, user='dbtest-out')
        self.assertDBusError(err, 'NotAuthorized')

    def test_the_messages_name_the_device(self):
        out = subprocess.run(['pkaction', '--verbose', '--action-id', 'org.diskbench.write-device-destroy'],
                             capture_output=True, text=True, check=True, env=dict(os.environ, LANG='C')).stdout
        self.assertIn('$(device)', out)
        out = subprocess.run(['pkaction', '--verbose', '--action-id', 'org.diskbench.write-device'],
                             capture_output=True, text=True, check=True, env=dict(os.environ, LANG='C')).stdout
        self.assertIn('$(device)', out)

class RefusedFloodTest(harness.IntegrationTestCase):
    """A user allowed nothing, flooding the daemon with the costliest start
    there is to check (a capacity check of a million probes of 512 bytes:
    its plan was built before polkit was asked, 16-20 ms of the bus thread
    a call), from six processes at once: another user's calls are still
    answered within 100 ms, and past 16 refusals in 2 s the flooder's starts
    are refused before they are read (LimitsExceeded)."""

    FLOODERS = 6
    CALLS = 40

    @classmethod
    def prepare(cls):
        # 512 MiB of 512-byte blocks: a million probes fit.
        cls.loop = cls.stack.attach_loop(size=512 * 1024 * 1024)

    def test_a_flood_of_refused_starts_leaves_others_answered(self):
        options = {'mode': ('s', 'destroy'), 'confirm': ('s', self.loop.node), 'probes': ('t', 1000000),
                   'block_size': ('t', 512), 'auth.no_user_interaction': ('b', True)}
        start = json.dumps([self.loop.object_path, 'verify-capacity', options])
        flooders = [subprocess.Popen(self.stack.as_user('dbtest-out', ['/usr/bin/python3', '-c', FLOOD_STARTS, start]),
                                     env=dict(os.environ, **self.stack.bus_env()), stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True)
                    for _ in range(self.FLOODERS)]
        reports = []
        try:
            for flooder in flooders:
                line = flooder.stdout.readline()
                self.assertEqual(json.loads(line), {'flooding': True}, 'a flooder did not get going')
            # Every flooder is sending now; another user's calls, one after
            # another, each timed from its send to its reply.
            timing = subprocess.run(
                self.stack.as_user('dbtest-in', ['/usr/bin/python3', '-c', TIMED_CALLS, str(self.CALLS)]),
                env=dict(os.environ, **self.stack.bus_env()), capture_output=True, text=True, timeout=120)
            self.assertEqual(timing.returncode, 0, timing.stderr)
            latencies = json.loads(timing.stdout)
        finally:
            for flooder in flooders:
                try:
                    flooder.stdin.close()
                except OSError:
                    pass
            for flooder in flooders:
                out = flooder.stdout.read()
                flooder.stdout.close()
                flooder.wait(120)
                if out.strip():
                    reports.append(json.loads(out.strip().splitlines()[-1]))
        self.assertEqual(len(latencies), self.CALLS)
        print(f'another user during the flood: max {max(latencies) * 1000:.1f} ms, median '
              f'{sorted(latencies)[len(latencies) // 2] * 1000:.1f} ms over {self.CALLS} calls', file=sys.stderr)
        self.assertLess(max(latencies), 0.1,
                        f'another user waited up to {max(latencies) * 1000:.0f} ms during the flood '
                        f'(median {sorted(latencies)[len(latencies) // 2] * 1000:.1f} ms)')
        self.assertEqual(len(reports), self.FLOODERS)
        errors = {}
        for report in reports:
            for name, count in report['errors'].items():
                errors[name] = errors.get(name, 0) + count
        # polkit said no to some; the rest were refused before they were read.
        self.assertNotIn('(started)', errors)
        self.assertGreater(errors.get(f'{BUS_NAME}.Error.NotAuthorized', 0), 0, errors)
        # Past 16 refusals in 2 s, the refused-starts limit itself (beside
        # the cap of 8 pending polkit checks a user has).
        self.assertGreater(errors.get(f'{BUS_NAME}.Error.LimitsExceeded (refused starts)', 0), 0, errors)
        self.assertEqual(set(errors) - {f'{BUS_NAME}.Error.NotAuthorized', f'{BUS_NAME}.Error.LimitsExceeded',
                                        f'{BUS_NAME}.Error.LimitsExceeded (refused starts)'}, set(), errors)
        # The daemon is the same one, and it still starts a permitted user's job.
        job = self.stack.start_benchmark(self.loop, 'seek', {'count': ('t', 20), 'detach': ('b', True)})
        self.wait_job_state(job, {'finished'}, timeout=60)


if __name__ == '__main__':
    harness.main()
