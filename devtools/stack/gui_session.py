# SPDX-License-Identifier: GPL-3.0-or-later
"""The app's session on top of a Stack (stack.py): Xvfb, a session bus of
the app's user, processes run as that user and recorded in the Stack's undo
log, screenshots, GVariant text for the app's actions.

Used by the GUI tests (tests/gui/gui_stack.py) and the demo
(client-gtk/demo/run-demo.py). Standard library only, except
parse_gvariant(), which needs python3-gi.
"""

import contextlib
import os
import pwd
import re
import select
import shlex
import shutil
import subprocess
import time

from cleanup import (PHASE_CLIENTS, PHASE_SERVICES, kill_pid, log,  # noqa: F401
                     proc_starttime, wait_until)
from stack import PrerequisiteMissing

APP_ID = 'org.diskbench.DiskBench'
APP_OBJECT = '/org/diskbench/DiskBench'
ACTIONS_IFACE = 'org.gtk.Actions'
APP_ACTIONS = ('select-device', 'run-benchmark', 'save-result', 'open-result', 'export-graph',
               'set-reference', 'set-parameter', 'status')
STATUS_STATES = ('idle', 'running', 'finished', 'cancelled', 'failed')

# What GTK needs to run headless and deterministic: X11 (Xvfb), the software
# renderer, no accessibility bus (it would leave at-spi processes behind), and
# settings kept in memory (no dconf service on our session bus).
GUI_ENV = {
    'GDK_BACKEND': 'x11',
    'GSK_RENDERER': 'cairo',
    'GTK_A11Y': 'none',
    'NO_AT_BRIDGE': '1',
    'GSETTINGS_BACKEND': 'memory',
}
SAFE_PATH = '/usr/sbin:/usr/bin:/sbin:/bin'
DEFAULT_SCREEN = '1280x800x24'

# Debian packages beyond the integration tests' (tests/integration/README.md).
GUI_TOOLS = [('Xvfb', 'xvfb'), ('import', 'imagemagick'), ('xwininfo', 'x11-utils'),
             ('dbus-daemon', 'dbus-daemon'), ('gdbus', 'libglib2.0-bin'), ('xdotool', 'xdotool')]


def check_gui_prerequisites(tools=GUI_TOOLS):
    missing = [f'{tool} not found (Debian package {pkg})' for tool, pkg in tools
               if not shutil.which(tool)]
    if missing:
        raise PrerequisiteMissing('GUI test prerequisites missing:\n  ' + '\n  '.join(missing))


# ---- processes as a user, recorded in the Stack's undo log -------------------

class Process:
    """A process started by spawn(): its Popen, log file and undo entry."""

    def __init__(self, name, popen, logpath, entry):
        self.name, self.popen, self.logpath, self.entry = name, popen, logpath, entry

    @property
    def pid(self):
        return self.popen.pid

    def running(self):
        return self.popen.poll() is None


def user_kwargs(user):
    """Popen keyword arguments that run a child as USER (uid, gid, its groups only)."""
    if user is None or user == 'root':
        return {}
    pw = pwd.getpwnam(user)
    groups = [g for g in os.getgrouplist(user, pw.pw_gid) if g != pw.pw_gid]
    # extra_groups=[] still calls setgroups(): root's groups are never inherited.
    return {'user': pw.pw_uid, 'group': pw.pw_gid, 'extra_groups': groups}


def run_as(user, argv, env, timeout=60, check=False, cwd='/'):
    """Runs a short command as USER with exactly ENV; output captured as text."""
    res = subprocess.run(argv, env=env, cwd=cwd, stdin=subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         timeout=timeout, **user_kwargs(user))
    if check and res.returncode != 0:
        raise RuntimeError(f'{shlex.join(argv)} (as {user}) failed ({res.returncode}): '
                           f'{res.stderr.strip()} {res.stdout.strip()}')
    return res


def spawn(stack, name, argv, *, env, user=None, phase=PHASE_SERVICES, log_output=True,
          grace=5.0, cwd='/', pass_fds=()):
    """Starts ARGV as USER with exactly ENV, in a session of its own (so a
    Ctrl-C in the terminal reaches only us), and records it for teardown.

    Output goes to STACK.path(NAME.log) (listed in stack.logs, so it is
    printed when a test fails), or to our own stdout/stderr with
    log_output=False."""
    logpath = stack.path(f'{name}.log') if log_output else None
    out = open(logpath, 'ab') if logpath else None
    try:
        popen = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=out,
                                 stderr=subprocess.STDOUT if out else None, env=env, cwd=cwd,
                                 start_new_session=True, pass_fds=pass_fds,
                                 **user_kwargs(user))
    finally:
        if out:
            out.close()
    stack.popens.append(popen)
    entry = stack.undo.add(phase, kind='process', pid=popen.pid,
                           starttime=proc_starttime(popen.pid), name=name, grace=grace)
    if logpath:
        stack.logs[name] = logpath
    return Process(name, popen, logpath, entry)


def stop_process(stack, proc, grace=5.0):
    """Ends a process spawn() started (SIGTERM, then SIGKILL), reaps it, forgets it."""
    if proc.running():
        kill_pid(proc.pid, proc.entry.get('starttime'), timeout=grace)
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.popen.wait(5)
    if proc.popen.returncode is not None:
        stack.undo.remove(proc.entry)
        if proc.popen in stack.popens:
            stack.popens.remove(proc.popen)
    return proc.popen.returncode


def user_dir(path, user, mode=0o700):
    """Creates PATH owned by USER (parents must exist)."""
    os.makedirs(path, exist_ok=True)
    pw = pwd.getpwnam(user)
    os.chown(path, pw.pw_uid, pw.pw_gid)
    os.chmod(path, mode)
    return path


# ---- Xvfb ------------------------------------------------------------------

def start_xvfb(stack, screen=DEFAULT_SCREEN, first=99, tries=40, timeout=30):
    """Starts Xvfb on the first free display from :FIRST on; returns (display, Process).

    -ac: no access control, so the app (another user) and import (root)
    connect without an Xauthority file; -nolisten tcp: local sockets only.
    Xvfb writes the display number to -displayfd once it accepts connections,
    and refuses a display another server holds (its lock file)."""
    for n in range(first, first + tries):
        if os.path.exists(f'/tmp/.X11-unix/X{n}') or _live_x_lock(n):
            continue
        rfd, wfd = os.pipe()
        try:
            proc = spawn(stack, 'Xvfb', ['Xvfb', f':{n}', '-screen', '0', screen,
                                         '-nolisten', 'tcp', '-ac', '-displayfd', str(wfd)],
                         env={'PATH': SAFE_PATH}, pass_fds=(wfd,))
        finally:
            os.close(wfd)
        try:
            answer = _read_until_eof_or_line(rfd, timeout)
        finally:
            os.close(rfd)
        if answer.strip() == str(n) and proc.running():
            return f':{n}', proc
        # Display taken after all (or Xvfb failed): try the next one.
        stop_process(stack, proc)
        if not answer:
            with open(proc.logpath, errors='replace') as f:
                tail = f.read()[-2000:]
            if 'already active' not in tail and 'server already running' not in tail.lower():
                raise RuntimeError(f'Xvfb :{n} did not start; its log:\n{tail}')
    raise RuntimeError(f'no free X display in :{first}..:{first + tries - 1}')


def _live_x_lock(n):
    try:
        with open(f'/tmp/.X{n}-lock') as f:
            pid = int(f.read().strip())
    except (OSError, ValueError):
        return False
    return proc_starttime(pid) is not None


def _read_until_eof_or_line(fd, timeout):
    data = b''
    deadline = time.monotonic() + timeout
    while b'\n' not in data:
        left = deadline - time.monotonic()
        if left <= 0:
            break
        ready, _, _ = select.select([fd], [], [], left)
        if not ready:
            break
        chunk = os.read(fd, 64)
        if not chunk:
            break
        data += chunk
    return data.decode(errors='replace')


def x_window_names(display):
    """Names of the root window's children on DISPLAY (GTK's toplevels: no WM here)."""
    res = subprocess.run(['xwininfo', '-display', display, '-root', '-children'],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=20)
    return re.findall(r'^\s+0x[0-9a-f]+ "(.*)": \(', res.stdout, re.M)


def screenshot(display, path):
    """The whole screen of DISPLAY as a PNG at PATH (ImageMagick's import, as root)."""
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    res = subprocess.run(['import', '-display', display, '-window', 'root', path],
                         stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, timeout=60)
    if res.returncode != 0 or not os.path.exists(path):
        raise RuntimeError(f'import -display {display} failed ({res.returncode}): '
                           f'{res.stderr.strip()}')
    os.chmod(path, 0o644)
    return path


# ---- a session bus ---------------------------------------------------------

SESSION_CONF = '''<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<!-- A private session bus for diskbench's GUI test / demo: no service
     directories, so nothing is activated that the harness did not start. -->
<busconfig>
  <type>session</type>
  <listen>{address}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
'''


def start_session_bus(stack, user, directory, name='session-bus'):
    """A session dbus-daemon run as USER, its socket in DIRECTORY (which USER
    must own); returns (address, Process). Only USER may connect to it."""
    address = f'unix:path={os.path.join(directory, "session_bus_socket")}'
    conf = os.path.join(directory, 'session-bus.conf')
    with open(conf, 'w') as f:
        f.write(SESSION_CONF.format(address=address))
    os.chmod(conf, 0o644)
    env = {'PATH': SAFE_PATH, 'HOME': directory}
    proc = spawn(stack, name, ['dbus-daemon', f'--config-file={conf}', '--nofork',
                               '--nopidfile', '--nosyslog'], env=env, user=user)
    bus_env = dict(env, DBUS_SESSION_BUS_ADDRESS=address)

    def answers():
        if not proc.running():
            raise RuntimeError(f'session dbus-daemon exited with {proc.popen.returncode}: '
                               f'{_read(proc.logpath)}')
        return run_as(user, ['gdbus', 'call', '--session', '--dest', 'org.freedesktop.DBus',
                             '--object-path', '/org/freedesktop/DBus',
                             '--method', 'org.freedesktop.DBus.GetId'],
                      bus_env, timeout=20).returncode == 0
    wait_until(answers, 20, interval=0.1, what='the session bus to answer')
    return address, proc


def _read(path, limit=20000):
    try:
        with open(path, errors='replace') as f:
            return f.read()[-limit:]
    except (OSError, TypeError):
        return ''


# ---- GVariant text ----------------------------------------------------------

def gvariant_string(text):
    """A Python str as GVariant text ('...' with escapes), for action parameters."""
    out = ["'"]
    for ch in text:
        if ch in "'\\":
            out.append('\\' + ch)
        elif ch.isprintable():
            out.append(ch)
        else:
            out.append(f'\\u{ord(ch):04x}')
    out.append("'")
    return ''.join(out)


def parse_gvariant(text, type_string=None):
    """GVariant text (as gdbus call prints it) to Python values, with python3-gi."""
    import warnings
    with warnings.catch_warnings():  # gi's importer warns under unittest
        warnings.simplefilter('ignore', ImportWarning)
        import gi
        gi.require_version('GLib', '2.0')
        from gi.repository import GLib
    vtype = GLib.VariantType.new(type_string) if type_string else None
    return GLib.Variant.parse(vtype, text.strip(), None, None).unpack()
