#!/usr/bin/python3
"""Checks that dbus-daemon accepts the bus policy and the activation file.

Starts a private bus whose configuration <include>s the policy (a file in an
<includedir>, like /usr/share/dbus-1/system.d, would be skipped with only a
log line if it were broken) and whose <servicedir> holds the activation
file; fails if the daemon refuses to start or does not list
org.diskbench.DiskBench1 as activatable (a system bus also ignores an
activation file whose name is not NAME.service).

Usage: check_bus_policy.py DBUS_DAEMON BUSCTL POLICY_CONF ACTIVATION_FILE
"""
import os
import shutil
import subprocess
import sys
import tempfile
from xml.sax.saxutils import escape

BUS_NAME = "org.diskbench.DiskBench1"
CONFIG = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>system</type>
  <listen>unix:path={socket}</listen>
  <auth>EXTERNAL</auth>
  <servicedir>{servicedir}</servicedir>
  <policy context="default">
    <deny own="*"/>
    <deny send_type="method_call"/>
    <allow send_type="signal"/>
    <allow send_requested_reply="true" send_type="method_return"/>
    <allow send_requested_reply="true" send_type="error"/>
    <allow receive_type="method_call"/>
    <allow receive_type="method_return"/>
    <allow receive_type="error"/>
    <allow receive_type="signal"/>
    <allow send_destination="org.freedesktop.DBus"
           send_interface="org.freedesktop.DBus"/>
  </policy>
  <include>{policy}</include>
</busconfig>
"""


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    dbus_daemon, busctl = sys.argv[1], sys.argv[2]
    policy, activation = os.path.abspath(sys.argv[3]), os.path.abspath(sys.argv[4])
    with tempfile.TemporaryDirectory() as tmp:
        servicedir = os.path.join(tmp, "services")
        os.mkdir(servicedir)
        shutil.copy(activation, servicedir)
        socket = os.path.join(tmp, "bus")
        config = os.path.join(tmp, "bus.conf")
        with open(config, "w", encoding="utf-8") as f:
            f.write(CONFIG.format(socket=escape(socket), servicedir=escape(servicedir),
                                  policy=escape(policy)))
        daemon = subprocess.Popen([dbus_daemon, "--config-file=" + config, "--nofork", "--nopidfile",
                                   "--nosyslog", "--print-address=1"],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        names = ""
        try:
            # The address comes once the configuration is loaded and the socket listens;
            # on a configuration error the daemon exits and stdout ends empty.
            address = daemon.stdout.readline().strip()
            if address:
                proc = subprocess.run([busctl, "--address=unix:path=" + socket, "call",
                                       "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                       "org.freedesktop.DBus", "ListActivatableNames"],
                                      capture_output=True, text=True, timeout=30)
                names = proc.stdout.strip()
                print("activatable: " + (names or proc.stderr.strip()))
        finally:
            daemon.terminate()
            try:
                _, err = daemon.communicate(timeout=10)
            except subprocess.TimeoutExpired:
                daemon.kill()
                _, err = daemon.communicate()
        for line in err.splitlines():
            if "Failed to set fd limit" not in line:  # harmless, see shared notes
                print(line)
        if not address:
            print(f"FAIL: dbus-daemon refused the configuration with {os.path.basename(policy)}")
            return 1
        if f'"{BUS_NAME}"' not in names.split():
            print(f"FAIL: {os.path.basename(activation)} does not make {BUS_NAME} activatable")
            return 1
    print(f"OK: dbus-daemon loaded {os.path.basename(policy)} and {os.path.basename(activation)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
