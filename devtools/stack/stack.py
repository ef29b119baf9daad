# SPDX-License-Identifier: GPL-3.0-or-later
"""The private system bus with polkitd, udisks (real or mock) and diskbenchd,
test users, polkit files and loop devices: see harness.py for the overview."""

import argparse
import contextlib
import grp
import json
import os
import pwd
import shlex
import shutil
import subprocess
import sys
import tempfile

from cleanup import (PHASE_CLIENTS, PHASE_DIR, PHASE_FILES, PHASE_LOOPS, PHASE_SERVICES,
                     TMP_PARENT, TMP_PREFIX, USER_TAG, Lock, UndoLog, log, loop_devices,
                     proc_starttime, run, undo_entry, wait_until)
from clients import PYTHON, BusClient, Monitor
from dbus_values import DBusError, busctl_args, gvariant_text, split_signature, unwrap
# The names and the parts of the Stack in modules of their own, re-exported:
# callers import them from here.
from bus_names import (BUS_NAME, DEVICE_IFACE, DEVICES_PATH, ERROR_PREFIX, JOB_IFACE,
                       MANAGER_IFACE, MANAGER_PATH, OBJECT_MANAGER_IFACE, POLKIT_NAME,
                       PROPERTIES_IFACE, UDISKS_NAME)
from bus_calls import BusCalls
import daemon_checks
from loop_devices import LoopDevice, LoopDevices

HERE = os.path.dirname(os.path.abspath(__file__))

# Test users: name -> supplementary groups. The rules file (RULES) grants
# benchtest everything of ours, asks benchadmin-challenge for an admin
# password, and refuses dbtest-out whatever the policy defaults say.
TEST_GROUPS = ['benchtest', 'benchadmin-challenge']
TEST_USERS = {
    'dbtest-in': ['benchtest'],
    'dbtest-out': [],
    'dbtest-ask': ['benchadmin-challenge'],
    # No group and no rule of ours: what the scheduled benchmarks' system
    # user is before the administrator installs its polkit rule
    # (tests/integration/test_fleet.py installs the shipped example).
    'dbtest-sched': [],
}

RULES = '''// Installed by diskbench's integration tests; removed when they end.
polkit.addRule(function(action, subject) {
    if (action.id.indexOf("org.diskbench.") == 0) {
        if (subject.isInGroup("benchtest"))
            return polkit.Result.YES;
        if (subject.isInGroup("benchadmin-challenge"))
            return polkit.Result.AUTH_ADMIN;
        if (subject.user == "dbtest-out")
            return polkit.Result.NO;
    }
});
'''

RULES_PATH = '/etc/polkit-1/rules.d/00-diskbench-integration-test.rules'
ACTIONS_DIR = '/usr/share/polkit-1/actions'
POLICY_NAME = 'org.diskbench.policy'

POLKITD = '/usr/lib/polkit-1/polkitd'
UDISKSD = '/usr/libexec/udisks2/udisksd'
UDEVD = '/lib/systemd/systemd-udevd'


class PrerequisiteMissing(Exception):
    """Something the tests need is not there: a failure, never a skip."""


class Config:
    """Build-tree paths, from the command line (meson) or the environment."""

    def __init__(self):
        self.load([])

    def load(self, argv):
        """Takes our options from argv; returns the rest (for unittest)."""
        p = argparse.ArgumentParser(add_help=False)
        p.add_argument('--daemon', default=os.environ.get('DISKBENCHD'))
        p.add_argument('--polkit-policy', default=os.environ.get('DISKBENCH_POLKIT_POLICY'))
        p.add_argument('--bus-policy', default=os.environ.get('DISKBENCH_BUS_POLICY'))
        p.add_argument('--timeout', type=float,
                       default=float(os.environ.get('DISKBENCH_TEST_TIMEOUT', '600')))
        args, rest = p.parse_known_args(argv)
        # meson passes paths relative to the build dir, and dbus-daemon starts
        # the daemon: make them absolute.
        self.daemon, self.polkit_policy, self.bus_policy = [
            os.path.abspath(x) if x else x
            for x in (args.daemon, args.polkit_policy, args.bus_policy)]
        # meson's --setup sanitize / tsan / memcheck multiply its timeouts;
        # they say by how much here, so our watchdog (harness.py) moves too.
        self.timeout = args.timeout * float(os.environ.get('DISKBENCH_TEST_TIMEOUT_MULTIPLIER', '1'))
        return rest


CONFIG = Config()


def check_prerequisites(need_daemon=True):
    """Fails (never skips) with a clear message when something is missing."""
    missing = []
    if os.geteuid() != 0:
        missing.append('must run as root (it starts polkitd/udisksd and attaches loop devices)')
    for tool in ['dbus-daemon', 'busctl', 'gdbus', 'losetup', 'runuser', 'udevadm', 'useradd',
                 'userdel', 'groupadd', 'groupdel', 'mkfs.ext4', 'mount', 'umount']:
        if not shutil.which(tool):
            missing.append(f'{tool} not found')
    for path, pkg in [(POLKITD, 'polkitd'), (UDISKSD, 'udisks2'), (UDEVD, 'udev'),
                      (PYTHON, 'python3')]:
        if not os.access(path, os.X_OK):
            missing.append(f'{path} not found (Debian package {pkg})')
    res = run([PYTHON, '-c', 'import dbus, gi, dbusmock'], check=False)
    if res.returncode != 0:
        missing.append(f'{PYTHON} lacks dbus/gi/dbusmock (packages python3-dbus, '
                       f'python3-gi, python3-dbusmock): {res.stderr.strip()}')
    if not CONFIG.polkit_policy or not os.path.isfile(CONFIG.polkit_policy):
        missing.append(f'built polkit policy not found: {CONFIG.polkit_policy!r} '
                       '(--polkit-policy / DISKBENCH_POLKIT_POLICY)')
    if need_daemon:
        if not CONFIG.daemon or not os.access(CONFIG.daemon, os.X_OK):
            missing.append(f'diskbenchd not built: {CONFIG.daemon!r} (--daemon / DISKBENCHD)')
        if not CONFIG.bus_policy or not os.path.isfile(CONFIG.bus_policy):
            missing.append(f'bus policy not found: {CONFIG.bus_policy!r} '
                           '(--bus-policy / DISKBENCH_BUS_POLICY)')
    if missing:
        raise PrerequisiteMissing('integration test prerequisites missing:\n  '
                                  + '\n  '.join(missing))



class Service:
    """A process we started, its output in a log file."""

    def __init__(self, name, popen, logpath, entry):
        self.name, self.popen, self.logpath, self.entry = name, popen, logpath, entry


class Stack(LoopDevices, BusCalls):
    """The private system bus with polkitd, udisks (real or mock) and diskbenchd.

    udisks: 'real' (udevd + udisksd), 'mock' (python3-dbusmock, see
    test_drive_properties.py) or None.
    """

    def __init__(self, *, daemon=True, udisks='real', polkit=True,
                 idle_timeout=30, job_retention=60, verbose=True, daemon_args=(),
                 bus_policy_edit=None, daemon_env=None):
        self.want_daemon = daemon
        self.daemon_args = list(daemon_args)
        # Extra environment of the activated daemon (test_fuzz.py: malloc
        # settings under which its RSS follows its live memory).
        self.daemon_env = dict(daemon_env or {})
        # A function of the bus policy's text, for tests that must get past
        # one of its rules to test the daemon's own check behind it.
        self.bus_policy_edit = bus_policy_edit
        self.udisks = udisks
        self.want_polkit = polkit
        self.idle_timeout = idle_timeout
        self.job_retention = job_retention
        self.verbose = verbose
        self.undo = UndoLog()
        self.lock = Lock(timeout=max(60, CONFIG.timeout / 2))
        self.services = {}
        self.loops = []
        self.logs = {}          # name -> path, for printing on failure
        self.tmp = None
        self.address = None
        self.started = False
        self.locked = False
        self.failed = False     # a test failed: keep the logs (save_logs)
        self.popens = []        # every child we started, reaped in stop()
        self.saved_address = None

    # ---- lifecycle -------------------------------------------------------

    def start(self):
        check_prerequisites(need_daemon=self.want_daemon)
        self.lock.acquire()
        self.locked = True
        _LIVE_STACKS.append(self)
        problems = UndoLog.recover_stale()
        if problems:
            log('problems cleaning up an earlier run:\n  ' + '\n  '.join(problems))
        self.tmp = tempfile.mkdtemp(prefix=TMP_PREFIX, dir=TMP_PARENT)
        self.undo.add(PHASE_DIR, kind='dir', path=self.tmp)
        # Test users must reach the bus socket and the helper scripts.
        os.chmod(self.tmp, 0o755)
        shutil.copy(os.path.join(HERE, 'bus_client.py'), self.path('bus_client.py'))

        self._create_users()
        self._install_polkit_files()
        self._start_bus()
        if self.want_polkit:
            self._start_polkitd()
        if self.udisks == 'real':
            self._start_udevd()
            self._start_udisksd()
        elif self.udisks == 'mock':
            self._start_mock_udisks()
        self.started = True
        return self

    def stop(self):
        if not self.locked:  # never got as far as creating anything
            if self in _LIVE_STACKS:
                _LIVE_STACKS.remove(self)
            return []
        # The daemon first, and then what it reported: sanitizers and
        # valgrind write their leak reports as it exits (daemon_checks.py).
        problems = self._end_daemons()
        problems += self._daemon_reports()
        if problems:
            self.failed = True
        if self.failed:
            self.save_logs()
        problems += self.undo.undo_all()
        for popen in self.popens:
            try:
                popen.wait(5)
            except subprocess.TimeoutExpired:
                problems.append(f'process {popen.pid} ({popen.args[0]}) did not end')
            for pipe in (popen.stdin, popen.stdout, popen.stderr):
                if pipe:
                    with contextlib.suppress(OSError):
                        pipe.close()
        self.popens = []
        if self.address and os.environ.get('DBUS_SYSTEM_BUS_ADDRESS') == self.address:
            if self.saved_address is None:
                del os.environ['DBUS_SYSTEM_BUS_ADDRESS']
            else:
                os.environ['DBUS_SYSTEM_BUS_ADDRESS'] = self.saved_address
        self.lock.release()
        self.locked = False
        self.started = False
        if self in _LIVE_STACKS:
            _LIVE_STACKS.remove(self)
        leftovers = [dev for dev, back in loop_devices().items()
                     if self.tmp and back.startswith(self.tmp)]
        if leftovers:
            problems.append(f'loop devices still attached: {leftovers}')
        if problems:
            log('teardown problems:\n  ' + '\n  '.join(problems))
        return problems

    def _end_daemons(self):
        """Ends every diskbenchd we started (activated or direct) and takes
        them off the undo log; returns the problems."""
        problems = []
        for entry in list(self.undo.entries):
            if entry['kind'] == 'pidfile' or (entry['kind'] == 'process'
                                              and entry.get('name') == 'diskbenchd-direct'):
                try:
                    undo_entry(entry)
                except Exception as e:  # keep going, as undo_all() does
                    problems.append(f'{entry}: {e}')
                self.undo.remove(entry)
        return problems

    @property
    def report_dir(self):
        """Where the daemon's sanitizer reports and valgrind logs go."""
        return self.path('daemon-reports')

    def _daemon_reports(self):
        """A problem for each sanitizer report or failing valgrind log."""
        if not self.tmp:
            return []
        problems = []
        for path, text in daemon_checks.read_reports(self.report_dir):
            name = os.path.basename(path)
            self.logs[name] = path  # printed and kept with the other logs
            problems.append(f'diskbenchd report {path}:\n{text.rstrip()}')
        for name in ('diskbenchd', 'diskbenchd-direct'):
            if name in self.logs and (found := daemon_checks.log_findings(self.logs[name])):
                problems.append(f'sanitizer output in the {name} log:\n{found}')
        daemon_checks.record_valgrind_summary(self.report_dir)
        return problems

    def path(self, *parts):
        return os.path.join(self.tmp, *parts)

    @property
    def protected_mount_point(self):
        """Where a test mounts a filesystem whose disk the daemon must treat
        as the running system's (diskbenchd --protect-mount-point)."""
        return self.path('system-like-mount')

    def add_partitions(self, loop, sectors):
        """Partitions (start, length in 512-byte sectors) on our loop device,
        added by hand: this kernel reads no partition tables. Returns their
        nodes; they go again before the device is detached."""
        nodes = []
        for number, (start, length) in enumerate(sectors, 1):
            argv = ['addpart', loop.node, str(number), str(start), str(length)]

            def added():
                res = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=30)
                if res.returncode == 0:
                    return True
                # udev probing the loop device just attached holds it for a
                # moment (EBUSY, seen once in CI): that is not an answer.
                if 'busy' not in res.stderr:
                    raise RuntimeError(f'{" ".join(argv)} failed ({res.returncode}): {res.stderr.strip()}')
                return False
            slower = float(os.environ.get('DISKBENCH_TEST_TIMEOUT_MULTIPLIER', '1'))
            wait_until(added, 10 * slower, what=f'{loop.node} to take partition {number}')
            self.undo.add(PHASE_CLIENTS, kind='partition', dev=loop.node, number=number,
                          backing=loop.backing)
            nodes.append(f'{loop.node}p{number}')
        if self.udisks == 'real':
            run(['udevadm', 'settle', '--timeout=30'], check=False, timeout=40)
        return nodes

    # ---- setup steps -----------------------------------------------------

    def _create_users(self):
        for group in TEST_GROUPS:
            try:
                grp.getgrnam(group)
            except KeyError:
                run(['groupadd', '--system', group])
                self.undo.add(PHASE_FILES, kind='group', name=group)
        for user, groups in TEST_USERS.items():
            try:
                pw = pwd.getpwnam(user)
            except KeyError:
                argv = ['useradd', '--system', '--no-create-home', '--no-user-group',
                        '--gid', 'nogroup', '--shell', '/usr/sbin/nologin',
                        '--home-dir', '/nonexistent', '--comment', USER_TAG]
                if groups:
                    argv += ['--groups', ','.join(groups)]
                run(argv + [user])
                self.undo.add(PHASE_FILES, kind='user', name=user)
                continue
            # Already there (another tool's user of the same name, or left by a
            # killed run of ours): use it if it is set up as we need.
            if pw.pw_gecos.startswith(USER_TAG):
                self.undo.add(PHASE_FILES, kind='user', name=user)
            have = {g.gr_name for g in grp.getgrall() if user in g.gr_mem}
            if set(groups) - have or have & (set(TEST_GROUPS) - set(groups)):
                raise PrerequisiteMissing(
                    f'user {user} exists with groups {sorted(have)}, expected {groups}')

    def _install_file(self, path, content=None, source=None, mode=0o644):
        backup = None
        if os.path.lexists(path):
            backup = f'{path}.diskbench-test-backup'
            os.replace(path, backup)
        # Record before writing, so a half-written file is removed too.
        self.undo.add(PHASE_FILES, kind='file', path=path, backup=backup)
        if source is not None:
            shutil.copyfile(source, path)
        else:
            with open(path, 'w') as f:
                f.write(content)
        os.chmod(path, mode)

    def _install_polkit_files(self):
        self._install_file(os.path.join(ACTIONS_DIR, POLICY_NAME), source=CONFIG.polkit_policy)
        self._install_file(RULES_PATH, content=RULES)

    def install_polkit_rules(self, name, content):
        """Installs a further rules file (e.g. one granting a real user), undone by stop().

        polkitd notices new rules files by itself; returns the file's path."""
        path = os.path.join(os.path.dirname(RULES_PATH), name)
        self._install_file(path, content=content)
        return path

    def _spawn(self, name, argv, env=None, new_session=False, grace=5.0, **kw):
        logpath = self.path(f'{name}.log')
        logf = open(logpath, 'ab')
        full_env = dict(os.environ)
        full_env.update(env or {})
        popen = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=logf,
                                 stderr=subprocess.STDOUT, env=full_env,
                                 start_new_session=new_session, **kw)
        logf.close()
        self.popens.append(popen)
        entry = self.undo.add(PHASE_SERVICES, kind='process', pid=popen.pid,
                              starttime=proc_starttime(popen.pid), name=name, grace=grace)
        svc = Service(name, popen, logpath, entry)
        self.services[name] = svc
        self.logs[name] = logpath
        return svc

    def bus_env(self):
        return {'DBUS_SYSTEM_BUS_ADDRESS': self.address}

    def _start_bus(self):
        for d in ['services', 'bus-policy']:
            os.mkdir(self.path(d))
        self.address = f'unix:path={self.path("system_bus_socket")}'
        with open(os.path.join(HERE, 'system-bus.conf.in')) as f:
            conf = f.read()
        conf = (conf.replace('@LISTEN_ADDRESS@', self.address)
                    .replace('@SERVICE_DIR@', self.path('services'))
                    .replace('@POLICY_DIR@', self.path('bus-policy')))
        with open(self.path('system-bus.conf'), 'w') as f:
            f.write(conf)
        if self.want_daemon:
            with open(CONFIG.bus_policy) as f:
                policy = f.read()
            if self.bus_policy_edit:
                policy = self.bus_policy_edit(policy)
            with open(self.path('bus-policy', 'org.diskbench.DiskBench1.conf'), 'w') as f:
                f.write(policy)
            self._write_activation()
        # Its log also gets the stderr of the services it activates (diskbenchd
        # writes its own log, see _write_activation).
        self._spawn('dbus-daemon', ['dbus-daemon', f'--config-file={self.path("system-bus.conf")}',
                                    '--nofork', '--nopidfile', '--nosyslog'],
                    env=self.bus_env())
        wait_until(lambda: os.path.exists(self.path('system_bus_socket')), 10,
                   what='the private bus socket')
        # For anything the tests start themselves (restored in stop()).
        self.saved_address = os.environ.get('DBUS_SYSTEM_BUS_ADDRESS')
        os.environ['DBUS_SYSTEM_BUS_ADDRESS'] = self.address
        wait_until(lambda: self.busctl('status', check=False).returncode == 0, 10,
                   what='the private bus to answer')

    def _write_activation(self):
        daemon_log = self.path('diskbenchd.log')
        self.logs['diskbenchd'] = daemon_log
        wrapper = self.path('diskbenchd-wrapper')
        # The disks under PROTECTED_MOUNT_POINT count as the system's, like
        # those under / (test_device_writes.py mounts a partition there).
        args = ['--idle-timeout', str(self.idle_timeout),
                '--job-retention', str(self.job_retention),
                '--protect-mount-point', self.protected_mount_point]
        if self.verbose:
            args.append('--verbose')
        args += [shlex.quote(a) for a in self.daemon_args]
        # Sanitizer reports and valgrind logs go to the report folder, which
        # stop() reads (daemon_checks.py).
        os.makedirs(self.report_dir, exist_ok=True)
        environment = dict(self.daemon_env,
                           **daemon_checks.daemon_environment(self.report_dir, 'diskbenchd'))
        exports = ''.join(f'export {var}={shlex.quote(value)}\n' for var, value in environment.items())
        command = ' '.join(shlex.quote(a) for a in
                           daemon_checks.daemon_command(self.report_dir, 'diskbenchd', [CONFIG.daemon]))
        # Records "PID STARTTIME" of every activation (idle exit test, teardown).
        with open(wrapper, 'w') as f:
            f.write('#!/bin/sh\n'
                    '# Written by the integration test harness.\n'
                    f'echo "$$ $(cut -d")" -f2- /proc/$$/stat | cut -d" " -f21)" '
                    f'>> {shlex.quote(self.path("diskbenchd.pids"))}\n'
                    'echo "=== diskbenchd started as PID $$ at $(date +%T.%N)" '
                    f'>> {shlex.quote(daemon_log)}\n'
                    f'export DBUS_SYSTEM_BUS_ADDRESS={shlex.quote(self.address)}\n'
                    f'{exports}'
                    f'exec {command} {" ".join(args)} '
                    f'>> {shlex.quote(daemon_log)} 2>&1\n')
        os.chmod(wrapper, 0o755)
        with open(self.path('services', f'{BUS_NAME}.service'), 'w') as f:
            f.write('[D-BUS Service]\n'
                    f'Name={BUS_NAME}\n'
                    f'Exec={wrapper}\n'
                    'User=root\n')
        self.undo.add(PHASE_CLIENTS, kind='pidfile', path=self.path('diskbenchd.pids'),
                      match=CONFIG.daemon, grace=daemon_checks.daemon_stop_grace())

    def _wait_for_name(self, name, svc, timeout=20):
        def owned():
            if svc.popen.poll() is not None:
                raise RuntimeError(f'{svc.name} exited with {svc.popen.returncode}; '
                                   f'log:\n{self.read_log(svc.name)}')
            return self.name_has_owner(name)
        wait_until(owned, timeout, what=f'{name} on the private bus')

    def _start_polkitd(self):
        svc = self._spawn('polkitd', [POLKITD, '--no-debug'], env=self.bus_env())
        self._wait_for_name(POLKIT_NAME, svc)

    def _start_udevd(self):
        if run(['udevadm', 'control', '--ping'], check=False, timeout=10).returncode == 0:
            log('systemd-udevd already runs; using it')
            return
        # Started detached (setsid), as a daemon runs; udisksd needs its database,
        # and loop devices attached later appear only while it runs. Stopped at
        # the end because we started it.
        self._spawn('udevd', [UDEVD], new_session=True, grace=10.0)
        wait_until(lambda: run(['udevadm', 'control', '--ping'], check=False,
                               timeout=10).returncode == 0, 20, what='systemd-udevd')

    def _start_udisksd(self):
        svc = self._spawn('udisksd', [UDISKSD, '--disable-modules'], env=self.bus_env())
        self._wait_for_name(UDISKS_NAME, svc)

    def _start_mock_udisks(self):
        # python3-dbusmock plays udisks2: an ObjectManager at /org/freedesktop/UDisks2
        # whose objects the test adds with AddObject/AddProperties.
        svc = self._spawn('udisks-mock', [PYTHON, '-m', 'dbusmock', '--system', '-m',
                                          UDISKS_NAME, '/org/freedesktop/UDisks2',
                                          OBJECT_MANAGER_IFACE], env=self.bus_env())
        self._wait_for_name(UDISKS_NAME, svc)

    def daemon_pid(self):
        """PID of the running diskbenchd, None when it does not run."""
        res = self.busctl('--json=short', 'call', 'org.freedesktop.DBus', '/org/freedesktop/DBus',
                          'org.freedesktop.DBus', 'GetConnectionUnixProcessID', 's', BUS_NAME)
        if res.returncode != 0:
            return None
        return json.loads(res.stdout)['data'][0]

    def activated_pids(self):
        try:
            with open(self.path('diskbenchd.pids')) as f:
                return [int(line.split()[0]) for line in f if line.strip()]
        except FileNotFoundError:
            return []

    def spawn_daemon_directly(self):
        """Starts diskbenchd as our own child (not activated); returns its Service."""
        os.makedirs(self.report_dir, exist_ok=True)
        argv = daemon_checks.daemon_command(self.report_dir, 'diskbenchd-direct', [CONFIG.daemon])
        env = dict(self.bus_env(), **daemon_checks.daemon_environment(self.report_dir,
                                                                      'diskbenchd-direct'))
        svc = self._spawn('diskbenchd-direct', argv + ['--idle-timeout', '0',
                                                       '--job-retention', str(self.job_retention),
                                                       '--verbose'], env=env,
                          grace=daemon_checks.daemon_stop_grace())
        self._wait_for_name(BUS_NAME, svc)
        return svc

    def ensure_daemon(self):
        """Activates diskbenchd (by a harmless call) and returns its PID."""
        self.call(MANAGER_PATH, MANAGER_IFACE, 'ListBenchmarks')
        return self.daemon_pid()

    def start_benchmark(self, loop_or_path, kind, options, user='dbtest-in'):
        """StartBenchmark from a busctl call: the job is cancelled when busctl exits."""
        path = loop_or_path if isinstance(loop_or_path, str) else loop_or_path.object_path
        return self.call(MANAGER_PATH, MANAGER_IFACE, 'StartBenchmark', 'osa{sv}',
                         path, kind, options, user=user)[0]

    def client(self, user='dbtest-in', start=None, start_fs=None, watch_completed=False):
        """A bus_client.py that keeps its connection: see BusClient."""
        return BusClient(self, user, start, start_fs, watch_completed)

    def monitor(self, match):
        return Monitor(self, match)

    # ---- logs --------------------------------------------------------------

    def read_log(self, name, start=0, limit=200_000):
        try:
            with open(self.logs[name], 'rb') as f:
                f.seek(start)
                return f.read(limit).decode(errors='replace')
        except (KeyError, FileNotFoundError):
            return ''

    def log_marks(self):
        marks = {}
        for name, path in self.logs.items():
            try:
                marks[name] = os.path.getsize(path)
            except FileNotFoundError:
                marks[name] = 0
        return marks

    def dump_logs(self, marks=None, out=sys.stderr):
        for name in sorted(self.logs):
            start = (marks or {}).get(name, 0)
            text = self.read_log(name, start)
            if not text and name.startswith('bus_client'):
                continue  # one per client: only the ones that said something
            what = 'since the test started' if marks else 'whole'
            print(f'\n----- {name} log ({what}, {self.logs[name]}) -----', file=out)
            print(text.rstrip() or '(empty)', file=out)
        print('----- end of logs -----', file=out, flush=True)

    def save_logs(self):
        """Copies the logs to $DISKBENCH_TEST_LOG_DIR (the temp dir goes away)."""
        parent = os.environ.get('DISKBENCH_TEST_LOG_DIR')
        if not parent or not self.tmp:
            return
        name = os.path.splitext(os.path.basename(sys.argv[0]))[0]
        dest = os.path.join(parent, f'{name}-{os.path.basename(self.tmp)}')
        with contextlib.suppress(OSError):
            os.makedirs(dest, exist_ok=True)
            for path in self.logs.values():
                if os.path.exists(path):
                    shutil.copy(path, dest)
            log(f'logs kept in {dest}')



_LIVE_STACKS = []  # started and not yet stopped, for main() to clean up
