# SPDX-License-Identifier: GPL-3.0-or-later
"""Creating things safely and undoing them: processes by PID (checked by start
time), the undo log that survives a killed run, loop device listing, the lock
that serialises runs on one machine."""

import contextlib
import fcntl
import grp
import json
import os
import pwd
import shutil
import signal
import subprocess
import sys
import time

LOCK_PATH = '/run/lock/diskbench-integration-test.lock'
STATE_PATH = '/run/diskbench-integration-test.state.json'
TMP_PARENT = '/var/tmp'  # not tmpfs: loop devices use O_DIRECT on their backing files
TMP_PREFIX = 'diskbench-it-'

USER_TAG = 'diskbench integration test'


def log(msg):
    print(f'[harness {time.strftime("%H:%M:%S")}] {msg}', file=sys.stderr, flush=True)


def run(argv, check=True, timeout=60, **kw):
    """subprocess.run with text output captured and a timeout."""
    kw.setdefault('stdout', subprocess.PIPE)
    kw.setdefault('stderr', subprocess.PIPE)
    res = subprocess.run(argv, text=True, timeout=timeout, **kw)
    if check and res.returncode != 0:
        raise RuntimeError(f'{" ".join(argv)} failed ({res.returncode}): '
                           f'{res.stderr.strip()} {res.stdout.strip()}')
    return res


def wait_until(predicate, timeout, interval=0.1, what='condition'):
    """Polls predicate() until it returns a true value; returns that value."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise TimeoutError(f'timed out after {timeout} s waiting for {what}')
        time.sleep(interval)


def proc_starttime(pid):
    """Start time of a process (clock ticks since boot), None when gone."""
    try:
        with open(f'/proc/{pid}/stat') as f:
            stat = f.read()
    except OSError:
        return None
    # The command name may contain spaces and parentheses: split after the last ')'.
    return int(stat[stat.rindex(')') + 2:].split()[19])


def proc_cmdline(pid):
    try:
        with open(f'/proc/{pid}/cmdline', 'rb') as f:
            return f.read().replace(b'\0', b' ').decode(errors='replace')
    except OSError:
        return ''


def pid_alive(pid):
    return proc_starttime(pid) is not None and not _is_zombie(pid)


def _is_zombie(pid):
    try:
        with open(f'/proc/{pid}/stat') as f:
            stat = f.read()
        return stat[stat.rindex(')') + 2] == 'Z'
    except OSError:
        return True


def kill_pid(pid, starttime=None, timeout=5.0):
    """Ends one process we started (by PID, checking it is still the same one)."""
    if starttime is not None and proc_starttime(pid) != starttime:
        return
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + timeout
    while pid_alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    if pid_alive(pid) and (starttime is None or proc_starttime(pid) == starttime):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    # Give its parent (dbus-daemon, for the activated daemon) a moment to reap
    # it before that parent is stopped too; our own children are reaped by
    # Stack.stop().
    if _ppid(pid) != os.getpid():
        deadline = time.monotonic() + 2.0
        while proc_starttime(pid) is not None and time.monotonic() < deadline:
            time.sleep(0.02)


def _ppid(pid):
    try:
        with open(f'/proc/{pid}/stat') as f:
            stat = f.read()
        return int(stat[stat.rindex(')') + 2:].split()[1])
    except (OSError, ValueError, IndexError):
        return None



# --------------------------------------------------------------------------
# Undo log: every created thing is recorded (and persisted) as it is created.

# Undo order: lower phase first; within a phase, newest first.
PHASE_CLIENTS, PHASE_LOOPS, PHASE_SERVICES, PHASE_FILES, PHASE_DIR = range(5)


class UndoLog:
    def __init__(self, path=STATE_PATH):
        self.path = path
        self.entries = []

    def add(self, phase, **entry):
        entry['phase'] = phase
        self.entries.append(entry)
        self._save()
        return entry

    def remove(self, entry):
        if entry in self.entries:
            self.entries.remove(entry)
            self._save()

    def _save(self):
        tmp = self.path + '.tmp'
        with open(tmp, 'w') as f:
            json.dump(self.entries, f, indent=1)
        os.replace(tmp, self.path)

    def undo_all(self):
        """Undoes every entry; returns the list of problems (never raises)."""
        problems = []
        order = sorted(enumerate(self.entries), key=lambda ie: (ie[1]['phase'], -ie[0]))
        for _, entry in order:
            try:
                undo_entry(entry)
            except Exception as e:  # keep going: undo as much as possible
                problems.append(f'{entry}: {e}')
        self.entries = []
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.path)
        return problems

    @classmethod
    def recover_stale(cls):
        """Undoes what a killed earlier run left behind (we hold the lock)."""
        problems = []
        if os.path.exists(STATE_PATH):
            stale = cls()
            try:
                with open(STATE_PATH) as f:
                    stale.entries = json.load(f)
            except (OSError, ValueError) as e:
                problems.append(f'unreadable {STATE_PATH}: {e}')
            if stale.entries:
                log(f'cleaning up {len(stale.entries)} leftovers of an interrupted run')
            problems += stale.undo_all()
        # Belt and braces: processes and loop devices of earlier runs' temp dirs.
        for pid in _pids_mentioning(os.path.join(TMP_PARENT, TMP_PREFIX)):
            log(f'killing leftover process {pid}: {proc_cmdline(pid)}')
            kill_pid(pid, proc_starttime(pid))
        for dev, backing in loop_devices().items():
            if backing.startswith(os.path.join(TMP_PARENT, TMP_PREFIX)):
                log(f'detaching leftover {dev} ({backing})')
                run(['losetup', '-d', dev], check=False)
        for path in _glob_dirs(TMP_PARENT, TMP_PREFIX):
            shutil.rmtree(path, ignore_errors=True)
        return problems


# What the harness runs with a temp dir path on its command line.
_OUR_COMMANDS = {'dbus-daemon', 'python3', 'busctl', 'runuser', 'gdbus', 'sh', 'env'}


def _pids_mentioning(text):
    me = os.getpid()
    pids = []
    for name in os.listdir('/proc'):
        if not name.isdigit() or int(name) == me:
            continue
        cmdline = proc_cmdline(int(name))
        argv0 = os.path.basename(cmdline.split(' ', 1)[0])
        if text in cmdline and (argv0 in _OUR_COMMANDS or argv0.startswith('python3')):
            pids.append(int(name))
    return pids


def _glob_dirs(parent, prefix):
    return [os.path.join(parent, n) for n in os.listdir(parent)
            if n.startswith(prefix) and os.path.isdir(os.path.join(parent, n))]


def loop_devices():
    """{'/dev/loopN': backing file} for every attached loop device."""
    res = run(['losetup', '--list', '--noheadings', '--raw', '--output', 'NAME,BACK-FILE'],
              check=False)
    out = {}
    for line in res.stdout.splitlines():
        name, _, back = line.partition(' ')
        # losetup escapes blanks in raw output; ours contain none.
        out[name] = back.removesuffix(' (deleted)')
    return out


def is_mounted(path):
    with open('/proc/self/mounts') as f:
        return any(line.split()[1] == path for line in f)


def undo_entry(e):
    kind = e['kind']
    if kind == 'process':
        kill_pid(e['pid'], e.get('starttime'), timeout=e.get('grace', 5.0))
    elif kind == 'pidfile':
        # Processes that record their own PID (the bus-activated daemon).
        with contextlib.suppress(FileNotFoundError):
            with open(e['path']) as f:
                for line in f:
                    pid = int(line.split()[0])
                    start = int(line.split()[1]) if len(line.split()) > 1 else None
                    if pid_alive(pid) and e['match'] in proc_cmdline(pid):
                        kill_pid(pid, start, timeout=e.get('grace', 5.0))
    elif kind == 'mount':
        if is_mounted(e['path']):
            if run(['umount', e['path']], check=False).returncode != 0:
                run(['umount', '--lazy', e['path']], check=False)
    elif kind == 'loop':
        if loop_devices().get(e['dev']) == e['backing']:
            run(['losetup', '-d', e['dev']], check=False)
            # The detach happens when the last holder lets go: after a lazy
            # unmount, when the kernel has finished with the filesystem,
            # which a sanitized build's slower daemon can make take longer
            # than 10 s (seen once in CI's file-profile test).
            slower = float(os.environ.get('DISKBENCH_TEST_TIMEOUT_MULTIPLIER', '1'))
            wait_until(lambda: loop_devices().get(e['dev']) != e['backing'], 10 * slower,
                       what=f'{e["dev"]} to detach')
    elif kind == 'partition':
        # Added by hand (addpart) to our loop device; a detach would leave it.
        if loop_devices().get(e['dev']) == e['backing']:
            run(['delpart', e['dev'], str(e['number'])], check=False)
    elif kind == 'file':
        with contextlib.suppress(FileNotFoundError):
            os.unlink(e['path'])
        if e.get('backup') and os.path.exists(e['backup']):
            os.replace(e['backup'], e['path'])
    elif kind == 'user':
        try:
            gecos = pwd.getpwnam(e['name']).pw_gecos
        except KeyError:
            return
        if gecos.startswith(USER_TAG):
            run(['userdel', e['name']])
    elif kind == 'group':
        with contextlib.suppress(KeyError):
            grp.getgrnam(e['name'])
            run(['groupdel', e['name']])
    elif kind == 'dir':
        if os.path.basename(e['path']).startswith(TMP_PREFIX):
            shutil.rmtree(e['path'], ignore_errors=True)
    else:
        raise ValueError(f'unknown undo entry {kind}')



class Lock:
    """Serialises integration runs on this machine."""

    def __init__(self, timeout):
        self.timeout = timeout
        self.fd = None

    def acquire(self):
        self.fd = os.open(LOCK_PATH, os.O_RDWR | os.O_CREAT, 0o644)
        deadline = time.monotonic() + self.timeout
        announced = False
        while True:
            try:
                fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return
            except BlockingIOError:
                if not announced:
                    log(f'waiting for another integration run ({LOCK_PATH})')
                    announced = True
                if time.monotonic() > deadline:
                    raise TimeoutError(f'another integration run holds {LOCK_PATH}')
                time.sleep(0.5)

    def release(self):
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


