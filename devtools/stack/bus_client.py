#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A bus client that keeps its connection open, for the integration tests.

`busctl call` disconnects as soon as the reply arrives, and diskbenchd cancels
a job when its owner's connection closes. Tests that need a job to outlive the
call that started it (completion, Cancel by the owner or by someone else) run
this client instead, as the test user, and end it when they are done: closing
its stdin ends it cleanly, killing the PID it reports makes its connection
vanish.

Uses dbus-python and GLib (python3-dbus, python3-gi: both are dependencies of
python3-dbusmock, which the tests need anyway).

Usage: bus_client.py [--start DEVICE KIND OPTIONS_JSON | --start-fs FOLDER KIND OPTIONS_JSON]
  OPTIONS_JSON maps each key to [signature, value], e.g. {"count": ["t", 200]}.
  --start-fs opens FOLDER itself (as the user it runs as, like the app does)
  and passes the fd to StartFilesystemBenchmark.

Prints one JSON object per line on stdout:
  {"pid": N, "unique_name": ":1.23"}                    once connected
  {"job": "/org/diskbench/DiskBench1/jobs/1"}           StartBenchmark's reply
  {"error": "org...Error.X", "message": "..."}          or its error
  {"completed": STATE, "summary": {...}, "error": ""}   the job's Completed signal
  {"samples": [FIRST_INDEX, N]}                         each Samples signal of the job
"""

import json
import os
import sys

import dbus
import dbus.mainloop.glib
from gi.repository import GLib

BUS_NAME = 'org.diskbench.DiskBench1'
MANAGER_PATH = '/org/diskbench/DiskBench1'
MANAGER_IFACE = 'org.diskbench.DiskBench1.Manager'
JOB_IFACE = 'org.diskbench.DiskBench1.Job'

VARIANT_TYPES = {
    'b': dbus.Boolean, 'y': dbus.Byte, 'n': dbus.Int16, 'q': dbus.UInt16,
    'i': dbus.Int32, 'u': dbus.UInt32, 'x': dbus.Int64, 't': dbus.UInt64,
    'd': dbus.Double, 's': dbus.String, 'o': dbus.ObjectPath,
}


def emit(obj):
    sys.stdout.write(json.dumps(obj, default=plain) + '\n')
    sys.stdout.flush()


def plain(value):
    """JSON fallback for dbus-python values that json does not know."""
    if isinstance(value, dbus.Boolean):
        return bool(value)
    raise TypeError(f'cannot encode {type(value).__name__}')


def to_options(spec):
    return dbus.Dictionary({key: VARIANT_TYPES[sig](value, variant_level=1)
                            for key, (sig, value) in spec.items()},
                           signature='sv')


def main():
    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    bus = dbus.bus.BusConnection(os.environ['DBUS_SYSTEM_BUS_ADDRESS'])
    emit({'pid': os.getpid(), 'unique_name': bus.get_unique_name()})
    loop = GLib.MainLoop()

    # Ends the client when the test closes our stdin.
    def on_stdin(_fd, _condition):
        loop.quit()
        return False
    GLib.io_add_watch(sys.stdin.fileno(), GLib.PRIORITY_DEFAULT,
                      GLib.IO_IN | GLib.IO_HUP | GLib.IO_ERR, on_stdin)

    if sys.argv[1:] == ['--watch-completed']:
        # Every Completed signal this connection receives, of any job: what
        # another user can overhear.
        def on_any_completed(state, _summary, error, path=None):
            emit({'overheard': str(path), 'state': str(state), 'error': str(error)})
        bus.add_signal_receiver(on_any_completed, 'Completed', JOB_IFACE, BUS_NAME, path_keyword='path')
        emit({'watching': True})

    if len(sys.argv) == 5 and sys.argv[1] in ('--start', '--start-fs'):
        target, kind, options = sys.argv[2], sys.argv[3], json.loads(sys.argv[4])

        # Subscribe before starting so no signal of the job is missed; the
        # job path is not known yet, so filter on it in the handlers.
        job_path = []

        def on_samples(first_index, samples, path=None):
            if job_path and path == job_path[0]:
                emit({'samples': [int(first_index), len(samples)]})

        def on_completed(state, summary, error, path=None):
            if job_path and path == job_path[0]:
                emit({'completed': str(state),
                      'summary': {str(k): v for k, v in summary.items()},
                      'error': str(error)})
        bus.add_signal_receiver(on_samples, 'Samples', JOB_IFACE, BUS_NAME,
                                path_keyword='path')
        bus.add_signal_receiver(on_completed, 'Completed', JOB_IFACE, BUS_NAME,
                                path_keyword='path')
        manager = dbus.Interface(bus.get_object(BUS_NAME, MANAGER_PATH), MANAGER_IFACE)
        try:
            if sys.argv[1] == '--start-fs':
                folder = os.open(target, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
                job = manager.StartFilesystemBenchmark(dbus.types.UnixFd(folder), kind,
                                                       to_options(options), timeout=120)
                os.close(folder)  # the daemon has its own copy
            else:
                job = manager.StartBenchmark(dbus.ObjectPath(target), kind,
                                             to_options(options), timeout=120)
        except dbus.exceptions.DBusException as e:
            emit({'error': e.get_dbus_name(), 'message': e.get_dbus_message()})
        else:
            job_path.append(str(job))
            emit({'job': str(job)})

    loop.run()


if __name__ == '__main__':
    main()
