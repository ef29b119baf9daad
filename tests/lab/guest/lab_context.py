# SPDX-License-Identifier: GPL-3.0-or-later
"""What the lab's tests share: the one stack (started once; under TCG a
stack per test file would cost more than the tests), the hardware, the
findings table, and calls as the lab's non-root user."""

import json
import os
import shutil
import subprocess
import tempfile

from stack import (BUS_NAME, DEVICE_IFACE, DEVICES_PATH, JOB_IFACE, MANAGER_IFACE,  # noqa: F401
                   MANAGER_PATH, Stack)
from cleanup import run, wait_until  # noqa: F401
from dbus_values import unwrap  # noqa: F401

OUT = '/run/lab-out'
BUILD = None
HARDWARE = None
STACK = None
USER = 'dbtest-in'          # polkit lets benchtest do everything of ours
HOME = None
FINDINGS = {}               # drive -> {what: (diskbench said, the truth)}


def seconds(n):
    """N seconds, times the setup's multiplier (a sanitized build is slower)."""
    return n * float(os.environ.get('DISKBENCH_TEST_TIMEOUT_MULTIPLIER', '1'))


def start_stack():
    global STACK, HOME
    STACK = Stack(udisks='real', idle_timeout=900, job_retention=900)
    STACK.start()
    import pwd
    pw = pwd.getpwnam(USER)
    HOME = tempfile.mkdtemp(prefix='home-', dir=STACK.tmp)
    os.chown(HOME, pw.pw_uid, pw.pw_gid)


def stop_stack():
    """Ends the stack; what went wrong on the way (a sanitizer report of
    the daemon, something left behind), as a list."""
    return STACK.stop() if STACK else []


def ctl(*args, timeout=600, user=USER):
    """diskbenchctl ARGS as the lab's user, never asking for a password."""
    env = {'DBUS_SYSTEM_BUS_ADDRESS': STACK.address, 'HOME': HOME,
           'XDG_DATA_HOME': os.path.join(HOME, 'data'), 'LC_ALL': 'C.UTF-8'}
    argv = (['runuser', '-u', user, '--', 'env'] + [f'{k}={v}' for k, v in env.items()]
            + [os.environ['DISKBENCHCTL'], '--no-ask-password'] + list(args))
    return run(argv, check=False, timeout=timeout, stdin=subprocess.DEVNULL)


def ctl_json(*args, timeout=600):
    res = ctl('--json', *args, timeout=timeout)
    if res.returncode != 0:
        raise AssertionError(f'diskbenchctl --json {" ".join(args)} exited {res.returncode}: '
                             f'{res.stderr}{res.stdout[-2000:]}')
    return json.loads(res.stdout)


def devices():
    """Every Device object's properties, as the lab's user reads them."""
    objects = STACK.managed_objects(user=USER)
    return {path: ifaces[DEVICE_IFACE] for path, ifaces in objects.items() if DEVICE_IFACE in ifaces}


def device_of(node):
    node = os.path.realpath(node)
    for path, props in devices().items():
        if props['Node'] == node:
            return path, props
    raise AssertionError(f'diskbenchd offers no device for {node}')


def node(name):
    return HARDWARE.node(name)


def truth(name):
    return HARDWARE.truth[name]


def finding(drive, what, said, true):
    FINDINGS.setdefault(drive, {})[what] = (said, true)


def write_summary():
    lines = ['| drive | what | diskbench said | the truth |', '|---|---|---|---|']
    for drive in sorted(FINDINGS):
        for what, (said, true) in FINDINGS[drive].items():
            lines.append(f'| {drive} | {what} | {said} | {true} |')
    with open(os.path.join(OUT, 'summary.txt'), 'w') as f:
        f.write('\n'.join(lines) + '\n')


def save_logs():
    if not STACK or not STACK.tmp:
        return
    logs = os.path.join(OUT, 'logs')
    os.makedirs(logs, exist_ok=True)
    for name, path in STACK.logs.items():
        if os.path.exists(path):
            shutil.copy(path, os.path.join(logs, f'{name}.log'))
    udevd = os.path.join(OUT, 'udevd.log')
    res = subprocess.run(['dmesg'], stdout=subprocess.PIPE, text=True)
    with open(os.path.join(logs, 'dmesg.log'), 'w') as f:
        f.write(res.stdout)
    if os.path.exists(udevd):
        shutil.copy(udevd, os.path.join(logs, 'udevd.log'))
