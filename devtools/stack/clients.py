# SPDX-License-Identifier: GPL-3.0-or-later
"""Long-lived bus clients for the tests: bus_client.py as a test user (keeps
its connection, so it can own jobs) and `busctl monitor` as root."""

import contextlib
import json
import os
import signal
import subprocess
import threading
import time

from cleanup import PHASE_CLIENTS, kill_pid, proc_starttime
from dbus_values import DBusError

PYTHON = '/usr/bin/python3'  # Debian's, which has dbus, gi and dbusmock


class BusClient:
    """bus_client.py run as a test user: a connection that stays open.

    With start=(device_path, kind, options) it calls StartBenchmark and so owns
    the job; .job is the job path or .error the DBusError. With
    start_fs=(folder, kind, options) it opens the folder as the user and calls
    StartFilesystemBenchmark with its fd.
    """

    def __init__(self, stack, user, start=None, start_fs=None, watch_completed=False):
        self.stack = stack
        self.lines = []
        self.cond = threading.Condition()
        argv = [PYTHON, stack.path('bus_client.py')]
        if watch_completed:
            argv.append('--watch-completed')
        elif start:
            device, kind, options = start
            argv += ['--start', device, kind, json.dumps(options)]
        elif start_fs:
            folder, kind, options = start_fs
            argv += ['--start-fs', folder, kind, json.dumps(options)]
            start = start_fs
        self.stderr_path = stack.path(f'bus_client-{time.monotonic_ns()}.log')
        with open(self.stderr_path, 'wb') as err:
            self.popen = subprocess.Popen(stack.as_user(user, argv), stdin=subprocess.PIPE,
                                          stdout=subprocess.PIPE, stderr=err, text=True,
                                          env=dict(os.environ, **stack.bus_env()))
        stack.popens.append(self.popen)
        self.entry = stack.undo.add(PHASE_CLIENTS, kind='process', pid=self.popen.pid,
                                    starttime=proc_starttime(self.popen.pid), name='bus_client')
        stack.logs[f'bus_client[{self.popen.pid}]'] = self.stderr_path
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        hello = self.wait_for(lambda line: 'unique_name' in line, 20, 'the client to connect')
        self.pid = hello['pid']            # the python process (runuser's child)
        self.unique_name = hello['unique_name']
        self.child_entry = stack.undo.add(PHASE_CLIENTS, kind='process', pid=self.pid,
                                          starttime=proc_starttime(self.pid),
                                          name='bus_client.py')
        self.job = None
        self.error = None
        if watch_completed:
            self.wait_for(lambda line: 'watching' in line, 20, 'the watcher to subscribe')
        if start:
            reply = self.wait_for(lambda line: 'job' in line or 'error' in line, 120,
                                  'StartBenchmark to answer')
            if 'job' in reply:
                self.job = reply['job']
            else:
                self.error = DBusError(reply['error'], reply['message'])

    def _read(self):
        for raw in self.popen.stdout:
            try:
                obj = json.loads(raw)
            except ValueError:
                obj = {'raw': raw}
            with self.cond:
                self.lines.append(obj)
                self.cond.notify_all()
        with self.cond:
            self.lines.append({'eof': True})
            self.cond.notify_all()

    def wait_for(self, predicate, timeout, what):
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                for line in self.lines:
                    if predicate(line):
                        return line
                    if 'eof' in line:
                        raise RuntimeError(f'bus client ended while waiting for {what}; '
                                           f'stderr: {self.stderr()}')
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f'timed out after {timeout} s waiting for {what}')
                self.cond.wait(left)

    def stderr(self):
        with open(self.stderr_path, errors='replace') as f:
            return f.read()

    def wait_completed(self, timeout=60):
        return self.wait_for(lambda line: 'completed' in line, timeout, 'the job to complete')

    def overheard(self):
        """With watch_completed: the Completed signals received, of any job."""
        with self.cond:
            return [line for line in self.lines if 'overheard' in line]

    def samples_signals(self):
        with self.cond:
            return [line['samples'] for line in self.lines if 'samples' in line]

    def close(self):
        """Ends the client cleanly (closes its connection)."""
        if self.popen.poll() is None:
            with contextlib.suppress(OSError):
                self.popen.stdin.close()
            try:
                self.popen.wait(10)
            except subprocess.TimeoutExpired:
                kill_pid(self.pid)
                self.popen.wait(10)
        self._finish()

    def kill(self):
        """SIGKILLs the client: its bus connection vanishes without goodbye."""
        os.kill(self.pid, signal.SIGKILL)
        self.popen.wait(10)
        self._finish()

    def _finish(self):
        self.reader.join(5)
        with contextlib.suppress(OSError):
            self.popen.stdout.close()
        self.stack.undo.remove(self.entry)
        self.stack.undo.remove(self.child_entry)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class Monitor:
    """`busctl monitor` as root, collecting matching messages (JSON) as they come."""

    def __init__(self, stack, match):
        self.messages = []
        self.cond = threading.Condition()
        argv = ['busctl', '--system', 'monitor', '--json=short', f'--match={match}']
        self.popen = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE, text=True,
                                      env=dict(os.environ, **stack.bus_env()))
        stack.popens.append(self.popen)
        self.entry = stack.undo.add(PHASE_CLIENTS, kind='process', pid=self.popen.pid,
                                    starttime=proc_starttime(self.popen.pid), name='monitor')
        self.stack = stack
        # It says so on stderr once the bus has made it a monitor.
        line = self.popen.stderr.readline()
        if 'Monitoring' not in line:
            raise RuntimeError(f'busctl monitor did not start: {line}{self.popen.stderr.read()}')
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for raw in self.popen.stdout:
            with contextlib.suppress(ValueError):
                msg = json.loads(raw)
                with self.cond:
                    self.messages.append(msg)
                    self.cond.notify_all()

    def wait_for(self, predicate, timeout, what):
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                for msg in self.messages:
                    if predicate(msg):
                        return msg
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f'timed out after {timeout} s waiting for {what}')
                self.cond.wait(left)

    def matching(self, predicate):
        with self.cond:
            return [m for m in self.messages if predicate(m)]

    def stop(self):
        if self.popen.poll() is None:
            self.popen.terminate()
            try:
                self.popen.wait(5)
            except subprocess.TimeoutExpired:
                self.popen.kill()
                self.popen.wait(5)
        for pipe in (self.popen.stdout, self.popen.stderr):
            with contextlib.suppress(OSError):
                pipe.close()
        self.stack.undo.remove(self.entry)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()
