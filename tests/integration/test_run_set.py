#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Sets of runs (issue 31, item 3): diskbenchctl run-set runs read
benchmarks one after another on one device through the real daemon, bus,
polkitd and udisksd, as a test user, with a rest between them, and keeps
the session as one result file (kind "run-set", its runs as members) that
show, history, compare and export understand. Ctrl-C in the rest stops the
set and keeps the runs that ended; bad sets are refused before anything
runs."""

import json
import os
import signal
import subprocess
import time

import harness
from harness import wait_until

CTL = os.environ.get('DISKBENCHCTL')
MiB = 1024 * 1024
EXIT_OK, EXIT_USAGE, EXIT_NOT_FOUND, EXIT_CANCELLED = 0, 2, 7, 12


class RunSetTest(harness.IntegrationTestCase):

    @classmethod
    def prepare(cls):
        if not CTL or not os.access(CTL, os.X_OK):
            raise AssertionError(f'{CTL!r} is not built (DISKBENCHCTL)')
        cls.loop = cls.stack.attach_loop(size=128 * MiB)
        cls.home = harness.user_home(cls.stack)

    def ctl(self, *args, timeout=240):
        return harness.run_ctl(self.stack, self.home, *args, timeout=timeout)

    def results_dir(self):
        return os.path.join(self.home, 'data', 'diskbench', 'results')

    def kept(self):
        d = self.results_dir()
        return set(os.listdir(d)) if os.path.isdir(d) else set()

    def load(self, path):
        res = self.ctl('show', path, '--json')
        self.assertEqual(res.returncode, EXIT_OK, res.stderr)
        return json.loads(res.stdout)

    def test_quick_set_is_one_result_file(self):
        before = self.kept()
        res = self.ctl('run-set', 'quick', self.loop.node, '--pause', '2')
        self.assertEqual(res.returncode, EXIT_OK, res.stderr)
        # Each run's own text under its heading, then the set's line.
        self.assertIn('[1/2] Overview', res.stdout)
        self.assertIn('[2/2] Profiles', res.stdout)
        self.assertIn(f'overview on {self.loop.node}: finished', res.stdout)
        self.assertIn('[Read]', res.stdout)  # the Profiles run in CrystalDiskMark's layout
        self.assertIn('Quick set: 2 of 2 benchmarks finished', res.stdout)
        new = self.kept() - before
        self.assertEqual(len(new), 1, f'one file for the whole set, not one per run: {new}')
        path = os.path.join(self.results_dir(), new.pop())
        result = self.load(path)
        self.assertEqual(result['kind'], 'run-set')
        self.assertEqual(result['state'], 'finished')
        self.assertEqual(result['parameters'], {'set': 'quick', 'kinds': 'overview,profile', 'pause_s': 2})
        self.assertEqual(result['summary'], {'benchmarks': 2, 'finished': 2})
        self.assertEqual(result['device_info']['node'], self.loop.node)
        runs = result['members']
        self.assertEqual([r['kind'] for r in runs], ['overview', 'profile'])
        for run in runs:
            self.assertEqual(run['state'], 'finished')
            self.assertEqual(run['device_info']['node'], self.loop.node)
            self.assertTrue(any(s['points'] for s in run['series']))
            self.assertNotIn('members', run)
        self.assertEqual(len(next(s for s in runs[0]['series'] if s['name'] == 'read')['points']), 100)
        # The rest: the second run started at least 2 s after the first ended.
        self.assertGreaterEqual(runs[1]['started_at_us'] - runs[0]['finished_at_us'], 2_000_000)
        self.assertEqual(result['started_at_us'], runs[0]['started_at_us'])
        self.assertEqual(result['finished_at_us'], runs[1]['finished_at_us'])

        # History lists the set once, with each run's figure.
        history = self.ctl('history', self.loop.node)
        self.assertEqual(history.returncode, EXIT_OK, history.stderr)
        line = next(l for l in history.stdout.splitlines() if path in l)
        self.assertIn('run-set', line)
        self.assertRegex(line, r'Overview read [\d.]+ [GM]B/s')
        # show: the set's heading, then each run as `show` prints it alone.
        shown = self.ctl('show', path).stdout
        self.assertIn(f'Quick set on {self.loop.node}: finished', shown)
        self.assertIn('2 of 2 benchmarks finished, 2 s rest between them', shown)
        self.assertIn(f'overview on {self.loop.node}: finished', shown)
        self.assertIn('[Read]', shown)
        # export: each run's series, named after its kind.
        written = self.ctl('export', '--format=csv', path).stdout.splitlines()
        names = [os.path.basename(p) for p in written]
        self.assertIn(os.path.basename(path)[:-5] + '-overview-read.csv', names)
        self.assertTrue(any(n.startswith(os.path.basename(path)[:-5] + '-profile-') for n in names), names)
        # compare: a set against a set compares run with run; against a
        # single run, the run of its kind.
        compared = json.loads(self.ctl('compare', path, path, '--json').stdout)
        self.assertEqual(sorted(compared['runs']), ['overview', 'profile'])
        self.assertEqual(compared['runs']['overview']['summary']['samples'], [100, 100])
        single = self.ctl('run', 'overview', self.loop.node, '--json', '--no-save')
        self.assertEqual(single.returncode, EXIT_OK, single.stderr)
        single_path = os.path.join(self.home, 'single.json')
        with open(single_path, 'w') as f:
            f.write(single.stdout)
        os.chmod(single_path, 0o644)
        text = self.ctl('compare', path, single_path).stdout
        self.assertIn('read_mb_s', text)
        self.assertNotIn('SEQ1M', text)

    def test_list_of_kinds_and_the_kept_custom_set(self):
        before = self.kept()
        res = self.ctl('run-set', 'seek,random', self.loop.node, '--pause', '0', '--json', '--no-save')
        self.assertEqual(res.returncode, EXIT_OK, res.stderr)
        result = json.loads(res.stdout)
        self.assertEqual([r['kind'] for r in result['members']], ['seek', 'random'])
        self.assertEqual(result['parameters']['set'], 'seek,random')
        self.assertEqual(self.kept(), before, '--no-save keeps nothing')

        # "custom" is the set the app keeps in $XDG_CONFIG_HOME/diskbench.
        config = os.path.join(self.home, '.config', 'diskbench')
        res = self.ctl('run-set', 'custom', self.loop.node)
        self.assertEqual(res.returncode, EXIT_USAGE)
        self.assertIn('No custom set is kept yet', res.stderr)
        os.makedirs(config)
        with open(os.path.join(config, 'run-sets.conf'), 'w') as f:
            f.write('[Custom]\nKinds=seek;\n')
        for d in (os.path.join(self.home, '.config'), config):
            os.chmod(d, 0o755)
        res = self.ctl('run-set', 'custom', self.loop.node, '--pause', '0', '--json', '--no-save')
        self.assertEqual(res.returncode, EXIT_OK, res.stderr)
        self.assertEqual([r['kind'] for r in json.loads(res.stdout)['members']], ['seek'])

    def test_bad_sets_are_refused_before_anything_runs(self):
        before = self.kept()
        for name, message in (('', 'A set needs at least one benchmark'),
                              (',', 'A set needs at least one benchmark'),
                              ('seek,seek', '“seek” is named twice'),
                              ('seek,no-such-kind', 'There is no benchmark “no-such-kind”'),
                              ('device-write', '“device-write” cannot be in a set'),
                              ('quick,file-rw', 'There is no benchmark “quick”')):
            with self.subTest(name=name):
                res = self.ctl('run-set', name, self.loop.node)
                self.assertEqual(res.returncode, EXIT_USAGE, res.stderr)
                self.assertIn(message, res.stderr)
                self.assertEqual(res.stdout, '')
        res = self.ctl('run-set', 'seek,file-rw', self.loop.node)
        self.assertIn('“file-rw” cannot be in a set', res.stderr)
        for pause in ('601', '-1', 'soon'):
            res = self.ctl('run-set', 'quick', self.loop.node, '--pause', pause)
            self.assertEqual(res.returncode, EXIT_USAGE)
            self.assertIn('--pause takes seconds from 0 to 600', res.stderr)
        res = self.ctl('run', 'seek', self.loop.node, '--pause', '1')
        self.assertEqual(res.returncode, EXIT_USAGE)
        res = self.ctl('run-set', 'quick', '/dev/no-such-disk')
        self.assertEqual(res.returncode, EXIT_NOT_FOUND, res.stderr)
        self.assertEqual(self.kept(), before)

    def test_ctrl_c_in_the_rest_keeps_the_runs_that_ended(self):
        before = self.kept()
        env = {'DBUS_SYSTEM_BUS_ADDRESS': self.stack.address, 'HOME': self.home,
               'XDG_DATA_HOME': os.path.join(self.home, 'data'), 'LC_ALL': 'C.UTF-8'}
        argv = (['runuser', '-u', 'dbtest-in', '--', 'env'] + [f'{k}={v}' for k, v in env.items()]
                + [CTL, '--no-ask-password', 'run-set', 'seek,random', self.loop.node, '--pause', '120'])
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True)
        try:
            # The set's file appears when its first run ends: then it rests.
            wait_until(lambda: self.kept() - before, 120, interval=0.2, what='the set\'s file after its first run')
            time.sleep(0.5)
            started = time.monotonic()
            ctl_pid = harness.find_descendant(proc.pid, 'diskbenchctl')
            self.assertIsNotNone(ctl_pid)
            os.kill(ctl_pid, signal.SIGINT)
            out, err = proc.communicate(timeout=30)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.communicate()
        self.assertEqual(proc.returncode, EXIT_CANCELLED, err)
        self.assertLess(time.monotonic() - started, 10, 'the rest ends at once')
        self.assertIn('[1/2] Seek', out)
        self.assertNotIn('[2/2]', out)
        new = self.kept() - before
        self.assertEqual(len(new), 1)
        result = self.load(os.path.join(self.results_dir(), new.pop()))
        self.assertEqual(result['state'], 'cancelled')
        self.assertEqual(result['summary'], {'benchmarks': 2, 'finished': 1})
        self.assertEqual([r['kind'] for r in result['members']], ['seek'])


if __name__ == '__main__':
    harness.main()
