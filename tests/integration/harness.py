# SPDX-License-Identifier: GPL-3.0-or-later
"""Integration test harness for diskbenchd.

Builds, per test file, a private stack that behaves like a real machine:

  * a private dbus-daemon of type "system" (system-bus.conf.in: the default-deny
    policy, the installed polkit/udisks bus policies plus our own), exported as
    DBUS_SYSTEM_BUS_ADDRESS, with a service directory whose activation file
    starts the build tree's diskbenchd (short --idle-timeout/--job-retention);
  * the real polkitd, with the built policy installed into
    /usr/share/polkit-1/actions and a test rules file in /etc/polkit-1/rules.d;
  * systemd-udevd (only started when none runs) and the real udisksd, or, for
    the Drive-property scenario, a python3-dbusmock stand-in for udisks;
  * test users and groups, and loop devices over files of random data.

Everything the harness creates is written to a state file as it is created and
undone at the end, also when a test fails, on SIGTERM/SIGINT/SIGHUP and on the
internal watchdog; a run that was SIGKILLed is cleaned up by the next one. A
lock file serialises runs on one machine (they share the rules directory, the
test users and udevd).

Calls are made with busctl (--json=short where output is parsed), as root or as
a test user through runuser. busctl prints only the message of an error reply,
never its name, so calls that are expected to fail go through `gdbus call`,
which prints "GDBus.Error:NAME: message".

Standard library only; bus_client.py (dbus-python) is a separate process.

Modules, in devtools/stack/ (the demo launcher uses them too): stack.py (the
Stack and its configuration), cleanup.py (undo log, processes, lock),
clients.py (bus_client.py and busctl monitor wrappers), dbus_values.py (typed
values for busctl and gdbus). This file is the unittest glue and the entry
point every test file calls: harness.main(); importing it puts
devtools/stack on sys.path, so test files import from there by module name.
"""

import os
import signal
import sys
import time
import unittest

STACK_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                         'devtools', 'stack')
if STACK_DIR not in sys.path:
    sys.path.insert(0, STACK_DIR)

# What the test files use, from one place.
from cleanup import STATE_PATH, loop_devices, pid_alive, run, wait_until
from dbus_values import DBusError, unwrap
from stack import (ACTIONS_DIR, BUS_NAME, CONFIG, DEVICE_IFACE, DEVICES_PATH, ERROR_PREFIX,
                   JOB_IFACE, MANAGER_IFACE, MANAGER_PATH, OBJECT_MANAGER_IFACE, POLICY_NAME,
                   POLKIT_NAME, PROPERTIES_IFACE, RULES_PATH, TEST_GROUPS, TEST_USERS,
                   UDISKS_NAME, _LIVE_STACKS, Stack)

# Benchmark options the scenarios share.
SEEK_QUICK = {'count': ('t', 200)}
SEEK_LONG = {'count': ('t', 1000000)}  # ~100 s on a loop device: the tests cancel it
FINAL_STATES = ('finished', 'cancelled', 'failed')

__all__ = [
    'FINAL_STATES', 'SEEK_LONG', 'SEEK_QUICK', 'LoopDeviceTestCase',
    'ACTIONS_DIR', 'BUS_NAME', 'CONFIG', 'DEVICE_IFACE', 'DEVICES_PATH', 'ERROR_PREFIX',
    'JOB_IFACE', 'MANAGER_IFACE', 'MANAGER_PATH', 'OBJECT_MANAGER_IFACE', 'POLICY_NAME',
    'POLKIT_NAME', 'PROPERTIES_IFACE', 'RULES_PATH', 'STATE_PATH', 'TEST_GROUPS', 'TEST_USERS',
    'UDISKS_NAME', 'DBusError', 'IntegrationTestCase', 'Stack', 'loop_devices', 'main',
    'pid_alive', 'run', 'unwrap', 'wait_until',
]


class IntegrationTestCase(unittest.TestCase):
    """Starts one Stack for the class; prints every log when a test fails."""

    stack_options = {}
    stack = None

    @classmethod
    def setUpClass(cls):
        cls.create_stack()
        try:
            cls.start_stack()
            cls.prepare()
        except BaseException:
            cls.stack.failed = True
            if cls.stack.tmp:
                cls.stack.dump_logs()
            cls.stop_stack()
            raise

    # The stack's life, which the GUI tests' GuiTestCase extends (a
    # GuiStack around the Stack).
    @classmethod
    def create_stack(cls):
        cls.stack = Stack(**cls.stack_options)

    @classmethod
    def start_stack(cls):
        cls.stack.start()

    @classmethod
    def stop_stack(cls):
        return cls.stack.stop()

    @classmethod
    def prepare(cls):
        """Per-class setup on the started stack (loop devices, mock objects)."""

    @classmethod
    def tearDownClass(cls):
        if os.environ.get('DISKBENCH_TEST_SHOW_LOGS') and cls.stack.started:
            cls.stack.dump_logs()
        problems = cls.stop_stack()
        if problems:
            raise AssertionError('teardown left things behind:\n' + '\n'.join(problems))

    def run(self, result=None):
        result = result or self.defaultTestResult()
        before = len(result.failures) + len(result.errors)
        marks = self.stack.log_marks() if self.stack and self.stack.started else None
        super().run(result)
        if self.stack and self.stack.started and len(result.failures) + len(result.errors) > before:
            self.stack.failed = True
            print(f'\n===== {self.id()} failed: logs =====', file=sys.stderr)
            self.stack.dump_logs(marks)
        return result

    # ---- assertions ----

    def assertDBusError(self, err, name, message_prefix=None):
        full = name if '.' in name else ERROR_PREFIX + name
        self.assertIsInstance(err, DBusError)
        self.assertEqual(err.name, full, f'expected {full}, got {err}')
        if message_prefix is not None:
            self.assertTrue(err.message.startswith(message_prefix),
                            f'message {err.message!r} should start with {message_prefix!r}')

    def job_props(self, job):
        return self.stack.get_all(job, JOB_IFACE)

    def wait_job_state(self, job, states=('finished', 'cancelled', 'failed'), timeout=60):
        return wait_until(lambda: (s := self.stack.get_property(job, JOB_IFACE, 'State'))
                          in states and s, timeout, what=f'{job} to reach {states}')


class LoopDeviceTestCase(IntegrationTestCase):
    """Scenarios on one loop device of their own, which no test may leave busy."""

    @classmethod
    def prepare(cls):
        cls.loop = cls.stack.attach_loop()

    def tearDown(self):
        job = self.stack.get_property(self.loop.object_path, DEVICE_IFACE, 'Job')
        if job != '/':
            self.stack.call(job, JOB_IFACE, 'Cancel', 'a{sv}', {})
            self.wait_job_state(job, FINAL_STATES, timeout=10)


def user_home(stack, user='dbtest-in'):
    """A home folder USER owns in the stack's temporary folder, for
    diskbenchctl's history (run_ctl)."""
    import pwd
    import tempfile
    pw = pwd.getpwnam(user)
    home = tempfile.mkdtemp(prefix=f'home-{user}-', dir=stack.tmp)
    os.chown(home, pw.pw_uid, pw.pw_gid)
    return home


# A user polkit lets read devices but not write them (the scheduled runs'
# user, who has no rule of the stack's own): for the read kinds that write
# when asked (the overview's write rate, the queue-depth sweep's writes).
READ_ONLY_USER = 'dbtest-sched'
READ_ONLY_RULES = """// Installed by diskbench's integration tests (%s); removed when they end.
polkit.addRule(function(action, subject) {
    if (subject.user == "%s") {
        if (action.id == "org.diskbench.read-device")
            return polkit.Result.YES;
        if (action.id.indexOf("org.diskbench.") == 0)
            return polkit.Result.NO;
    }
});
"""


def install_read_only_rules(stack, test_file):
    """Rules that allow READ_ONLY_USER org.diskbench.read-device and refuse
    every other diskbench action; removed when the stack ends."""
    name = test_file.removesuffix('.py').replace('_', '-')
    stack.install_polkit_rules(f'00-diskbench-read-only-{name}.rules', READ_ONLY_RULES % (test_file, READ_ONLY_USER))


def run_ctl(stack, home, *args, user='dbtest-in', timeout=240):
    """diskbenchctl (DISKBENCHCTL) ARGS as USER on the stack's bus, its
    history in HOME, never asking for a password; the CompletedProcess."""
    import subprocess
    ctl = os.environ.get('DISKBENCHCTL')
    if not ctl or not os.access(ctl, os.X_OK):
        raise AssertionError(f'{ctl!r} is not built (DISKBENCHCTL)')
    env = {'DBUS_SYSTEM_BUS_ADDRESS': stack.address, 'HOME': home,
           'XDG_DATA_HOME': os.path.join(home, 'data'), 'LC_ALL': 'C.UTF-8'}
    argv = (['runuser', '-u', user, '--', 'env'] + [f'{k}={v}' for k, v in env.items()]
            + [ctl, '--no-ask-password'] + list(args))
    return run(argv, check=False, timeout=timeout, stdin=subprocess.DEVNULL)


EXIT_DEVICE_BUSY = 8  # diskbenchctl's status for Error.DeviceBusy


def run_write_again_while_udev_holds(argv, timeout=120, patience=10):
    """Runs a program that writes a device (diskbench-engine as root) and
    runs it again, for up to PATIENCE seconds, while it is refused because
    the device is busy or locked: the last run's close after writing makes
    udev probe the device, and on a slow machine that outlasts the second
    the engine itself waits, as it would for a user. The CompletedProcess."""
    deadline = time.monotonic() + patience
    while True:
        res = run(argv, check=False, timeout=timeout)
        busy = 'in use' in res.stderr or "holds the device's lock" in res.stderr
        if res.returncode == 0 or not busy or time.monotonic() > deadline:
            return res
        time.sleep(0.2)


def run_ctl_write_again_while_udev_holds(stack, home, *args, patience=10):
    """run_ctl() for a command that writes a device, again while it exits
    with DeviceBusy for the same reason (see run_write_again_while_udev_holds)."""
    deadline = time.monotonic() + patience
    while True:
        res = run_ctl(stack, home, *args)
        if res.returncode != EXIT_DEVICE_BUSY or time.monotonic() > deadline:
            return res
        time.sleep(0.2)


def find_descendant(pid, name):
    """The descendant of PID (or PID itself) called NAME (runuser → env →
    diskbenchctl), or None: a signal for diskbenchctl goes to it, not to
    runuser."""
    try:
        with open(f'/proc/{pid}/comm') as f:
            if f.read().strip() == name:
                return pid
        children = []
        for task in os.listdir(f'/proc/{pid}/task'):
            with open(f'/proc/{pid}/task/{task}/children') as f:
                children += [int(c) for c in f.read().split()]
    except FileNotFoundError:
        return None
    for child in children:
        found = find_descendant(child, name)
        if found:
            return found
    return None


def _on_alarm(_signum, _frame):
    # Our watchdog: unwind and clean up in-process. KeyboardInterrupt passes
    # through unittest (other exceptions would be recorded as a test error and
    # the run would go on); main() cleans up.
    signal.signal(signal.SIGALRM, signal.SIG_IGN)
    raise KeyboardInterrupt('watchdog: the test file ran too long')


def _on_terminate(signum, _frame):
    """SIGTERM/SIGINT/SIGHUP: start the cleanup at once, detached, and exit.

    meson sends SIGTERM to the test's process group on timeout or Ctrl-C and
    SIGKILLs it half a second later. Unwinding the tests first would not make
    it (runuser alone takes 2 s to pass a SIGTERM on to its child), so the
    cleanup starts right here, in a child of its own session that survives
    the SIGKILL; it inherits the lock, and the undo log is on disk anyway.
    """
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGALRM):
        signal.signal(sig, signal.SIG_IGN)
    # A fresh stream: the signal may have come in the middle of a print.
    out = os.fdopen(os.dup(2), 'w')
    out.write(f'\ninterrupted by {signal.Signals(signum).name}; '
              'cleaning up in the background\n')
    out.flush()
    stacks = list(_LIVE_STACKS)
    for stack in stacks:
        stack.failed = True  # keep the logs
    if stacks:
        _cleanup_detached(stacks)
        for stack in stacks:
            if stack.started:
                try:
                    stack.dump_logs(out=out)
                except Exception:
                    pass
    out.flush()
    os._exit(1)


def _cleanup_detached(stacks):
    """Cleans up in a child of its own session, then returns (in the parent)."""
    if os.fork() != 0:
        return
    try:
        os.setsid()
        devnull = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(devnull, fd)
        # New stream objects: another thread may have held the old ones' locks.
        sys.stdout = sys.stderr = open(os.devnull, 'w')
        for stack in stacks:
            stack.popens = []  # the parent's children: not ours to reap
            stack.stop()
    finally:
        os._exit(0)


def main():
    """Entry point of every test file: python3 test_x.py [--daemon P ...] [unittest args]."""
    rest = CONFIG.load(sys.argv[1:])
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, _on_terminate)
    signal.signal(signal.SIGALRM, _on_alarm)
    # Our own watchdog, ahead of meson's timeout, so teardown runs on our terms.
    signal.alarm(max(30, int(CONFIG.timeout) - 30))
    ok = False
    try:
        prog = unittest.main(module='__main__', argv=[sys.argv[0]] + rest, exit=False,
                             verbosity=2)
        ok = prog.result.wasSuccessful() and prog.result.testsRun > 0 \
            and not prog.result.skipped
        if prog.result.skipped:
            print('FAIL: tests were skipped; integration tests must not skip', file=sys.stderr)
    except KeyboardInterrupt as e:
        print(f'interrupted ({e}); cleaning up', file=sys.stderr)
        for stack in list(_LIVE_STACKS):
            stack.failed = True
            if stack.started:
                stack.dump_logs()
    finally:
        signal.alarm(0)
        for stack in list(_LIVE_STACKS):
            stack.stop()
    sys.exit(0 if ok else 1)
