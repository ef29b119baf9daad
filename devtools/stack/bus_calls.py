# SPDX-License-Identifier: GPL-3.0-or-later
"""Calls on the stack's private system bus, as root or as a test user: busctl
where the reply is parsed, gdbus where the error name matters (busctl prints
only an error's message). A part of the Stack (stack.py), which provides
`address` and `bus_env()`."""

import json
import os
import re

from bus_names import BUS_NAME, MANAGER_PATH, OBJECT_MANAGER_IFACE, PROPERTIES_IFACE
from cleanup import run
from dbus_values import DBusError, busctl_args, gvariant_text, split_signature, unwrap


class BusCalls:
    def as_user(self, user, argv):
        if user is None or user == 'root':
            return argv
        return ['runuser', '-u', user, '--', 'env',
                f'DBUS_SYSTEM_BUS_ADDRESS={self.address}'] + argv

    def busctl(self, *args, user=None, check=False, timeout=60):
        argv = self.as_user(user, ['busctl', '--system'] + list(args))
        return run(argv, check=check, timeout=timeout, env=dict(os.environ, **self.bus_env()))

    def call(self, path, iface, member, sig='', *values, user=None, dest=BUS_NAME, timeout=60):
        """Calls a method with busctl; returns the reply's values (a list)."""
        args = ['--json=short', f'--timeout={timeout}', 'call', dest, path, iface, member]
        if sig:
            args += [sig] + busctl_args(sig, values)
        res = self.busctl(*args, user=user, timeout=timeout + 10)
        if res.returncode != 0:
            # busctl does not print the error name; gdbus does: use call_error()
            # where the name matters.
            raise DBusError(None, res.stderr.strip())
        if not res.stdout.strip():
            return []
        return unwrap(json.loads(res.stdout)['data'])

    def call_error(self, path, iface, member, sig='', *values, user=None, dest=BUS_NAME,
                   timeout=60):
        """Calls a method that must fail (with gdbus); returns the DBusError."""
        argv = ['gdbus', 'call', '--system', '--dest', dest, '--object-path', path,
                '--method', f'{iface}.{member}', '--timeout', str(timeout)]
        argv += [gvariant_text(t, v) for t, v in zip(split_signature(sig), values)]
        res = run(self.as_user(user, argv), check=False, timeout=timeout + 10,
                  env=dict(os.environ, **self.bus_env()))
        if res.returncode == 0:
            raise AssertionError(f'{member} succeeded but should have failed: {res.stdout.strip()}')
        m = re.search(r'GDBus\.Error:([A-Za-z0-9_.]+): (.*)', res.stderr, re.S)
        if not m:
            return DBusError(None, res.stderr.strip())
        return DBusError(m.group(1), m.group(2).strip())

    def get_property(self, path, iface, prop, user=None, dest=BUS_NAME):
        res = self.busctl('--json=short', 'get-property', dest, path, iface, prop, user=user)
        if res.returncode != 0:
            raise DBusError(None, res.stderr.strip())
        return unwrap(json.loads(res.stdout)['data'])

    def get_all(self, path, iface, user=None, dest=BUS_NAME):
        return self.call(path, PROPERTIES_IFACE, 'GetAll', 's', iface, user=user, dest=dest)[0]

    def managed_objects(self, user=None):
        return self.call(MANAGER_PATH, OBJECT_MANAGER_IFACE, 'GetManagedObjects', user=user)[0]

    def name_has_owner(self, name):
        res = self.busctl('--json=short', 'call', 'org.freedesktop.DBus', '/org/freedesktop/DBus',
                          'org.freedesktop.DBus', 'NameHasOwner', 's', name)
        return res.returncode == 0 and json.loads(res.stdout)['data'][0]
