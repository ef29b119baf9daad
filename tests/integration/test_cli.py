#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""diskbenchctl (client-cli/) against the real daemon, polkitd and udisksd,
run as test users: every subcommand, --json read back through the contract's
result-file reader (diskbenchctl show --json) and checked field by field, a
folder run through the descriptor, Ctrl-C (SIGINT) cancelling the job, exit
statuses for refusals, and polkit's text agent answering a password prompt
in a pseudo-terminal (right and wrong password, no terminal)."""

import fcntl
import csv
import json
import os
import pty
import pwd
import select
import signal
import subprocess
import tempfile
import termios
import time

import harness
from cleanup import PHASE_FILES, USER_TAG
from harness import JOB_IFACE, SEEK_LONG, run, wait_until

CTL = os.environ.get('DISKBENCHCTL')
PROMTOOL = '/usr/bin/promtool'  # Debian's prometheus (.ci/debian-packages)
MiB = 1024 * 1024

# Exit statuses (client-cli/exit_codes.hpp, diskbenchctl.1).
EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2
EXIT_NOT_AUTHORIZED, EXIT_CAN_OBTAIN, EXIT_DISMISSED = 3, 4, 5
EXIT_NOT_FOUND, EXIT_DEVICE_BUSY = 7, 8
EXIT_CANCELLED, EXIT_NO_DAEMON, EXIT_FILE = 12, 13, 14

# The administrator polkit asks for (auth_admin) in the password tests: a
# user of our own with a password, named by an admin rule of our own for
# our actions only (ahead of Debian's sudo-group rule).
ADMIN_USER = 'dbtest-admin'
ADMIN_PASSWORD = 'Correct-Horse-7'
ADMIN_RULES = '''// Installed by diskbench's integration tests (test_cli.py); removed when they end.
polkit.addAdminRule(function(action, subject) {
    if (action.id.indexOf("org.diskbench.") == 0)
        return ["unix-user:%s"];
    return null;
});
''' % ADMIN_USER

# polkit's password checker, polkit-agent-helper-1, is setuid root, and
# GLib ignores DBUS_SYSTEM_BUS_ADDRESS in setuid programs: it reports the
# answer to polkitd only on the standard system bus socket. On a real
# machine that is where polkitd is; here no system bus runs, so for the
# test's duration the standard path leads to the private bus (a symlink,
# undone with the stack's other files).
SYSTEM_BUS_SOCKET = '/run/dbus/system_bus_socket'


class CliTest(harness.LoopDeviceTestCase):

    @classmethod
    def prepare(cls):
        if not CTL or not os.access(CTL, os.X_OK):
            raise AssertionError(f'diskbenchctl not found (DISKBENCHCTL={CTL!r})')
        super().prepare()
        cls.fs_loop = cls.stack.attach_loop(size=96 * MiB)
        cls.mount = cls.stack.mount_new_filesystem(cls.fs_loop)[0]
        # Each user's own history and bench folder (test users have no home).
        cls.homes = {}
        for user in ('dbtest-in', 'dbtest-out', 'dbtest-ask'):
            pw = pwd.getpwnam(user)
            home = tempfile.mkdtemp(prefix=f'home-{user}-', dir=cls.stack.tmp)
            os.chown(home, pw.pw_uid, pw.pw_gid)
            cls.homes[user] = home
        cls.bench = os.path.join(cls.mount, 'bench')
        os.mkdir(cls.bench)
        pw = pwd.getpwnam('dbtest-in')
        os.chown(cls.bench, pw.pw_uid, pw.pw_gid)
        cls._create_admin()
        cls.stack.install_polkit_rules('00-diskbench-cli-test-admin.rules', ADMIN_RULES)
        cls._point_standard_bus_path_here()

    @classmethod
    def _point_standard_bus_path_here(cls):
        if os.path.lexists(SYSTEM_BUS_SOCKET):
            raise AssertionError(f'{SYSTEM_BUS_SOCKET} exists (a system bus runs here?): polkit\'s '
                                 'setuid helper would answer that bus, not the test\'s')
        os.makedirs(os.path.dirname(SYSTEM_BUS_SOCKET), exist_ok=True)
        cls.stack.undo.add(PHASE_FILES, kind='file', path=SYSTEM_BUS_SOCKET, backup=None)
        os.symlink(cls.stack.path('system_bus_socket'), SYSTEM_BUS_SOCKET)

    @classmethod
    def _create_admin(cls):
        try:
            pwd.getpwnam(ADMIN_USER)
            raise AssertionError(f'user {ADMIN_USER} exists already; remove it first')
        except KeyError:
            pass
        cls.stack.undo.add(PHASE_FILES, kind='user', name=ADMIN_USER)
        run(['useradd', '--system', '--no-create-home', '--no-user-group', '--gid', 'nogroup',
             '--shell', '/usr/sbin/nologin', '--home-dir', '/nonexistent', '--comment', USER_TAG,
             ADMIN_USER])
        run(['chpasswd'], input=f'{ADMIN_USER}:{ADMIN_PASSWORD}\n')

    # ---- running diskbenchctl ----

    def argv(self, user, args, env=None):
        home = self.homes[user]
        full_env = {'DBUS_SYSTEM_BUS_ADDRESS': self.stack.address,
                    'XDG_DATA_HOME': os.path.join(home, 'data'), 'HOME': home, 'LC_ALL': 'C.UTF-8'}
        full_env.update(env or {})
        return (['runuser', '-u', user, '--', 'env']
                + [f'{k}={v}' for k, v in full_env.items()] + [CTL] + list(args))

    def ctl(self, *args, user='dbtest-in', env=None, timeout=120):
        """Runs diskbenchctl without a terminal; returns the CompletedProcess."""
        return run(self.argv(user, args, env), check=False, timeout=timeout, stdin=subprocess.DEVNULL)

    def ctl_ok(self, *args, user='dbtest-in'):
        res = self.ctl(*args, user=user)
        self.assertEqual(res.returncode, EXIT_OK, f'diskbenchctl {args}: {res.stderr}')
        return res

    def history_dir(self, user='dbtest-in'):
        return os.path.join(self.homes[user], 'data', 'diskbench', 'results')

    def kept_files(self, user='dbtest-in'):
        d = self.history_dir(user)
        return sorted(os.listdir(d)) if os.path.isdir(d) else []

    def read_back(self, text, user='dbtest-in'):
        """The result JSON through the contract's reader (show --json): it
        must load, and the writer gives back the very same text."""
        path = os.path.join(self.homes[user], f'readback-{time.monotonic_ns()}.json')
        with open(path, 'w') as f:
            f.write(text)
        os.chmod(path, 0o644)
        res = self.ctl_ok('show', path, '--json', user=user)
        self.assertEqual(res.stdout, text)
        return json.loads(text)

    def assert_result_file(self, result, kind, state='finished'):
        self.assertEqual(result['schema_version'], 1)
        self.assertEqual(result['kind'], kind)
        self.assertEqual(result['state'], state)
        self.assertGreater(result['started_at_us'], 0)
        self.assertGreaterEqual(result['finished_at_us'], result['started_at_us'])
        self.assertTrue(result['series'])
        self.assertTrue(any(s['points'] for s in result['series']))
        for series in result['series']:
            for point in series['points']:
                self.assertEqual(len(point), 2)
        if state == 'finished':
            self.assertTrue(result['summary'])

    def ctl_process(self, *args, user='dbtest-in'):
        return subprocess.Popen(self.argv(user, args), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)

    def running_job(self, user='dbtest-in'):
        """The number of the running seek job on our loop device, from `jobs --json`."""
        def find():
            res = self.ctl('jobs', '--json', user=user)
            if res.returncode != 0:
                return None
            for job in json.loads(res.stdout):
                if job['state'] == 'running' and job['device'] == self.loop.object_path:
                    return job['job'].rsplit('/', 1)[1]
            return None
        return wait_until(find, 30, interval=0.3, what='a running job in diskbenchctl jobs')

    # ---- listing ----

    def test_devices(self):
        res = self.ctl_ok('devices')
        lines = res.stdout.splitlines()
        self.assertEqual(lines[0].split()[:4], ['Node', 'Model', 'Size', 'Link'])
        ours_line = [line for line in lines if line.startswith(self.loop.node + ' ')]
        self.assertEqual(len(ours_line), 1, res.stdout)
        # The Link column is the daemon's Device.Link (issue 13), not the bus.
        self.assertIn(' virtual (loop) ', ours_line[0])
        devices = json.loads(self.ctl_ok('devices', '--json').stdout)
        ours = [d for d in devices if d['node'] == self.loop.node]
        self.assertEqual(len(ours), 1)
        self.assertEqual(ours[0]['object'], self.loop.object_path)
        self.assertEqual(ours[0]['size'], self.loop.size)
        self.assertEqual(ours[0]['kind'], 'loop')
        self.assertEqual(ours[0]['link'], 'virtual (loop)')
        self.assertGreater(len(ours[0]['stack']), 0)

    def test_benchmarks(self):
        res = self.ctl_ok('benchmarks')
        kinds = {line.split()[0] for line in res.stdout.splitlines()[1:]}
        self.assertLessEqual({'seek', 'file-rw', 'device-write'}, kinds)
        listed = json.loads(self.ctl_ok('benchmarks', '--json').stdout)
        by_kind = {k['kind']: k for k in listed}
        self.assertEqual(by_kind['file-rw']['target'], 'directory')
        count = [p for p in by_kind['seek']['parameters'] if p['key'] == 'count'][0]
        self.assertEqual(count['type'], 'unsigned')
        self.assertIsInstance(count['default'], int)
        res = self.ctl_ok('benchmarks', 'seek')
        self.assertIn('count', res.stdout)
        self.assertIn('unsigned', res.stdout)
        self.assertEqual(self.ctl('benchmarks', 'no-such-kind').returncode, EXIT_USAGE)

    def complete(self, words):
        """What bash completion offers for `words` (the last one being
        completed), with the installed bash-completion and our file, as the
        test user; diskbenchctl on PATH."""
        completion = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                                  'client-cli', 'diskbenchctl.bash-completion')
        line = ' '.join(words)
        script = ('source /usr/share/bash-completion/bash_completion; source "$0"; '
                  'COMP_WORDS=("${@}"); COMP_CWORD=$(($# - 1)); COMP_LINE="$LINE"; COMP_POINT=${#LINE}; '
                  '_diskbenchctl; printf "%s\\n" "${COMPREPLY[@]}"')
        argv = self.argv('dbtest-in', [], env={'PATH': os.path.dirname(CTL) + ':/usr/bin:/bin', 'LINE': line})
        argv = argv[:-1] + ['bash', '-c', script, completion] + list(words)
        res = run(argv, check=False, stdin=subprocess.DEVNULL)
        self.assertEqual(res.returncode, 0, res.stderr)
        return res.stdout.split()

    def test_bash_completion(self):
        self.assertIn('benchmarks', self.complete(['diskbenchctl', 'be']))
        kinds = self.complete(['diskbenchctl', 'run', ''])
        self.assertLessEqual({'seek', 'file-rw', 'device-write'}, set(kinds))
        self.assertIn(self.loop.node, self.complete(['diskbenchctl', 'run', 'seek', '/dev/']))
        self.assertEqual(self.complete(['diskbenchctl', 'run', 'seek', self.loop.node, 'co']), ['count='])
        self.assertIn('--no-save', self.complete(['diskbenchctl', 'run', '--no']))

    # ---- runs ----

    def test_run_seek_on_device(self):
        before = self.kept_files()
        res = self.ctl('run', 'seek', self.loop.node, 'count=200')
        self.assertEqual(res.returncode, EXIT_OK, res.stderr)
        self.assertIn(f'seek on {self.loop.node}: finished', res.stdout)
        # What the app shows, in its words and units (issue 31): the
        # headline with the percentiles, the figures named, the checks and
        # the device line; the raw keys only with --keys.
        self.assertRegex(res.stdout, r'average access time \d+\.\d\d ms  ·  p50 [\d.]+ [µm]?s  ·  p99 ')
        self.assertRegex(res.stdout, r'\n  Reads +200\n')
        self.assertIn('✓ Block layer: loop', res.stdout)
        self.assertIn(f'Device: {self.loop.node}', res.stdout)
        self.assertNotIn('latency_p99_9_us', res.stdout)
        # Not a terminal: no progress line, nothing on stderr at all.
        self.assertEqual(res.stderr, '')
        after = self.kept_files()
        self.assertEqual(len(after), len(before) + 1, 'the result is kept in the history')
        new = os.path.join(self.history_dir(), sorted(set(after) - set(before))[0])
        with open(new) as f:
            kept = self.read_back(f.read())
        self.assert_result_file(kept, 'seek')
        self.assertEqual(kept['parameters']['count'], 200)
        self.assertEqual(kept['summary']['reads'], 200)
        self.assertEqual(os.stat(new).st_uid, pwd.getpwnam('dbtest-in').pw_uid)

        # history lists it; history DEVICE filters; show prints it.
        res = self.ctl_ok('history')
        self.assertIn(new, res.stdout)
        self.assertIn(new, self.ctl_ok('history', self.loop.node).stdout)
        self.assertNotIn(new, self.ctl_ok('history', '/dev/no-such-disk').stdout)
        listed = json.loads(self.ctl_ok('history', '--json').stdout)
        self.assertIn(new, [entry['file'] for entry in listed])
        self.assertRegex(self.ctl_ok('show', new).stdout, r'\n  Reads +200\n')
        keys = self.ctl_ok('show', new, '--keys').stdout
        self.assertRegex(keys, r'\nlatency_p99_9_us +\d')

    def test_run_json_output_no_save(self):
        before = self.kept_files()
        out = os.path.join(self.homes['dbtest-in'], 'out.json')
        res = self.ctl('run', 'seek', self.loop.node, 'count=150', 'block_size=4k', '--json', '--no-save',
                       '--output', out)
        self.assertEqual(res.returncode, EXIT_OK, res.stderr)
        result = self.read_back(res.stdout)
        self.assert_result_file(result, 'seek')
        # Typed from the parameter list: 4k became the integer 4096.
        self.assertEqual(result['parameters']['block_size'], 4096)
        self.assertEqual(result['device_info']['node'], self.loop.node)
        with open(out) as f:
            self.assertEqual(f.read(), res.stdout)
        self.assertEqual(self.kept_files(), before, '--no-save keeps nothing')

        # The series as CSV for a spreadsheet (issue 31): one file beside
        # the result, a header with units, a row per read, C numbers.
        written = self.ctl_ok('export', '--format=csv', out).stdout.splitlines()
        csv_path = out[:-len('.json')] + '-latency.csv'
        cdf_path = out[:-len('.json')] + '-cdf.csv'
        self.assertEqual(written, [csv_path, cdf_path])
        # The latency distribution: 19 quantiles, the slowest at 100 %.
        with open(cdf_path, newline='') as f:
            cdf = list(csv.reader(f))
        self.assertEqual(cdf[0], ['latency (us)', 'cdf (%)'])
        self.assertEqual(len(cdf), 1 + 19)
        self.assertEqual(float(cdf[-1][1]), 100.0)
        with open(csv_path, newline='') as f:
            rows = list(csv.reader(f))
        self.assertEqual(rows[0], ['distance (B)', 'latency (us)'])
        self.assertEqual(len(rows), 1 + 150)
        self.assertEqual([[float(x), float(y)] for x, y in rows[1:]], result['series'][0]['points'])
        res_csv = self.ctl('export', '--format=csv', out, out)
        self.assertEqual(res_csv.returncode, EXIT_USAGE, res_csv.stderr)

        # compare: the same figures, 0 % change on every number.
        res2 = self.ctl('run', 'seek', self.loop.node, 'count=150', '--json', '--no-save')
        self.assertEqual(res2.returncode, EXIT_OK, res2.stderr)
        other = os.path.join(self.homes['dbtest-in'], 'other.json')
        with open(other, 'w') as f:
            f.write(res2.stdout)
        text = self.ctl_ok('compare', out, other).stdout
        self.assertIn('reads', text)
        compared = json.loads(self.ctl_ok('compare', out, other, '--json').stdout)
        self.assertEqual(compared['summary']['reads'], [150, 150])

    def test_run_writes_openmetrics(self):
        # --openmetrics: the finished run as Prometheus metrics, labelled
        # with the loop device's name (a loop device has no by-id link).
        metrics = os.path.join(self.homes['dbtest-in'], 'diskbench.prom')
        res = self.ctl('run', 'seek', self.loop.node, 'count=150', '--no-save', '--openmetrics', metrics)
        self.assertEqual(res.returncode, EXIT_OK, res.stderr)
        with open(metrics) as f:
            text = f.read()
        name = os.path.basename(self.loop.node)
        self.assertIn(f'diskbench_latency_seconds{{device="{name}",model="",serial="",kind="seek",test="",'
                      f'op="read",quantile="0.5"}}', text)
        self.assertIn(f'diskbench_check_warnings{{device="{name}",model="",serial="",kind="seek",'
                      f'check="foreign_io"}} 0', text)
        self.assertTrue(text.endswith('# EOF\n'))
        self.assertEqual(os.stat(metrics).st_uid, pwd.getpwnam('dbtest-in').pw_uid)
        # A cancelled run (SIGINT, as Ctrl-C) leaves the last finished run's metrics.
        runner = self.ctl_process('run', 'seek', self.loop.node, f'count={SEEK_LONG["count"][1]}', '--no-save',
                                  '--openmetrics', metrics)
        try:
            self.running_job()
            ctl_pid = wait_until(lambda: harness.find_descendant(runner.pid, 'diskbenchctl'), 10,
                                 what='the diskbenchctl process')
            os.kill(ctl_pid, signal.SIGINT)
            _, err = runner.communicate(timeout=30)
            self.assertEqual(runner.returncode, EXIT_CANCELLED, err)
        finally:
            if runner.poll() is None:
                runner.kill()
                runner.wait()
        with open(metrics) as f:
            self.assertEqual(f.read(), text)
        # Options of other commands are refused before any call.
        for args in (['devices', '--openmetrics', metrics], ['export', self.loop.node],
                     ['export', '--format=xml', metrics], ['show', metrics, '--format=openmetrics']):
            with self.subTest(args=args):
                self.assertEqual(self.ctl(*args).returncode, EXIT_USAGE)

    def test_run_in_folder_through_descriptor(self):
        res = self.ctl('run', 'file-rw', self.bench, 'size=8M', 'block_size=1M', '--json', '--no-save')
        self.assertEqual(res.returncode, EXIT_OK, res.stderr)
        result = self.read_back(res.stdout)
        self.assert_result_file(result, 'file-rw')
        self.assertEqual(result['target_kind'], 'directory')
        # The daemon's view of the folder: it got our descriptor, which
        # points here (Job.Target as the owner reads it).
        self.assertEqual(result['target'], self.bench)
        self.assertEqual(os.listdir(self.bench), [], 'the scratch folder is gone')
        # Kept this time; `history FOLDER` finds it however the folder is written.
        self.ctl_ok('run', 'file-rw', self.bench, 'size=8M', 'block_size=1M')
        listed = json.loads(self.ctl_ok('history', self.bench + '/./', '--json').stdout)
        self.assertTrue(listed)
        self.assertTrue(all(entry['target'] == self.bench for entry in listed), listed)
        # A folder the user cannot open: an argument error before any call.
        closed = tempfile.mkdtemp(dir=self.mount)
        os.chmod(closed, 0o700)
        self.assertEqual(self.ctl('run', 'file-rw', closed).returncode, EXIT_USAGE)

    def test_argument_errors(self):
        for args in (['frobnicate'], ['run', 'seek'], ['run', 'no-such-kind', self.loop.node],
                     ['run', 'seek', self.loop.node, 'count=-5'], ['run', 'seek', self.loop.node, 'count=many'],
                     ['run', 'seek', self.loop.node, 'nokey=1'], ['run', 'sustained-write', self.loop.node, '--passes', '2'],
                     ['devices', '--output', 'x'], ['watch', 'not-a-job']):
            with self.subTest(args=args):
                res = self.ctl(*args)
                self.assertEqual(res.returncode, EXIT_USAGE, res.stderr)
                self.assertTrue(res.stderr.startswith('diskbenchctl: '), res.stderr)
        self.assertEqual(self.ctl('run', 'seek', '/dev/no-such-disk').returncode, EXIT_NOT_FOUND)
        self.assertEqual(self.ctl('show', '/nonexistent/x.json').returncode, EXIT_FILE)
        # --passes sets the kind's "passes" parameter (seek has one; the
        # sustained write above has none, an argument error).
        res = self.ctl('run', 'seek', self.loop.node, 'count=50', '--passes', '2', '--json', '--no-save')
        self.assertEqual(res.returncode, 0, res.stderr)
        result = json.loads(res.stdout)
        self.assertEqual(result['parameters']['passes'], 2)
        self.assertEqual(result['summary']['passes'], 2)
        # Out of the daemon's range: its InvalidArgument.
        self.assertEqual(self.ctl('run', 'seek', self.loop.node, 'count=0').returncode, 6)
        # No bus at all.
        res = self.ctl('devices', env={'DBUS_SYSTEM_BUS_ADDRESS': 'unix:path=/nonexistent/bus'})
        self.assertEqual(res.returncode, EXIT_NO_DAEMON, res.stderr)

    def czech_env(self):
        """The environment of a Czech user: LANGUAGE=cs, a cs_CZ.UTF-8 locale
        (built with localedef into a LOCPATH of the test's own, since this
        machine has none installed) and the build tree's translations."""
        localedir = os.environ.get('DISKBENCH_BUILT_LOCALEDIR', '')
        if not os.path.isfile(os.path.join(localedir, 'cs', 'LC_MESSAGES', 'diskbench.mo')):
            raise AssertionError(f'no built Czech catalogue in {localedir!r} (DISKBENCH_BUILT_LOCALEDIR)')
        locpath = os.path.join(self.stack.tmp, 'locale')
        if not os.path.isdir(os.path.join(locpath, 'cs_CZ.UTF-8')):
            os.makedirs(locpath, exist_ok=True)
            # localedef exits 1 on mere warnings; the locale is there when it is usable.
            subprocess.run(['localedef', '-i', 'cs_CZ', '-f', 'UTF-8', os.path.join(locpath, 'cs_CZ.UTF-8')],
                           capture_output=True)
            if not os.path.isdir(os.path.join(locpath, 'cs_CZ.UTF-8')):
                raise AssertionError('localedef could not build cs_CZ.UTF-8')
            subprocess.run(['chmod', '-R', 'a+rX', locpath], check=True)
        return {'LOCPATH': locpath, 'LC_ALL': 'cs_CZ.UTF-8', 'LANGUAGE': 'cs', 'DISKBENCH_LOCALEDIR': localedir}

    def test_refusal_details_in_czech(self):
        # The daemon sends a refusal's details in English and, since API
        # 0.16, as data after it (the failure's id and arguments);
        # diskbenchctl prints them in the user's language from the data.
        czech = self.czech_env()
        # The sweep's own check, its text the catalogue's "must be a power of two".
        res = self.ctl('run', 'qd-sweep', self.loop.node, 'max_queue_depth=3', env=czech)
        self.assertEqual(res.returncode, 6, res.stderr)  # InvalidArgument
        self.assertIn('Nastavení neodpovídá tomuto zařízení: max_queue_depth: musí být mocnina dvou', res.stderr)
        self.assertNotIn('must be a power of two', res.stderr)
        # The engine's range check: the numbers and the key kept as they are.
        res = self.ctl('run', 'seek', self.loop.node, 'count=0', env=czech)
        self.assertEqual(res.returncode, 6, res.stderr)
        self.assertRegex(res.stderr, r'count: 0 je mimo rozsah \[1, \d+\]')
        self.assertNotIn('out of range', res.stderr)
        # The same refusal for an English user: the daemon's words.
        res = self.ctl('run', 'seek', self.loop.node, 'count=0')
        self.assertRegex(res.stderr, r'The settings do not fit this device: count: 0 is out of range \[1, \d+\]')

    # ---- hostile result files (issue 26) ----

    # Escape sequences a result file may carry into a terminal: its title,
    # clear screen and home, a line of its own, a C1 CSI (U+009B), DEL.
    EVIL = '\x1b]0;owned\x07\x1b[2J\x1b[H\nverified OK \u009b31m\x7f'

    @staticmethod
    def result_json(kind='seek', text=''):
        return json.dumps({
            'schema_version': 1, 'kind': kind + text, 'state': 'finished', 'backend': 'io_uring' + text,
            'target_kind': 'device', 'target': '/dev/sda' + text,
            'started_at_us': 1_700_000_000_000_000, 'finished_at_us': 1_700_000_001_000_000,
            'parameters': {'count': 100}, 'summary': {'latency_mean_us': 8500.0, 'model' + text: 'x' + text},
            'device_info': {'node': '/dev/sda' + text, 'model': 'USB disk' + text, 'serial': 'S1' + text},
            'warnings': ['warning' + text], 'notes': ['note' + text],
            'series': [{'name': 'latency', 'x_unit': 'B', 'y_unit': 'us', 'style': 'scatter',
                        'points': [[0, 1.0], [4096, 2.0]]}],
        })

    def write_file(self, path, text, user='dbtest-in'):
        with open(path, 'w') as f:
            f.write(text)
        pw = pwd.getpwnam(user)
        os.chown(path, pw.pw_uid, pw.pw_gid)
        return path

    def ctl_bytes(self, *args, user='dbtest-in', env=None):
        """diskbenchctl's stdout and stderr as bytes: escape sequences and all."""
        return subprocess.run(self.argv(user, args, env), stdin=subprocess.DEVNULL, capture_output=True,
                              timeout=120, check=False)

    def assert_no_terminal_controls(self, output):
        for control in (b'\x1b', b'\x07', b'\x7f', b'\xc2\x9b'):
            self.assertNotIn(control, output)
        self.assertFalse(any(line.startswith(b'verified OK') for line in output.splitlines()), output)

    def test_show_escapes_a_hostile_result_file(self):
        path = self.write_file(os.path.join(self.homes['dbtest-in'], 'evil.json'), self.result_json(text=self.EVIL))
        res = self.ctl_bytes('show', path)
        self.assertEqual(res.returncode, EXIT_OK, res.stderr)
        self.assert_no_terminal_controls(res.stdout + res.stderr)
        # Shown, escaped (\xNN), not dropped.
        self.assertIn(b'seek\\x1b]0;owned\\x07\\x1b[2J\\x1b[H\\x0averified OK \\xc2\\x9b31m\\x7f', res.stdout)
        self.assertIn('⚠ warning\\x1b]0;owned'.encode(), res.stdout)
        # --json: the same strings, as JSON escapes.
        res = self.ctl_bytes('show', path, '--json')
        self.assertEqual(res.returncode, EXIT_OK, res.stderr)
        self.assert_no_terminal_controls(res.stdout)
        self.assertEqual(json.loads(res.stdout)['notes'], ['note' + self.EVIL])

    # Series a spreadsheet would run as formulas, two that come to the
    # same file name (a/b and a_b), and the escape sequences in a name.
    HOSTILE_SERIES = ['=HYPERLINK("http://x","y")', '+1', '-2', '@SUM(A1)', '\tx', 'a/b', 'a_b',
                      'latency' + EVIL]

    def hostile_export_result(self):
        result = json.loads(self.result_json(text=self.EVIL))
        result['series'] = [{'name': name, 'x_unit': 'B', 'y_unit': 'us', 'style': 'line',
                             'points': [[-1, -2.5], [4096, 2.0]]} for name in self.HOSTILE_SERIES]
        return self.write_file(os.path.join(self.homes['dbtest-in'], 'evil-export.json'), json.dumps(result))

    def test_openmetrics_export_of_a_hostile_result_file_escapes_it(self):
        path = self.hostile_export_result()
        # On standard output (a terminal) and in a file: the controls as
        # \xNN text (\\xNN in the label's escaping), still metrics
        # Prometheus reads.
        res = self.ctl_bytes('export', '--format=openmetrics', path)
        self.assertEqual(res.returncode, EXIT_OK, res.stderr)
        self.assert_no_terminal_controls(res.stdout + res.stderr)
        self.assertIn(b'model="USB disk\\\\x1b]0;owned\\\\x07\\\\x1b[2J\\\\x1b[H\\nverified OK '
                      b'\\\\xc2\\\\x9b31m\\\\x7f"', res.stdout)
        self.assertIn(b'kind="seek\\\\x1b]0;owned', res.stdout)
        check = run([PROMTOOL, 'check', 'metrics'], input=res.stdout.decode(), check=False)
        self.assertEqual((check.returncode, check.stdout + check.stderr), (0, ''))
        metrics = os.path.join(self.homes['dbtest-in'], 'evil.prom')
        res_file = self.ctl_bytes('export', '--format=openmetrics', '--output', metrics, path)
        self.assertEqual(res_file.returncode, EXIT_OK, res_file.stderr)
        with open(metrics, 'rb') as f:
            self.assertEqual(f.read(), res.stdout)

    def test_csv_export_of_a_hostile_result_file_neutralises_it(self):
        path = self.hostile_export_result()
        # Each series its own file, listed once; no formula, no control.
        prefix = os.path.join(self.homes['dbtest-in'], 'evil-csv')
        res = self.ctl_bytes('export', '--format=csv', '--output', prefix, path)
        self.assertEqual(res.returncode, EXIT_OK, res.stderr)
        self.assert_no_terminal_controls(res.stdout + res.stderr)
        written = res.stdout.decode().splitlines()
        self.assertEqual(len(written), len(self.HOSTILE_SERIES), written)
        self.assertEqual(len(set(written)), len(written), written)
        self.assertIn(prefix + '-a_b.csv', written)
        self.assertIn(prefix + '-a_b-2.csv', written)
        headers = []
        for name in written:
            with open(name, 'rb') as f:
                data = f.read()
            self.assert_no_terminal_controls(data)
            self.assertFalse(any(b < 0x20 and b not in b'\r\n' for b in data), (name, data))
            rows = list(csv.reader(data.decode().splitlines()))
            headers.append(rows[0][1])
            # Our numbers, negative ones too, stay numbers.
            self.assertEqual(rows[1:], [['-1', '-2.5'], ['4096', '2']])
        self.assertEqual(headers, ['\'=HYPERLINK("http://x","y") (us)', "'+1 (us)", "'-2 (us)", "'@SUM(A1) (us)",
                                   '\\x09x (us)', 'a/b (us)', 'a_b (us)',
                                   'latency\\x1b]0;owned\\x07\\x1b[2J\\x1b[H\\x0averified OK \\xc2\\x9b31m\\x7f (us)'])
        for cell in headers:
            self.assertNotIn(cell[0], '=+-@\t\r')

    def test_deeply_nested_result_files_are_refused_not_a_crash(self):
        home = self.homes['dbtest-out']
        deep = '[' * 200_000 + ']' * 200_000
        path = self.write_file(os.path.join(home, 'deep.json'), deep, user='dbtest-out')
        res = self.ctl_bytes('show', path, user='dbtest-out')
        self.assertEqual(res.returncode, EXIT_FILE, res.stderr)  # not 139 (SIGSEGV) or -11
        self.assertTrue(res.stderr.startswith(b'diskbenchctl: '), res.stderr)
        self.assertIn(b'nested more than 64 levels', res.stderr)
        # In the results folder, which history reads whole at start: skipped
        # with one warning, the good result and the hostile one listed.
        data = tempfile.mkdtemp(prefix='data-', dir=home)
        results = os.path.join(data, 'diskbench', 'results')
        os.makedirs(results)
        pw = pwd.getpwnam('dbtest-out')
        for d in (data, os.path.dirname(results), results):
            os.chown(d, pw.pw_uid, pw.pw_gid)
        self.write_file(os.path.join(results, 'good.json'), self.result_json(), user='dbtest-out')
        self.write_file(os.path.join(results, 'evil.json'),
                        self.result_json(text=self.EVIL).replace('1700000000000000', '1700000100000000'),
                        user='dbtest-out')
        self.write_file(os.path.join(results, 'deep.json'), deep, user='dbtest-out')
        env = {'XDG_DATA_HOME': data}
        res = self.ctl_bytes('history', user='dbtest-out', env=env)
        self.assertEqual(res.returncode, EXIT_OK, res.stderr)
        self.assert_no_terminal_controls(res.stdout + res.stderr)
        self.assertIn(b'good.json', res.stdout)
        self.assertIn(b'evil.json', res.stdout)
        self.assertNotIn(b'deep.json', res.stdout)
        self.assertEqual(res.stderr.count(b'deep.json'), 1, res.stderr)
        res = self.ctl_bytes('history', '--json', user='dbtest-out', env=env)
        self.assertEqual(res.returncode, EXIT_OK, res.stderr)
        self.assert_no_terminal_controls(res.stdout)
        self.assertEqual(len(json.loads(res.stdout)), 2)

    def test_jobs_watch_cancel_and_busy(self):
        count = str(SEEK_LONG['count'][1])
        runner = self.ctl_process('run', 'seek', self.loop.node, f'count={count}', '--no-save')
        try:
            number = self.running_job()
            text = self.ctl_ok('jobs').stdout
            uid = pwd.getpwnam('dbtest-in').pw_uid
            self.assertRegex(text, rf'(?m)^\s*{number}\s+seek\s+{self.loop.node}\s+running\s+\d+ %\s+dbtest-in \({uid}\)$')
            # The device is busy meanwhile.
            self.assertEqual(self.ctl('run', 'seek', self.loop.node, 'count=100').returncode, EXIT_DEVICE_BUSY)
            # Someone else's job: polkit says no to dbtest-out.
            res = self.ctl('cancel', number, user='dbtest-out')
            self.assertEqual(res.returncode, EXIT_NOT_AUTHORIZED, res.stderr)
            watcher = self.ctl_process('watch', number, '--json', '--no-save')
            time.sleep(1)
            self.ctl_ok('cancel', number)
            out, err = watcher.communicate(timeout=30)
            self.assertEqual(watcher.returncode, EXIT_CANCELLED, err)
            self.assertEqual(json.loads(out)['state'], 'cancelled')
            out, err = runner.communicate(timeout=30)
            self.assertEqual(runner.returncode, EXIT_CANCELLED, err)
            self.assertIn(': cancelled', out)
            self.assertEqual(self.ctl('cancel', '999999').returncode, EXIT_NOT_FOUND)
        finally:
            if runner.poll() is None:
                runner.kill()
                runner.wait()

    def test_sigint_cancels_the_job(self):
        runner = self.ctl_process('run', 'seek', self.loop.node, f'count={SEEK_LONG["count"][1]}', '--no-save')
        try:
            number = self.running_job()
            job = f'/org/diskbench/DiskBench1/jobs/{number}'
            ctl_pid = wait_until(lambda: harness.find_descendant(runner.pid, 'diskbenchctl'), 10,
                                 what='the diskbenchctl process')
            os.kill(ctl_pid, signal.SIGINT)
            out, err = runner.communicate(timeout=30)
            self.assertEqual(runner.returncode, EXIT_CANCELLED, err)
            self.assertEqual(self.stack.get_property(job, JOB_IFACE, 'State'), 'cancelled')
        finally:
            if runner.poll() is None:
                runner.kill()
                runner.wait()

    # ---- polkit ----

    def test_refused_user_gets_not_authorized(self):
        res = self.ctl('run', 'seek', self.loop.node, 'count=100', user='dbtest-out')
        self.assertEqual(res.returncode, EXIT_NOT_AUTHORIZED, res.stderr)

    def test_no_terminal_gives_can_obtain(self):
        res = self.ctl('run', 'seek', self.loop.node, 'count=100', user='dbtest-ask')
        self.assertEqual(res.returncode, EXIT_CAN_OBTAIN, res.stderr)
        self.assertIn('NotAuthorizedCanObtain', res.stderr)

    def in_pty(self, user, args, answers, timeout=90):
        """Runs diskbenchctl with a pseudo-terminal as its controlling
        terminal and stdin/stdout/stderr; writes each answer when its prompt
        has appeared. Returns (exit status, everything the terminal showed)."""
        master, slave = pty.openpty()

        def controlling_terminal():
            os.setsid()
            fcntl.ioctl(0, termios.TIOCSCTTY, 0)

        proc = subprocess.Popen(self.argv(user, args), stdin=slave, stdout=slave, stderr=slave,
                                preexec_fn=controlling_terminal, close_fds=True)
        os.close(slave)
        seen = b''
        answered = 0  # answers go to prompts after this offset
        pending = list(answers)
        deadline = time.monotonic() + timeout
        try:
            while time.monotonic() < deadline:
                ready, _, _ = select.select([master], [], [], 0.2)
                if ready:
                    try:
                        chunk = os.read(master, 4096)
                    except OSError:
                        chunk = b''  # EIO: the last holder of the terminal is gone
                    if not chunk:
                        break
                    seen += chunk
                if pending and pending[0][0].encode() in seen[answered:]:
                    # The agent turns echo off (flushing what was typed
                    # before) and then reads: answer only after that.
                    if termios.tcgetattr(master)[3] & termios.ECHO == 0:
                        answered = len(seen)
                        os.write(master, pending.pop(0)[1].encode() + b'\n')
                if proc.poll() is not None and not ready:
                    break
            try:
                proc.wait(timeout=max(1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                seen += b'\n[test: timed out, killed]'
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
            os.close(master)
        return proc.returncode, seen.decode(errors='replace')

    def test_text_agent_asks_for_the_password(self):
        status, shown = self.in_pty('dbtest-ask', ['run', 'seek', self.loop.node, 'count=100', '--no-save'],
                                    [('Password:', ADMIN_PASSWORD)])
        self.assertIn('AUTHENTICATING FOR org.diskbench.read-device', shown)
        self.assertIn(ADMIN_USER, shown)
        self.assertNotIn(ADMIN_PASSWORD, shown, 'the password is not echoed')
        self.assertEqual(status, EXIT_OK, shown)
        self.assertIn(f'seek on {self.loop.node}: finished', shown)

    def test_text_agent_wrong_password(self):
        status, shown = self.in_pty('dbtest-ask', ['run', 'seek', self.loop.node, 'count=100', '--no-save'],
                                    [('Password:', 'not-the-password')] * 3)
        self.assertIn('Password:', shown)
        self.assertEqual(status, EXIT_NOT_AUTHORIZED, shown)

    def test_text_agent_dismissed(self):
        # Ctrl-D at the prompt dismisses it (polkit's text listener would
        # abort the process; diskbenchctl exits with Dismissed's status).
        status, shown = self.in_pty('dbtest-ask', ['run', 'seek', self.loop.node, 'count=100', '--no-save'],
                                    [('Password:', '\x04')])
        self.assertIn('The password prompt was dismissed.', shown)
        self.assertEqual(status, EXIT_DISMISSED, shown)

    def test_text_agent_interrupted(self):
        # Ctrl-C at the prompt: the terminal sends SIGINT; nothing started.
        status, shown = self.in_pty('dbtest-ask', ['run', 'seek', self.loop.node, 'count=100', '--no-save'],
                                    [('Password:', '\x03')], timeout=30)
        self.assertEqual(status, EXIT_CANCELLED, shown)
        self.assertNotIn('timed out', shown)

    def test_no_ask_password_in_a_terminal(self):
        status, shown = self.in_pty('dbtest-ask', ['run', 'seek', self.loop.node, 'count=100',
                                                   '--no-ask-password'], [])
        self.assertNotIn('Password:', shown)
        self.assertEqual(status, EXIT_CAN_OBTAIN, shown)


if __name__ == '__main__':
    harness.main()
