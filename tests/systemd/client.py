#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The caller inside the container of test_real_systemd.py: a one-shot
client of diskbenchd on the container's system bus, run as a test user by
`systemd-run --uid=...` (so it is a process of the container, with the
user's own credentials and groups, like the app would be).

Usage:
  client.py list
      GetManagedObjects (this activates the daemon) and ListBenchmarks;
      prints {"devices": {NODE: {properties}}, "kinds": {KIND: TARGET}}.
  client.py start NODE KIND OPTIONS_JSON
      FindDevice(NODE), StartBenchmark, waits for the job's Completed signal.
  client.py start-fs FOLDER KIND OPTIONS_JSON
      Opens FOLDER itself (as this user, like the app does) and passes the
      descriptor to StartFilesystemBenchmark; waits for Completed.

OPTIONS_JSON maps each key to [signature, value], e.g. {"count": ["t", 200]}.
A start prints one JSON object: {"job", "state", "summary", "error",
"owner"} when the job completed, {"error": NAME, "message": TEXT} when the
call was refused. Exit status 0 whenever it printed an answer; the test
decides what the answer must be.

Uses dbus-python and GLib (python3-dbus, python3-gi), from the host's /usr.
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
DEVICE_IFACE = 'org.diskbench.DiskBench1.Device'
JOB_IFACE = 'org.diskbench.DiskBench1.Job'
OBJECT_MANAGER_IFACE = 'org.freedesktop.DBus.ObjectManager'
PROPERTIES_IFACE = 'org.freedesktop.DBus.Properties'

VARIANT_TYPES = {
    'b': dbus.Boolean, 'y': dbus.Byte, 'n': dbus.Int16, 'q': dbus.UInt16,
    'i': dbus.Int32, 'u': dbus.UInt32, 'x': dbus.Int64, 't': dbus.UInt64,
    'd': dbus.Double, 's': dbus.String, 'o': dbus.ObjectPath,
}

# How long a job may take before the client gives up (the test's jobs take
# a few seconds).
JOB_TIMEOUT_S = 120


def plain(value):
    """dbus-python values as JSON ones (Boolean is an int subclass, which
    json would print as 0/1)."""
    if isinstance(value, dbus.Boolean):
        return bool(value)
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, (dbus.String, dbus.ObjectPath, dbus.Signature)):
        return str(value)
    if isinstance(value, float):
        return float(value)
    if isinstance(value, int):
        return int(value)
    return value


def emit(obj):
    sys.stdout.write(json.dumps(plain(obj)) + '\n')
    sys.stdout.flush()


def to_options(spec):
    return dbus.Dictionary({key: VARIANT_TYPES[sig](value, variant_level=1)
                            for key, (sig, value) in spec.items()},
                           signature='sv')


def list_devices(bus):
    root = bus.get_object(BUS_NAME, MANAGER_PATH)
    objects = dbus.Interface(root, OBJECT_MANAGER_IFACE).GetManagedObjects()
    devices = {}
    for path, interfaces in objects.items():
        if DEVICE_IFACE in interfaces:
            props = interfaces[DEVICE_IFACE]
            devices[str(props['Node'])] = dict(props, path=str(path))
    kinds = dbus.Interface(root, MANAGER_IFACE).ListBenchmarks()
    emit({'devices': devices, 'kinds': {str(k[0]): str(k[1]) for k in kinds}})


def start(bus, mode, target, kind, options):
    loop = GLib.MainLoop()
    job_path = []
    answer = {}

    # Subscribed before starting, so a quick job's Completed is not missed;
    # the job's path is not known yet, so the handler filters on it.
    def on_completed(state, summary, error, path=None):
        if job_path and path == job_path[0]:
            answer.update(state=str(state), error=str(error))
            loop.quit()
    bus.add_signal_receiver(on_completed, 'Completed', JOB_IFACE, BUS_NAME,
                            path_keyword='path')

    manager = dbus.Interface(bus.get_object(BUS_NAME, MANAGER_PATH), MANAGER_IFACE)
    try:
        if mode == 'start-fs':
            folder = os.open(target, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
            job = manager.StartFilesystemBenchmark(dbus.types.UnixFd(folder), kind,
                                                   to_options(options), timeout=120)
            os.close(folder)  # the daemon has its own copy
        else:
            device = manager.FindDevice(target)
            job = manager.StartBenchmark(device, kind, to_options(options), timeout=120)
    except dbus.exceptions.DBusException as e:
        emit({'error': e.get_dbus_name(), 'message': e.get_dbus_message()})
        return
    job_path.append(str(job))

    # The job may have ended before the subscription saw its signal only if
    # it ended before the reply; the State property covers that case.
    job_props = dbus.Interface(bus.get_object(BUS_NAME, job), PROPERTIES_IFACE)
    if str(job_props.Get(JOB_IFACE, 'State')) in ('finished', 'failed', 'cancelled'):
        loop.quit()

    def on_timeout():
        answer.update(error='client: no Completed signal within '
                            f'{JOB_TIMEOUT_S} s')
        loop.quit()
        return False
    GLib.timeout_add_seconds(JOB_TIMEOUT_S, on_timeout)
    loop.run()

    props = job_props.GetAll(JOB_IFACE)
    emit({'job': str(job), 'state': str(props['State']), 'summary': props['Summary'],
          'error': answer.get('error', str(props['Error'])), 'owner': props['Owner'],
          'kind': props['Kind'], 'parameters': props['Parameters'],
          'backend': props['Backend'], 'warnings': props['Warnings'],
          'notes': props['Notes']})


def main():
    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    bus = dbus.SystemBus()
    if sys.argv[1:] == ['list']:
        list_devices(bus)
    elif len(sys.argv) == 5 and sys.argv[1] in ('start', 'start-fs'):
        start(bus, sys.argv[1], sys.argv[2], sys.argv[3], json.loads(sys.argv[4]))
    else:
        sys.exit(__doc__)


if __name__ == '__main__':
    main()
