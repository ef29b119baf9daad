#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Randomised bad input against the real daemon, as unprivileged users.

Two callers at once, each a fuzz_client.py of its own seed stream: dbtest-out,
whom polkit refuses everything, and dbtest-in, whom it allows everything (so
bad input also reaches the code behind polkit: devices opened, folders
prepared, jobs started and cancelled). Between them they call every method
and read (and try to set) every property of every interface in the
introspection XML, plus the standard interfaces, on the right objects and
wrong ones, with wrong signatures, with every option key of every kind from
ListBenchmarks sent with wrong variant types, extreme numbers, NaN and
infinities, awkward and huge strings, and descriptors of folders (ours,
others', unreadable, deleted, deeper than PATH_MAX, named in invalid
UTF-8), files, pipes, sockets, eventfd, memfd, epoll, /proc, /sys,
/dev/null, a block device and symlinks (O_PATH). fuzz_client.py says what
each answer may be.

Seeded and reproducible: the seed is printed; DISKBENCH_FUZZ_SEED=N repeats
a run's calls, DISKBENCH_FUZZ_CALLS=N sets how many (default 10000, half per
caller; tests/integration/run-fuzz.sh runs a million).

Asserted besides each answer:
  * the daemon never restarts: the same PID and unique name throughout, and
    no second activation;
  * its open descriptors, once every job has ended, are no more than before
    the run (after a warm-up round), and its resident memory grows by at
    most RSS_GROWTH_BOUND, 32 MiB (with malloc settings that return freed
    memory, MALLOC_SETTINGS): over the 10000 calls of a CI run that
    catches a leak of more than about 3 KiB per call, over a million calls
    one of more than about 34 bytes. Under AddressSanitizer or valgrind
    the bound is SANITIZED_RSS_GROWTH_BOUND, 512 MiB: ASan keeps freed
    memory in quarantine (up to 256 MiB, and the huge strings pass through
    it); there LeakSanitizer or valgrind report leaks at the daemon's exit,
    which fails the test too (devtools/stack/daemon_checks.py);
  * nothing was written where not told: the loop devices' data are
    unchanged (raw write runs in "preserve" mode give every byte back, and
    "destroy" needs the device's node as "confirm", which the callers never
    send: forbidden_strings), and so is every file and folder on the
    filesystem the folders are on, no scratch folder is left, and the
    callers' own folders hold nothing but what was there.
"""

import hashlib
import json
import os
import pwd
import random
import shutil
import stat
import subprocess
import threading
import time
import xml.etree.ElementTree as ET

import harness
import daemon_checks  # after harness, which puts devtools/stack on the path
from clients import PYTHON
from harness import (DEVICE_IFACE, FINAL_STATES, JOB_IFACE, MANAGER_IFACE, MANAGER_PATH,
                     wait_until)

HERE = os.path.dirname(os.path.abspath(__file__))
INTERFACE_XML = os.environ.get('DISKBENCH_INTERFACE_XML') or os.path.join(
    HERE, '..', '..', 'dbus-interfaces', 'org.diskbench.DiskBench1.xml')
MiB = 1024 * 1024
RSS_GROWTH_BOUND = 32 * MiB
SANITIZED_RSS_GROWTH_BOUND = 512 * MiB
SCRATCH_PREFIX = '.diskbench-scratch-'
# glibc's malloc, left to itself, keeps what large transient allocations
# (the 1 MiB strings, echoed in replies) and per-thread arenas (each job's
# threads) freed: measured here, a default daemon's RSS swung between 12 and
# 38 MiB during a 400000-call run and ended 14 MiB up, while with these
# settings it stayed at 9 to 20 MiB and ended 1.3 MiB up. So the daemon
# runs with them here, and its RSS follows its live memory: what the bound
# is about. (They change nothing under ASan or valgrind, whose allocators
# replace glibc's.)
MALLOC_SETTINGS = {'MALLOC_ARENA_MAX': '1', 'MALLOC_MMAP_THRESHOLD_': '65536',
                   'MALLOC_TRIM_THRESHOLD_': '131072'}
DEFAULT_CALLS = 10000


def interface_spec(path):
    """{interface: {"methods": {name: [in, out]}, "properties": {name: type}}} from the XML."""
    spec = {}
    for iface in ET.parse(path).getroot().iter('interface'):
        methods = {}
        for method in iface.iter('method'):
            ins = ''.join(a.get('type') for a in method.iter('arg') if a.get('direction', 'in') == 'in')
            outs = ''.join(a.get('type') for a in method.iter('arg') if a.get('direction') == 'out')
            methods[method.get('name')] = [ins, outs]
        props = {p.get('name'): p.get('type') for p in iface.iter('property')}
        spec[iface.get('name')] = {'methods': methods, 'properties': props}
    return spec


def file_digest(path):
    digest = hashlib.sha256()
    with open(path, 'rb') as f:
        while chunk := f.read(4 * MiB):
            digest.update(chunk)
    return digest.hexdigest()


def tree_digest(top, skip=()):
    """Every name, type, owner, mode and file content below `top`, hashed,
    except the entries named in `skip` directly under it."""
    digest = hashlib.sha256()
    # By descriptors: one folder here is deeper than PATH_MAX.
    for root, dirs, files, rootfd in os.fwalk(os.fsencode(top)):
        if root == os.fsencode(top):
            dirs[:] = [d for d in dirs if os.fsdecode(d) not in skip]
            files = [f for f in files if os.fsdecode(f) not in skip]
        dirs.sort()
        for name in sorted(dirs + files):
            st = os.lstat(name, dir_fd=rootfd)
            digest.update(repr(os.path.relpath(os.path.join(root, name), os.fsencode(top))).encode()
                          + f' {st.st_mode} {st.st_uid} {st.st_gid}\n'.encode())
            if stat.S_ISREG(st.st_mode):
                fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW, dir_fd=rootfd)
                with os.fdopen(fd, 'rb') as f:
                    digest.update(f.read())
    return digest.hexdigest()


def scratch_folders(top):
    return [os.path.join(root, d) for root, dirs, _, _ in os.fwalk(os.fsencode(top)) for d in dirs
            if d.startswith(os.fsencode(SCRATCH_PREFIX))]


def proc_status(pid):
    """(open descriptors, VmRSS in bytes) of a process."""
    fds = len(os.listdir(f'/proc/{pid}/fd'))
    with open(f'/proc/{pid}/status') as f:
        rss = next(int(line.split()[1]) * 1024 for line in f if line.startswith('VmRSS:'))
    return fds, rss


def sanitized(pid):
    """Whether the daemon runs under ASan/TSan or valgrind (its RSS means less)."""
    with open(f'/proc/{pid}/maps') as f:
        maps = f.read()
    return any(lib in maps for lib in ('libasan', 'libtsan', 'vgpreload_memcheck'))


class FuzzTest(harness.IntegrationTestCase):
    # Never idle-exits (a restart would hide a crash), keeps ended jobs all
    # run long (the fixtures), quiet (calls with huge strings would
    # fill the log).
    stack_options = {'idle_timeout': 0, 'job_retention': 86400, 'verbose': False,
                     'daemon_env': MALLOC_SETTINGS}

    @classmethod
    def prepare(cls):
        stack = cls.stack
        cls.raw = [stack.attach_loop(size=32 * MiB), stack.attach_loop(size=32 * MiB)]
        cls.fs_loop = stack.attach_loop(size=128 * MiB)
        cls.mount = stack.mount_new_filesystem(cls.fs_loop)
        top = cls.top = cls.mount[0]
        users = {name: pwd.getpwnam(name) for name in ('dbtest-in', 'dbtest-out')}

        def folder(path, owner=None, mode=0o755, precious=True):
            os.makedirs(path, exist_ok=True)
            if precious:
                with open(os.path.join(path, 'precious'), 'wb') as f:
                    f.write(os.urandom(64 * 1024))
            for root, dirs, files in os.walk(path):
                for name in [root] + [os.path.join(root, n) for n in dirs + files]:
                    if owner:
                        os.chown(name, users[owner].pw_uid, users[owner].pw_gid)
            os.chmod(path, mode)
            return path

        # The callers' own folders (benchmarks may write there, in their
        # scratch folder), a folder of root's they may read but not write,
        # one they may not enter, and odd names, all on our filesystem.
        homes = {u: folder(os.path.join(top, f'home-{u}'), u, 0o700) for u in users}
        shared = folder(os.path.join(top, 'root-shared'))
        locked = folder(os.path.join(top, 'root-locked'), mode=0o700)
        odd = os.path.join(homes['dbtest-in'], 'odd')
        folder(odd, 'dbtest-in')
        # Names the daemon reads back from /proc and may put into replies,
        # polkit details and logs: invalid UTF-8 (the bus refuses it), and
        # valid UTF-8 with a noncharacter (sd-bus refuses it).
        bad_name = b'not-utf8-\xff\xfe\xc0\xaf-' + 'é'.encode('latin-1') + b'\n'
        nonchar_name = 'nonchar-\uffff-\ufdd0'.encode()
        for name in (bad_name, nonchar_name):
            os.mkdir(os.path.join(os.fsencode(odd), name))
            os.chown(os.path.join(os.fsencode(odd), name), users['dbtest-in'].pw_uid,
                     users['dbtest-in'].pw_gid)
        # Deeper than PATH_MAX (4096): made and opened part by part.
        deep_parts = [('d' * 200).encode()] * 22
        fd = os.open(odd, os.O_RDONLY | os.O_DIRECTORY)
        for part in deep_parts:
            os.mkdir(part, dir_fd=fd)
            os.chown(part, users['dbtest-in'].pw_uid, users['dbtest-in'].pw_gid, dir_fd=fd)
            nxt = os.open(part, os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
            os.close(fd)
            fd = nxt
        os.close(fd)
        os.symlink(shared, os.path.join(odd, 'link-to-shared'))
        os.symlink('/etc', os.path.join(odd, 'link-to-etc'))
        # Each caller's own corner for what it makes itself (a folder it
        # deletes while holding it open); left out of the digest.
        cls.own_dirs = {u: folder(os.path.join(top, f'client-{u}'), u, 0o755, precious=False)
                        for u in users}

        cls.fd_paths = {
            'own-folder': ['@home', 'dir'], 'own-folder-opath': ['@home', 'path'],
            'own-file': ['@home/precious', 'read'],
            'root-folder-readonly': [shared, 'dir'], 'root-file': [shared + '/precious', 'read'],
            'root-folder-locked-opath': [locked, 'path'],
            'symlink-opath-nofollow': [odd + '/link-to-shared', 'path-nofollow'],
            'symlink-to-etc': [odd + '/link-to-etc', 'dir'],
            'filesystem-root': [top, 'dir'],
            'slash': ['/', 'dir'], 'etc': ['/etc', 'dir'], 'etc-passwd': ['/etc/passwd', 'read'],
            'proc': ['/proc', 'dir'], 'proc-self': ['/proc/self', 'dir'],
            'proc-self-status': ['/proc/self/status', 'read'],
            'sys': ['/sys', 'dir'], 'sys-block': ['/sys/block', 'dir'],
            'dev': ['/dev', 'dir'], 'dev-null': ['/dev/null', 'read'],
            'dev-null-write': ['/dev/null', 'write'],
            'block-device-opath': [cls.raw[0].node, 'path'],
            'loop-control-opath': ['/dev/loop-control', 'path'],
        }
        cls.fd_chains = {
            'not-utf8-folder': [p.hex() for p in os.fsencode(odd).split(b'/') if p] + [bad_name.hex()],
            'nonchar-folder': [p.hex() for p in os.fsencode(odd).split(b'/') if p] + [nonchar_name.hex()],
            'deeper-than-path-max': [p.hex() for p in os.fsencode(odd).split(b'/') if p]
            + [p.hex() for p in deep_parts],
        }

        # Jobs that exist all run long: a finished device job and a folder
        # job (whose target and samples are root's only), both root's.
        cls.fixture_jobs = []
        job = stack.start_benchmark(cls.raw[0], 'seek', {'count': ('t', 200), 'detach': ('b', True)},
                                    user='root')
        cls.fixture_jobs.append(job)
        # Not under valgrind 3.19 (tests/memcheck): it does not know openat2,
        # which folder jobs need, so the daemon refuses them there.
        if not daemon_checks.valgrind_wanted():
            with stack.client('root', start_fs=(shared, 'structure',
                                                {'directories': ('t', 5), 'files': ('t', 5)})) as c:
                if c.error:
                    raise c.error
                cls.fixture_jobs.append(c.job)
                c.wait_completed(60)
        for job in cls.fixture_jobs:
            wait_until(lambda j=job: stack.get_property(j, JOB_IFACE, 'State') in FINAL_STATES, 60,
                       what=f'{job} to end')

        cls.homes = homes
        cls.odd_folders = {'not-utf8': os.fsdecode(os.path.join(os.fsencode(odd), bad_name)),
                           'nonchar': os.fsdecode(os.path.join(os.fsencode(odd), nonchar_name))}
        cls.pid = stack.daemon_pid()

    # ---- helpers ----------------------------------------------------------

    def client_config(self, user, seed, stream, calls):
        home = self.homes[user]
        fd_paths = {label: [path.replace('@home', home), how] for label, (path, how) in self.fd_paths.items()}
        return {
            'seed': seed, 'stream': stream, 'calls': calls,
            'spec': interface_spec(INTERFACE_XML),
            'devices': [loop.object_path for loop in self.raw + [self.fs_loop]],
            'jobs': self.fixture_jobs,
            'max_job_number': max(int(j.rsplit('/', 1)[1]) for j in self.fixture_jobs),
            'nodes': [loop.node for loop in self.raw + [self.fs_loop]],
            # "confirm" for mode=destroy is the node of a device without a
            # serial (loop devices): never sent, so no run may destroy data.
            'forbidden_strings': [loop.node for loop in self.raw + [self.fs_loop]],
            'strings': [home, self.top, self.raw[0].object_path],
            'fd_paths': fd_paths, 'fd_chains': self.fd_chains,
            'own_dir': self.own_dirs[user],
        }

    def run_client(self, user, config, results):
        path = self.stack.path(f'fuzz-{user}.json')
        with open(path, 'w') as f:
            json.dump(config, f)
        os.chmod(path, 0o644)
        argv = self.stack.as_user(user, [PYTHON, self.stack.path('fuzz_client.py'), path])
        proc = subprocess.run(argv, capture_output=True, text=True,
                              env=dict(os.environ, **self.stack.bus_env()))
        results[user] = proc

    def fuzz(self, seed, stream, calls):
        """Runs both callers at once, `calls` between them; returns their summaries."""
        results = {}
        threads = [threading.Thread(target=self.run_client,
                                    args=(user, self.client_config(user, seed, f'{stream}-{n}', calls // 2),
                                          results))
                   for n, user in enumerate(('dbtest-out', 'dbtest-in'))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        # A crash first, as such (the callers then fail in all sorts of ways).
        self.assertEqual(self.stack.daemon_pid(), self.pid, 'diskbenchd restarted or died')
        summaries = {}
        for user, proc in sorted(results.items()):
            lines = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith('{')]
            found = [line['summary'] for line in lines if 'summary' in line]
            self.assertEqual(proc.returncode, 0, f'fuzz client as {user} failed:\n{proc.stderr[-5000:]}')
            self.assertTrue(found, f'no summary from {user}: {proc.stdout[-2000:]} {proc.stderr[-2000:]}')
            summaries[user] = found[0]
            for line in lines:
                if 'setup' in line:
                    print(f'{stream} {user}: {line["setup"]}')
        return summaries

    def jobs_all_ended(self):
        for job in self.stack.get_property(MANAGER_PATH, MANAGER_IFACE, 'Jobs'):
            state = self.stack.get_property(job, JOB_IFACE, 'State')
            if state not in FINAL_STATES:
                return False
        return True

    # ---- the test -----------------------------------------------------------

    def test_fuzz(self):
        seed = int(os.environ.get('DISKBENCH_FUZZ_SEED') or random.SystemRandom().randrange(2**32))
        calls = int(os.environ.get('DISKBENCH_FUZZ_CALLS') or DEFAULT_CALLS)
        print(f'\nfuzz seed {seed} (DISKBENCH_FUZZ_SEED={seed} repeats these calls), {calls} calls',
              flush=True)
        shutil.copy(os.path.join(HERE, 'fuzz_client.py'), self.stack.path('fuzz_client.py'))

        loops_before = {loop.node: file_digest(loop.backing) for loop in self.raw}
        tree_before = tree_digest(self.top, skip=('client-dbtest-in', 'client-dbtest-out', 'lost+found'))
        activations = len(self.stack.activated_pids())
        self.assertEqual(self.stack.daemon_pid(), self.pid)

        # A first round of every kind of call (its answers are checked as
        # well), so that what the daemon keeps for the rest of its life
        # (the polkit connection, caches, retained jobs) is in the baseline.
        warm_up = self.fuzz(seed, 'warm-up', 400)
        wait_until(self.jobs_all_ended, 60, interval=0.5, what='every job to end')
        fds_before, rss_before = proc_status(self.pid)

        started = time.monotonic()
        summaries = self.fuzz(seed, 'run', calls)
        seconds = time.monotonic() - started
        # Every job the callers started has ended (they cancel theirs when done).
        wait_until(self.jobs_all_ended, 60, interval=0.5, what='every job to end')

        # Same daemon, never re-activated.
        self.assertEqual(self.stack.daemon_pid(), self.pid, 'diskbenchd restarted or died')
        self.assertEqual(len(self.stack.activated_pids()), activations, 'diskbenchd was started again')

        report = {'seed': seed, 'calls': calls, 'seconds': round(seconds, 1)}
        for user, s in summaries.items():
            report[user] = {k: s[k] for k in ('calls', 'seconds', 'replies', 'errors', 'slow',
                                              'jobs_started')}
            report[user]['failed_messages'] = s['failed_messages']
        print(json.dumps(report, indent=1, sort_keys=True))

        unexpected = [f'{user}: {u}' for part in (warm_up, summaries) for user, s in part.items()
                      for u in s['unexpected']]
        if unexpected:
            self.fail(f'seed {seed}: {len(unexpected)} unexpected answers:\n' + '\n'.join(unexpected))

        # Coverage: every method and property of every interface in the
        # XML, the standard interfaces, every option key with a wrong type,
        # every kind of descriptor.
        spec = interface_spec(INTERFACE_XML)
        covered = {}
        for s in summaries.values():
            for what, n in s['coverage'].items():
                covered[what] = covered.get(what, 0) + n
        wanted = [f'{iface}.{m}' for iface, d in spec.items() for m in d['methods']]
        wanted += [f'{iface}.{p}' for iface, d in spec.items() for p in d['properties']]
        wanted += [f'{iface}:GetAll' for iface in spec]
        wanted += ['org.freedesktop.DBus.ObjectManager.GetManagedObjects',
                   'org.freedesktop.DBus.Introspectable.Introspect', 'org.freedesktop.DBus.Peer.Ping',
                   'org.freedesktop.DBus.Peer.GetMachineId']
        if calls >= DEFAULT_CALLS:
            self.assertEqual([w for w in wanted if not covered.get(w)], [], 'never called')
            wrong_typed = set().union(*(s['wrong_type_keys'] for s in summaries.values()))
            keys = {f'{kind}:{key}' for s in summaries.values()
                    for kind, params in s['benchmarks'].items() for key in params}
            self.assertEqual(sorted(keys - wrong_typed), [], 'option keys never sent with a wrong type')
            # The granted caller gets as far as preparing the folder: it
            # must have opened and passed every kind (the refused one
            # cannot open the other's folders).
            granted = summaries['dbtest-in']
            self.assertEqual(sorted((set(self.fd_paths) | set(self.fd_chains)) - set(granted['fd_opened'])),
                             [], 'descriptors dbtest-in could not open')
            self.assertEqual(sorted(set(granted['fd_opened']) - set(granted['fd_labels'])), [],
                             'descriptors never passed')

        # Bounded: descriptors back to where they were (background
        # disposal of scratch folders may take a moment), memory within
        # the bound.
        wait_until(lambda: proc_status(self.pid)[0] <= fds_before, 30, interval=0.5,
                   what=f'diskbenchd to hold at most {fds_before} descriptors again '
                        f'(holds {proc_status(self.pid)[0]}: {sorted(os.listdir(f"/proc/{self.pid}/fd"))})')
        fds_after, rss_after = proc_status(self.pid)
        bound = SANITIZED_RSS_GROWTH_BOUND if sanitized(self.pid) else RSS_GROWTH_BOUND
        print(f'diskbenchd PID {self.pid}: fds {fds_before} -> {fds_after}, '
              f'VmRSS {rss_before // 1024} -> {rss_after // 1024} KiB (bound +{bound // MiB} MiB)')
        self.assertLessEqual(rss_after - rss_before, bound, 'diskbenchd memory grew past the bound')

        # Nothing written where not told.
        for loop in self.raw:
            self.assertEqual(file_digest(loop.backing), loops_before[loop.node],
                             f'the data on {loop.node} changed')
        self.assertEqual(scratch_folders(self.top), [], 'scratch folders left behind')
        self.assertEqual(tree_digest(self.top, skip=('client-dbtest-in', 'client-dbtest-out', 'lost+found')),
                         tree_before, f'files or folders on {self.top} changed')
        for user, own in self.own_dirs.items():
            self.assertEqual(os.listdir(own), [], f'{own} holds something')


    def test_folders_with_odd_names_run(self):
        # Found by the fuzz: a folder whose name is not UTF-8, or has a
        # noncharacter, got "Failed" (the polkit request with its name
        # could not be built). The name is escaped for display instead.
        expected = {'not-utf8': '/not-utf8-\\xff\\xfe\\xc0\\xaf-\\xe9\\x0a',
                    'nonchar': '/nonchar-\\xef\\xbf\\xbf-\\xef\\xb7\\x90'}
        for label, path in self.odd_folders.items():
            with self.subTest(label), self.stack.client(
                    'dbtest-in', start_fs=(path, 'structure', {'directories': ('t', 3), 'files': ('t', 3)})) as c:
                self.assertIsNone(c.error)
                self.assertEqual(c.wait_completed(60)['completed'], 'finished')
                target = self.stack.call(c.job, JOB_IFACE, 'GetTarget')[0]
                self.assertTrue(target.endswith(expected[label]), target)
                self.assertEqual(scratch_folders(path), [])


if __name__ == '__main__':
    harness.main()
