# SPDX-License-Identifier: GPL-3.0-or-later
"""What run-demo.py asks of the system around the app: a polkit rule for the
demo user and polkitd's own answer to it, whether an X display and a session
bus serve that user, and calls to the running app's actions."""

import os
import pwd
import shutil
import subprocess

import gui_session
from cleanup import proc_starttime, wait_until
from gui_session import APP_ID, APP_OBJECT, run_as


# ---- polkit ------------------------------------------------------------------

def grant_rules(user, node):
    """The user may read the demo device, and benchmark folders (as themselves)."""
    return ('// Installed by diskbench\'s run-demo.py; removed when it ends.\n'
            'polkit.addRule(function(action, subject) {\n'
            f'    if (subject.user == {_js(user)} &&\n'
            f'        ((action.id == "org.diskbench.read-device" && '
            f'action.lookup("device") == {_js(node)}) ||\n'
            '         action.id == "org.diskbench.benchmark-filesystem"))\n'
            '        return polkit.Result.YES;\n'
            '});\n')


def _js(text):
    return '"' + text.replace('\\', '\\\\').replace('"', '\\"') + '"'


def polkit_allows(stack, user, node, timeout=10):
    """Asks polkitd (as diskbenchd would, with the device in the details) whether a
    process of USER may read NODE; polls while polkitd picks up new rules."""
    proc = subprocess.Popen(['sleep', '60'], **gui_session.user_kwargs(user),
                            stdin=subprocess.DEVNULL, start_new_session=True)
    try:
        start = proc_starttime(proc.pid)
        uid = pwd.getpwnam(user).pw_uid

        def ask():
            reply = stack.call('/org/freedesktop/PolicyKit1/Authority',
                               'org.freedesktop.PolicyKit1.Authority', 'CheckAuthorization',
                               '(sa{sv})sa{ss}us',
                               ('unix-process', {'pid': ('u', proc.pid),
                                                 'start-time': ('t', start),
                                                 'uid': ('i', uid)}),
                               'org.diskbench.read-device', {'device': node}, 0, '',
                               dest='org.freedesktop.PolicyKit1')
            return reply[0][0]
        try:
            return wait_until(ask, timeout, interval=0.25, what='polkit')
        except TimeoutError:
            return False
    finally:
        proc.kill()
        proc.wait()


# ---- the app's environment ----------------------------------------------------

def x_display_works(user, env):
    if not shutil.which('xdpyinfo'):
        return True  # cannot tell; the app will say
    return run_as(user, ['xdpyinfo'], env, timeout=20, cwd='/').returncode == 0


def copy_x_cookie(display, dest_dir, user):
    """For the test user on root's X display: root's cookie in a file of its own."""
    src = os.environ.get('XAUTHORITY') or os.path.expanduser('~root/.Xauthority')
    dest = os.path.join(dest_dir, 'Xauthority')
    if not shutil.which('xauth') or not os.path.exists(src):
        return None
    res = subprocess.run(['xauth', '-f', src, 'extract', dest, display],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=20)
    if res.returncode != 0 or not os.path.exists(dest):
        return None
    pw = pwd.getpwnam(user)
    os.chown(dest, pw.pw_uid, pw.pw_gid)
    os.chmod(dest, 0o600)
    return dest


def session_bus_usable(user, env, address):
    """True when ADDRESS answers USER and no instance of the app is on it yet."""
    probe = dict(env, DBUS_SESSION_BUS_ADDRESS=address)
    res = run_as(user, ['gdbus', 'call', '--session', '--dest', 'org.freedesktop.DBus',
                        '--object-path', '/org/freedesktop/DBus',
                        '--method', 'org.freedesktop.DBus.NameHasOwner', APP_ID],
                 probe, timeout=20)
    if res.returncode != 0:
        return False, f'it does not answer {user} ({res.stderr.strip()})'
    if res.stdout.strip() == '(true,)':
        return False, f'{APP_ID} already runs on it (the new one would only wake that one up)'
    return True, ''


def app_call(user, env, method, *args, timeout=30):
    argv = ['gdbus', 'call', '--session', '--dest', APP_ID, '--object-path', APP_OBJECT,
            '--method', method, '--timeout', str(timeout)] + list(args)
    return run_as(user, argv, env, timeout=timeout + 10)


def app_actions(user, env):
    res = app_call(user, env, 'org.gtk.Actions.List', timeout=5)
    if res.returncode != 0:
        return None
    return gui_session.parse_gvariant(res.stdout, '(as)')[0]
