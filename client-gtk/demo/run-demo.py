#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Runs the diskbench app from the build tree against a throwaway stack.

    sudo /usr/bin/python3 client-gtk/demo/run-demo.py [options] [-- APP ARGS]

Nothing needs to be installed: like the integration tests (it uses the same
stack code, devtools/stack/stack.py and gui_session.py), it brings up a private
system bus with the project's bus policy, the real polkitd, udevd and
udisksd, D-Bus activation of build/daemon/diskbenchd, and one demo disk: a
loop device over a file of random data. A temporary polkit rule lets the
user who runs the app read that loop device. The app runs as that user,
never as root:

  * under sudo: as $SUDO_USER, on their display (DISPLAY, WAYLAND_DISPLAY,
    XDG_RUNTIME_DIR, XAUTHORITY are passed through), on their session bus if
    DBUS_SESSION_BUS_ADDRESS is set and no other instance of the app runs
    there, else on a session bus of its own;
  * from a root shell (no SUDO_USER): as the test user dbtest-in;
  * with no display at all (a CI machine or a VM), or with --xvfb or
    --screenshot: on an Xvfb of its own, and after --run-for seconds
    (default 10) the screen is saved as a PNG (--screenshot, default
    ./diskbench-demo.png) and the app is closed.

DBUS_SYSTEM_BUS_ADDRESS points the app at the private bus, so it never sees
the machine's real system bus or disks. The results the app keeps by itself
go to a throwaway XDG_DATA_HOME (they are of a throwaway disk). When the app exits (or on Ctrl-C,
SIGTERM, SIGHUP) everything is undone: the app, Xvfb, the session bus, the
daemons, the loop device and its file, the polkit files and test users. A
run killed with SIGKILL is undone by the next run (of this or of the
integration tests; they share a lock and a state file, so one waits for the
other).

--app-command runs another command in the app's place, as the same user and
with the same environment (the demo device is in $DISKBENCH_DEMO_DEVICE and
its daemon object in $DISKBENCH_DEMO_OBJECT), e.g. to see what the app would
see:

    sudo /usr/bin/python3 client-gtk/demo/run-demo.py \\
        --app-command 'busctl --system tree org.diskbench.DiskBench1'
    sudo /usr/bin/python3 client-gtk/demo/run-demo.py --app-command \\
        'sh -c "busctl --system call org.diskbench.DiskBench1 /org/diskbench/DiskBench1 \\
         org.diskbench.DiskBench1.Manager StartBenchmark osa{sv} \\
         $DISKBENCH_DEMO_OBJECT seek 1 count t 100"'
"""

import argparse
import contextlib
import fcntl
import os
import pwd
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE_ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(SOURCE_ROOT, 'devtools', 'stack'))

import gui_session  # noqa: E402
from cleanup import LOCK_PATH, PHASE_CLIENTS, proc_starttime, wait_until  # noqa: E402
from gui_session import (APP_ID, APP_OBJECT, GUI_ENV,  # noqa: E402
                         gvariant_string, run_as, spawn, start_session_bus, start_xvfb,
                         stop_process, user_dir)
from stack import CONFIG, PrerequisiteMissing, Stack  # noqa: E402
from demo_session import (app_actions, app_call, copy_x_cookie, grant_rules,  # noqa: E402
                          polkit_allows, session_bus_usable, x_display_works)

TEST_USER = 'dbtest-in'   # devtools/stack/stack.py creates it, in group benchtest
RULES_NAME = '00-diskbench-demo.rules'
DEFAULT_SCREENSHOT = 'diskbench-demo.png'
DEFAULT_XVFB_RUN_FOR = 10.0
USER_PATH = '/usr/local/bin:/usr/bin:/bin'
PASS_THROUGH = ('LANG', 'LANGUAGE', 'LC_ALL', 'LC_CTYPE', 'LC_MESSAGES', 'LC_NUMERIC',
                'LC_TIME', 'LC_COLLATE', 'LC_MONETARY', 'LC_PAPER', 'LC_MEASUREMENT',
                'TERM', 'XDG_CURRENT_DESKTOP', 'XDG_SESSION_TYPE', 'XDG_SESSION_DESKTOP',
                'DESKTOP_SESSION', 'GTK_THEME', 'ADW_DEBUG_COLOR_SCHEME', 'G_MESSAGES_DEBUG',
                'GTK_DEBUG', 'GDK_DEBUG', 'GDK_SCALE', 'GDK_BACKEND', 'GSK_RENDERER')


def say(msg=''):
    # Never let a closed stdout (run-demo ... | head) stop the cleanup.
    with contextlib.suppress(OSError, ValueError):
        print(f'run-demo: {msg}' if msg else '', flush=True)


class Failure(Exception):
    """A problem with a message for the user (no traceback)."""


class Interrupted(BaseException):
    pass


# ---- options ---------------------------------------------------------------

def parse_size(text):
    m = re.fullmatch(r'\s*(\d+)\s*([KMGT]?)(i?B)?\s*', text, re.I)
    if not m:
        raise argparse.ArgumentTypeError(f'not a size: {text!r} (e.g. 512M, 1G)')
    size = int(m.group(1)) * 1024 ** ' KMGT'.index(m.group(2).upper() or ' ')
    if size < 16 * 1024 * 1024 or size % (1024 * 1024):
        raise argparse.ArgumentTypeError('the device size must be whole MiB, at least 16M')
    return size


def parse_args(argv):
    if '--' in argv:
        i = argv.index('--')
        argv, app_args = argv[:i], argv[i + 1:]
    else:
        app_args = []
    p = argparse.ArgumentParser(
        prog='sudo /usr/bin/python3 client-gtk/demo/run-demo.py',
        description='Runs the diskbench app from the build tree, as you (not root), against '
                    'diskbenchd on a private system bus with real polkitd and udisks and a '
                    'demo loop device. Undoes everything when the app closes or on Ctrl-C.',
        epilog='Arguments after -- go to the app. See the top of this file for more.')
    p.add_argument('--build', default='build', metavar='DIR',
                   help='the meson build directory (default: ./build)')
    p.add_argument('--device-size', type=parse_size, default=parse_size('512M'),
                   metavar='SIZE', help='size of the demo loop device (default 512M)')
    p.add_argument('--xvfb', action='store_true',
                   help='run the app on an Xvfb of its own even when there is a display')
    p.add_argument('--screenshot', metavar='PATH',
                   help=f'save the screen as PNG after --run-for seconds, then close the app '
                        f'(implies --xvfb; default in Xvfb mode: ./{DEFAULT_SCREENSHOT})')
    p.add_argument('--run-for', type=float, metavar='SECONDS',
                   help='close the app after SECONDS (default: when you close it; '
                        f'{DEFAULT_XVFB_RUN_FOR:g} s in Xvfb mode)')
    p.add_argument('--benchmark', metavar='KIND',
                   help='once the app is up, select the demo device and start KIND (e.g. seek, '
                        'sequential) through the app\'s actions on its session bus')
    p.add_argument('--user', metavar='NAME',
                   help='run the app as NAME (default: $SUDO_USER, else the test user '
                        f'{TEST_USER})')
    p.add_argument('--app-command', metavar='CMD',
                   help='run CMD (split like a shell) instead of BUILD/client-gtk/diskbench, as '
                        'the same user with the same environment; e.g. '
                        '"busctl --system tree org.diskbench.DiskBench1"')
    args = p.parse_args(argv)
    args.app_args = app_args
    if args.run_for is not None and args.run_for <= 0:
        p.error('--run-for must be positive')
    return args


# ---- checks ----------------------------------------------------------------

def check_prerequisites(args):
    problems = []
    if os.geteuid() != 0:
        raise Failure('run with sudo: it starts polkitd, udisksd and a loop device, e.g.\n'
                      + shlex.join(['    sudo', '/usr/bin/python3', os.path.relpath(__file__)]
                                   + sys.argv[1:]))
    build = os.path.abspath(args.build)
    if not os.path.isfile(os.path.join(build, 'build.ninja')):
        raise Failure(f'no build directory at {build}: build first:\n'
                      f'    meson setup {args.build} && meson compile -C {args.build}\n'
                      '(or pass --build DIR)')
    args.daemon = os.path.join(build, 'daemon', 'diskbenchd')
    args.policy = os.path.join(build, 'polkit-policy', 'org.diskbench.policy')
    args.bus_policy = os.path.join(SOURCE_ROOT, 'dbus-interfaces',
                                   'org.diskbench.DiskBench1.conf')
    args.app = os.path.join(build, 'client-gtk', 'diskbench')
    needed = [args.daemon, args.policy]
    if not args.app_command:
        needed.append(args.app)
    unbuilt = [path for path in needed if not os.path.exists(path)]
    if unbuilt:
        msg = ('not built: ' + ', '.join(os.path.relpath(p) for p in unbuilt)
               + f'\nbuild first: meson compile -C {args.build}')
        if args.app in unbuilt:
            msg += ('\n(if the GTK client is not part of this tree yet, --app-command '
                    '"busctl --system tree org.diskbench.DiskBench1" shows the plumbing)')
        raise Failure(msg)
    if not os.path.isfile(args.bus_policy):
        problems.append(f'{args.bus_policy} missing (a damaged source tree?)')
    if args.app_command:
        try:
            args.app_argv = shlex.split(args.app_command)
        except ValueError as e:
            raise Failure(f'--app-command: {e}')
        if not args.app_argv:
            raise Failure('--app-command is empty')
    else:
        args.app_argv = [args.app]
    args.app_argv += args.app_args
    for tool, pkg in [('gdbus', 'libglib2.0-bin'), ('dbus-daemon', 'dbus-daemon')]:
        if not shutil.which(tool):
            problems.append(f'{tool} not found (Debian package {pkg})')
    if args.headless:
        for tool, pkg in [('Xvfb', 'xvfb'), ('import', 'imagemagick')]:
            if not shutil.which(tool):
                problems.append(f'{tool} not found (Debian package {pkg}); needed without '
                                'a display')
    free = shutil.disk_usage('/var/tmp').free
    if free < args.device_size + 128 * 1024 * 1024:
        problems.append(f'/var/tmp has {free // 2**20} MiB free: too little for a '
                        f'{args.device_size // 2**20} MiB demo device (--device-size)')
    if problems:
        raise Failure('cannot start:\n  ' + '\n  '.join(problems))


def choose_user(args):
    sudo_user = os.environ.get('SUDO_USER')
    if args.user:
        user, why = args.user, '--user'
    elif sudo_user and sudo_user != 'root':
        user, why = sudo_user, 'SUDO_USER'
    else:
        return TEST_USER, 'no SUDO_USER: the test user'
    try:
        pw = pwd.getpwnam(user)
    except KeyError:
        raise Failure(f'no such user: {user} ({why})')
    if pw.pw_uid == 0:
        raise Failure('the app never runs as root: use sudo from your own account, or --user')
    return user, why


def lock_is_held():
    fd = os.open(LOCK_PATH, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return False
    except BlockingIOError:
        return True
    finally:
        os.close(fd)  # and with it our lock, if we got it


# ---- the demo ---------------------------------------------------------------------

class Demo:
    def __init__(self, args):
        self.args = args
        self.stack = None
        self.app = None
        self.user = None
        self.env = None
        self.display = None
        self.teardown_started = False

    def run(self):
        args = self.args
        check_prerequisites(args)
        self.user, why = choose_user(args)
        CONFIG.load(['--daemon', args.daemon, '--polkit-policy', args.policy,
                     '--bus-policy', args.bus_policy])
        self.stack = Stack(idle_timeout=60, job_retention=600, verbose=True)
        if lock_is_held():
            say(f'the integration tests or another demo hold {LOCK_PATH}: waiting for them '
                '(at most 5 minutes)')
        say('starting a private system bus with polkitd, udevd, udisksd and diskbenchd '
            'activation (like the integration tests)')
        self.stack.start()
        say(f'writing {args.device_size // 2**20} MiB of random data for the demo disk')
        loop = self.stack.attach_loop(size=args.device_size)
        say(f'demo disk: {loop.node} over {loop.backing}')

        if self.user != TEST_USER:  # the test user is granted by the tests' rules (benchtest)
            rules = self.stack.install_polkit_rules(RULES_NAME, grant_rules(self.user, loop.node))
            say(f'polkit rule {rules}: {self.user} may read {loop.node}')
        allowed = polkit_allows(self.stack, self.user, loop.node)
        say(f'polkit says {self.user} may benchmark {loop.node}: {"yes" if allowed else "NO"}')
        if not allowed:
            say('  (benchmarks in the app will be refused; see the polkitd log at the end)')

        self.env = self.app_environment(loop)
        self.check_user_can_run(args.app_argv)
        self.print_summary(loop, why)
        return self.run_app()

    # ---- environment ----

    def app_environment(self, loop):
        args, user = self.args, self.user
        pw = pwd.getpwnam(user)
        base = self.stack.path('demo')
        os.makedirs(base, exist_ok=True)
        os.chmod(base, 0o755)
        private = user_dir(os.path.join(base, 'runtime'), user)

        env = {k: os.environ[k] for k in PASS_THROUGH if k in os.environ}
        home = pw.pw_dir
        if user == TEST_USER or not os.path.isdir(home):
            home = user_dir(os.path.join(base, 'home'), user)
        env.update({
            'PATH': USER_PATH, 'HOME': home, 'USER': user, 'LOGNAME': user,
            'SHELL': pw.pw_shell or '/bin/sh',
            'DBUS_SYSTEM_BUS_ADDRESS': self.stack.address,
            'DISKBENCH_DEMO_DEVICE': loop.node,
            'DISKBENCH_DEMO_OBJECT': loop.object_path,
        })
        env.setdefault('LANG', 'C.UTF-8')
        # The results the app keeps by itself (XDG_DATA_HOME/diskbench/results) are of a
        # throwaway device: they go with the demo, not into the user's own list.
        self.data_home = user_dir(os.path.join(base, 'data'), user)
        env['XDG_DATA_HOME'] = self.data_home
        schemas = os.path.join(os.path.abspath(args.build), 'client-gtk', 'data')
        if os.path.exists(os.path.join(schemas, 'gschemas.compiled')):
            env['GSETTINGS_SCHEMA_DIR'] = schemas

        if not args.headless:
            for key in ('DISPLAY', 'WAYLAND_DISPLAY', 'XAUTHORITY', 'XDG_RUNTIME_DIR'):
                if key in os.environ:
                    env[key] = os.environ[key]
            user_runtime = f'/run/user/{pw.pw_uid}'
            if user == TEST_USER:
                # root's display: the test user gets a copy of root's X cookie, and
                # cannot reach root's Wayland socket.
                env.pop('WAYLAND_DISPLAY', None)
                env['XDG_RUNTIME_DIR'] = private
                env.pop('XAUTHORITY', None)
                if 'DISPLAY' in env:
                    cookie = copy_x_cookie(env['DISPLAY'], private, user)
                    if cookie:
                        env['XAUTHORITY'] = cookie
            elif 'XDG_RUNTIME_DIR' not in env and os.path.isdir(user_runtime):
                env['XDG_RUNTIME_DIR'] = user_runtime  # sudo drops it; Wayland needs it
            if 'XDG_RUNTIME_DIR' not in env:
                env['XDG_RUNTIME_DIR'] = private
            if env.get('XDG_RUNTIME_DIR') and 'WAYLAND_DISPLAY' in env and not os.path.exists(
                    os.path.join(env['XDG_RUNTIME_DIR'], env['WAYLAND_DISPLAY'])):
                env.pop('WAYLAND_DISPLAY')
            if 'DISPLAY' not in env and 'WAYLAND_DISPLAY' not in env:
                raise Failure(f'the display cannot be passed to {user}; run with --xvfb')
            if 'WAYLAND_DISPLAY' not in env and not x_display_works(user, env):
                raise Failure(
                    f'{user} cannot open the X display {env["DISPLAY"]} (sudo may have dropped '
                    'XAUTHORITY: sudo --preserve-env=XAUTHORITY ...), or use --xvfb')
            self.display = env.get('WAYLAND_DISPLAY') or env.get('DISPLAY')
        else:
            self.display, _xvfb = start_xvfb(self.stack)
            env.update(GUI_ENV)
            env['DISPLAY'] = self.display
            env['XDG_RUNTIME_DIR'] = private
            for key in ('WAYLAND_DISPLAY', 'XAUTHORITY'):
                env.pop(key, None)

        # The session bus: the user's own, when it is usable, else one of our own.
        address = None if args.headless else os.environ.get('DBUS_SESSION_BUS_ADDRESS')
        if address and user != TEST_USER:
            ok, reason = session_bus_usable(user, env, address)
            if ok:
                self.session_kind = f'yours ({address})'
            else:
                say(f'not using your session bus: {reason}')
                address = None
        else:
            address = None
        if not address:
            address, _bus = start_session_bus(self.stack, user, private)
            self.session_kind = f'a private one ({address})'
            # No dconf service or accessibility bus on it: keep GTK quiet.
            env.setdefault('GSETTINGS_BACKEND', 'memory')
            env.setdefault('GTK_A11Y', 'none')
            env.setdefault('NO_AT_BRIDGE', '1')
        env['DBUS_SESSION_BUS_ADDRESS'] = address
        self.cwd = home
        return env

    def check_user_can_run(self, argv):
        exe = argv[0] if os.path.isabs(argv[0]) else shutil.which(argv[0], path=USER_PATH)
        if not exe:
            raise Failure(f'{argv[0]}: command not found')
        if run_as(self.user, ['test', '-x', exe], self.env).returncode != 0:
            raise Failure(f'{self.user} cannot run {exe}: every directory above it must be '
                          'searchable by other users (chmod o+x), or build elsewhere')

    def print_summary(self, loop, why):
        args = self.args
        say()
        say('the demo is up:')
        say(f'  private system bus  {self.stack.address}')
        say(f'  diskbenchd          {args.daemon} (activated by the first call)')
        say(f'  demo disk           {loop.node}, {args.device_size // 2**20} MiB of random data')
        say(f'  app                 {shlex.join(args.app_argv)}')
        say(f'  as user             {self.user} ({why})')
        where = f'Xvfb {self.display} (invisible)' if args.headless else self.display
        say(f'  display             {where}')
        say(f'  session bus         {self.session_kind}')
        say(f'  results kept in     {self.data_home} (deleted at the end)')
        say('  from another terminal, the same bus:')
        say(f'    DBUS_SYSTEM_BUS_ADDRESS={self.stack.address} busctl --system tree '
            'org.diskbench.DiskBench1')
        if args.run_for:
            say(f'closing the app after {args.run_for:g} s; Ctrl-C stops earlier')
        else:
            say('close the app window (or press Ctrl-C) to stop; everything is undone then')
        say()

    # ---- the app ----

    def run_app(self):
        args = self.args
        started = time.monotonic()
        self.app = spawn(self.stack, 'app', args.app_argv, env=self.env, user=self.user,
                         phase=PHASE_CLIENTS, log_output=False, cwd=self.cwd)
        say(f'app started (PID {self.app.pid})')
        if args.benchmark:
            self.start_benchmark(args.benchmark)
        deadline = started + args.run_for if args.run_for else None
        while self.app.running():
            if deadline and time.monotonic() >= deadline:
                break
            time.sleep(0.2)
        if not self.app.running():
            code = self.app.popen.returncode
            say(f'the app exited with status {code}')
            if args.screenshot:
                say('no screenshot: the app ended before --run-for')
            return code if code >= 0 else 128 - code
        if args.screenshot:
            path = os.path.abspath(args.screenshot)
            gui_session.screenshot(self.display, path)
            sudo_user = os.environ.get('SUDO_USER')
            if sudo_user and sudo_user != 'root':
                with contextlib.suppress(KeyError, OSError):
                    pw = pwd.getpwnam(sudo_user)
                    os.chown(path, pw.pw_uid, pw.pw_gid)
            say(f'screenshot saved: {path}')
        self.close_app()
        return 0

    def start_benchmark(self, kind):
        loop = self.stack.loops[0]
        try:
            wait_until(lambda: not self.app.running() or app_actions(self.user, self.env), 30,
                       interval=0.3, what=f'the app to export its actions on the session bus')
        except TimeoutError as e:
            say(f'--benchmark: {e}')
            return
        for action, value in (('select-device', loop.node), ('run-benchmark', kind)):
            res = app_call(self.user, self.env, 'org.gtk.Actions.Activate', action,
                           f'[<{gvariant_string(value)}>]', '{}')
            if res.returncode != 0:
                say(f'--benchmark: {action} {value}: {res.stderr.strip()}')
                return
        say(f'asked the app to run {kind} on {loop.node}')

    def close_app(self):
        """The app's own quit action if it has one (GtkApplication apps usually do),
        else SIGTERM."""
        actions = app_actions(self.user, self.env) or []
        if 'quit' in actions:
            app_call(self.user, self.env, 'org.gtk.Actions.Activate', 'quit', '[]', '{}',
                     timeout=5)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.app.popen.wait(5)
        stop_process(self.stack, self.app)
        say('app closed')

    # ---- teardown ----

    def teardown(self):
        self.teardown_started = True
        if self.stack is None:
            return []
        say('cleaning up: the app and all the demo started (loop device, daemons, polkit files)')
        if self.app and self.app.running():
            stop_process(self.stack, self.app)
        problems = self.stack.stop()
        if problems:
            say('teardown problems:\n  ' + '\n  '.join(problems))
        else:
            say('everything is undone')
        return problems

    def dump_logs(self):
        if self.stack and self.stack.tmp and os.path.isdir(self.stack.tmp):
            self.stack.dump_logs()


def main(argv):
    args = parse_args(argv)
    args.headless = bool(args.xvfb or args.screenshot)
    demo = Demo(args)

    def on_signal(signum, _frame):
        if demo.teardown_started:
            print(f'\nrun-demo: still cleaning up ({signal.Signals(signum).name} ignored)',
                  file=sys.stderr, flush=True)
            return
        raise Interrupted(signal.Signals(signum).name)
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, on_signal)

    status = 1
    failed = True
    try:
        # Without a display the app runs on Xvfb, and then a screenshot is the point.
        if not (os.environ.get('DISPLAY') or os.environ.get('WAYLAND_DISPLAY')):
            args.headless = True
        if args.headless:
            if args.screenshot is None:
                args.screenshot = DEFAULT_SCREENSHOT
            if args.run_for is None:
                args.run_for = DEFAULT_XVFB_RUN_FOR
        status = demo.run()
        failed = status != 0
    except Failure as e:
        say(str(e))
        status = 2
    except PrerequisiteMissing as e:
        say(str(e))
        status = 2
    except Interrupted as e:
        print(file=sys.stderr)
        say(f'interrupted ({e})')
        status = 130
        failed = False
    except Exception as e:  # a bug or a broken machine: show the details
        import traceback
        traceback.print_exc()
        say(f'failed: {e}')
        status = 1
    finally:
        demo.teardown_started = True  # from here on, signals only say "still cleaning up"
        if failed and status != 2:
            demo.dump_logs()
        demo.teardown()
    return status


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
