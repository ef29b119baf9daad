#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Proves the Debian packages (debian/) the way a user gets them: built from
the source package in a clean Debian 12 root, checked by lintian, installed
with apt into another clean root, booted with systemd, used as a normal
user, removed, purged and installed again. Run by check-packages.sh (which
checks root and the tools first); see tests/packaging/README.md.

Each step prints its time; the first broken one fails the run. The
container, the loop devices, the cgroups and the temp dir are always
removed, also on failure or SIGTERM. Cached between runs, in
/var/cache/diskbench-packaging: the minimal root tarball (mmdebstrap),
rebuilt when the apt sources change or after a week.
"""

import argparse
import contextlib
import glob
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE_ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(SOURCE_ROOT, 'tests', 'systemd'))
sys.path.insert(0, os.path.join(SOURCE_ROOT, 'tests', 'gui'))

# The container plumbing of the real-systemd test: the same boot, cgroups
# and loop devices (tests/systemd/README.md says why each is so).
from test_real_systemd import (LEFT_BEHIND, Container, Failure, Stop, attach_loop,  # noqa: E402
                               cgroup_mounts, make_image, make_own_cgroups, run, unit_props,
                               wait_inactive, wait_until)
# The GUI suite's pixel rule for a drawn graph (zlib only, no ImageMagick).
from gui_stack import MIN_SERIES_PIXELS, png_size, series_pixels  # noqa: E402

MiB = 1024 * 1024
CACHE = '/var/cache/diskbench-packaging'
CACHE_MAX_AGE_S = 7 * 24 * 3600
SUITE = 'bookworm'
# What the booted root needs besides minbase: systemd as PID 1 and a system bus.
BASE_INCLUDE = ['dbus', 'systemd', 'systemd-sysv']
PACKAGES = ['diskbenchd', 'diskbench', 'diskbenchctl']
# The one package the checks add to the test root: a screen for the app
# (xvfb-run needs xauth, which xvfb only recommends).
CHECK_PACKAGES = ['xvfb', 'xauth']

USER = 'dbuser'
LAB_GROUP = 'benchlab'   # the group the shipped example rule grants
IDLE_S = 5               # the test's drop-in; the shipped default is 60 s
RETENTION_S = 2          # ended jobs count as activity this long (default 300 s)
APT_FAST = ['-o', 'Dpkg::Options::=--force-unsafe-io', '-o', 'APT::Sandbox::User=root']

# Not compared after purge: what the running system keeps changing (logs,
# apt's and dpkg's state and caches, systemd's runtime state, the machine
# id made at the first boot) and the user's home, which Debian's purge never
# touches, and udisksd's state directory, which it makes when it first runs
# (udisks2 stays installed). None of it is ours.
VOLATILE = ('proc/', 'sys/', 'dev/', 'run/', 'tmp/', 'var/tmp/', 'var/log/', 'var/cache/',
            'var/lib/apt/', 'var/lib/dpkg/', 'var/lib/systemd/', 'var/lib/udisks2/', 'home/', 'root/',
            'etc/machine-id', 'var/lib/dbus/machine-id', 'etc/.pwd.lock')

START = time.monotonic()
# Without systemd as PID 1 (CI) nspawn has no one to make a scope for its
# container and stays in the cgroup of our own it runs in (--keep-unit);
# with systemd it makes its own scope, as tests/systemd/ does.
KEEP_UNIT = [] if open('/proc/1/comm').read().strip() == 'systemd' else ['--keep-unit']


def log(text):
    print(f'[{time.monotonic() - START:6.1f}s] {text}', flush=True)


def show(title, text):
    log(f'--- {title}')
    for line in text.rstrip('\n').split('\n'):
        print(f'    {line}', flush=True)


class Step:
    """Prints a step's name when it starts and its time when it ends."""
    def __init__(self, name):
        self.name = name

    def __enter__(self):
        self.t0 = time.monotonic()
        log(f'== {self.name}')
        return self

    def __exit__(self, kind, _value, _tb):
        took = time.monotonic() - self.t0
        log(f'== {self.name}: {"ok" if kind is None else "FAILED"} in {took:.1f} s')
        TIMES.append((self.name, took, kind is None))


TIMES = []


# ---- the source package -----------------------------------------------------

def version_of_changelog():
    first = open(os.path.join(SOURCE_ROOT, 'debian', 'changelog')).readline()
    m = re.match(r'(\S+) \(([^)]+)\)', first)
    if not m:
        raise Failure(f'debian/changelog: cannot read {first!r}')
    return m.group(1), m.group(2)


def copy_tree(dest):
    """The tree as a developer has it: tracked files and files git does not
    ignore, including uncommitted changes (so the check tests what is
    about to be committed)."""
    listed = run(['git', '-C', SOURCE_ROOT, 'ls-files', '-z', '--cached', '--others',
                  '--exclude-standard']).stdout.split('\0')
    for rel in filter(None, listed):
        src = os.path.join(SOURCE_ROOT, rel)
        if not os.path.lexists(src):
            continue  # deleted in the work tree, not yet in git
        dst = os.path.join(dest, rel)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copy2(src, dst, follow_symlinks=False)


# Build directories a developer's tree has: debian/source/options must keep
# them out of the source package (the binary build does not see them then).
PLANTED = ['build/planted-by-check', '_build-ci/planted-by-check',
           'obj-x86_64-linux-gnu/planted-by-check', 'tests/__pycache__/planted-by-check.pyc',
           'debian/tmp/planted-by-check', 'debian/.debhelper/planted-by-check',
           'debian/diskbenchd/planted-by-check']


def source_package(tmp, name, version):
    src_dir = os.path.join(tmp, 'src')
    tree = os.path.join(src_dir, f'{name}-{version}')
    os.makedirs(tree)
    copy_tree(tree)
    for rel in PLANTED:
        os.makedirs(os.path.dirname(os.path.join(tree, rel)), exist_ok=True)
        with open(os.path.join(tree, rel), 'w') as f:
            f.write('a build directory of a dirty tree\n')
    run(['dpkg-source', '-b', os.path.basename(tree)], cwd=src_dir, timeout=300)
    dsc = os.path.join(src_dir, f'{name}_{version}.dsc')
    tarball = glob.glob(os.path.join(src_dir, f'{name}_{version}.tar.*'))
    if not os.path.exists(dsc) or len(tarball) != 1:
        raise Failure(f'dpkg-source made {os.listdir(src_dir)}')
    members = run(['tar', '-tf', tarball[0]]).stdout.split()
    shipped = [m for m in members if 'planted-by-check' in m]
    if shipped:
        raise Failure(f'the source package ships the build directories of a dirty tree: {shipped}')
    log(f'{os.path.basename(tarball[0])}: {len(members)} entries, none of the planted build '
        f'directories ({", ".join(os.path.dirname(p) + "/" for p in PLANTED)})')
    return dsc, tarball[0]


# ---- roots ------------------------------------------------------------------

def debian_sources():
    """The machine's configured Debian apt sources (deb822 or one-line), as
    the mirror arguments of mmdebstrap."""
    found = sorted(glob.glob('/etc/apt/sources.list.d/*.sources'))
    if os.path.exists('/etc/apt/sources.list'):
        found.append('/etc/apt/sources.list')
    found += sorted(glob.glob('/etc/apt/sources.list.d/*.list'))
    sources = [p for p in found if SUITE in open(p).read()]
    if not sources:
        raise Failure(f'no apt source for {SUITE} in /etc/apt')
    return sources


def base_tarball():
    """A minbase root with systemd and dbus, from the cache when it was made
    from the same sources less than a week ago."""
    sources = debian_sources()
    key = hashlib.sha256()
    for p in sources:
        key.update(open(p, 'rb').read())
    key.update(' '.join(BASE_INCLUDE).encode())
    path = os.path.join(CACHE, f'{SUITE}-minbase-{key.hexdigest()[:16]}.tar')
    if os.path.exists(path) and time.time() - os.path.getmtime(path) < CACHE_MAX_AGE_S:
        log(f'cached: {path}')
        return path
    os.makedirs(CACHE, exist_ok=True)
    for old in glob.glob(os.path.join(CACHE, f'{SUITE}-minbase-*.tar')):
        os.unlink(old)
    partial = path + '.partial'
    # force-unsafe-io: dpkg's fsyncs were almost all of the 859 s this took
    # without it; a root that is thrown away needs none.
    run(['mmdebstrap', '--quiet', '--format=tar', '--variant=minbase', '--include=' + ','.join(BASE_INCLUDE),
         '--dpkgopt=force-unsafe-io', SUITE, partial] + sources, timeout=1800)
    os.rename(partial, path)
    log(f'made {path} ({os.path.getsize(path) // MiB} MiB)')
    return path


def extract_root(tarball, dest):
    os.makedirs(dest)
    run(['tar', '-C', dest, '--numeric-owner', '-xpf', tarball], timeout=600)


class Nspawn:
    """Runs commands in a root that is not booted (build, apt), with the
    host's network for apt, in the cgroup of our own (see
    tests/systemd/test_real_systemd.py: make_own_cgroups)."""

    def __init__(self, root, name, cgroups, env):
        self.root, self.name, self.cgroups, self.env = root, name, cgroups, env

    def __call__(self, *argv, user=None, chdir=None, setenv=(), timeout=900, check=True,
                 network=True):
        cmd = ['systemd-nspawn', '--quiet', '--register=no'] + KEEP_UNIT + ['--pipe',
               f'--machine={self.name}', f'--directory={self.root}', '--resolv-conf=copy-host',
               '--link-journal=no', '--timezone=off', '--as-pid2']
        if not network:
            cmd.append('--private-network')
        if user:
            cmd.append(f'--user={user}')
        if chdir:
            cmd.append(f'--chdir={chdir}')
        cmd += [f'--setenv={e}' for e in setenv]
        cmd += ['--'] + list(argv)

        def enter_cgroups():
            for d in self.cgroups:
                with open(os.path.join(d, 'cgroup.procs'), 'w') as f:
                    f.write('0')
        result = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                                timeout=timeout, env=self.env,
                                preexec_fn=enter_cgroups if self.cgroups else None)
        if check and result.returncode != 0:
            raise Failure(f'in {self.root}: {" ".join(argv)} exited with {result.returncode}:\n'
                          f'{result.stdout[-4000:]}{result.stderr[-4000:]}')
        return result


def apt(run_in_root, *args, timeout=900):
    """apt-get in a root: RUN_IN_ROOT is an Nspawn (not booted) or a
    booted Container's run."""
    return run_in_root('env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', '-y', '-q',
                       '--no-install-recommends', *APT_FAST, *args, timeout=timeout)


# ---- build and lint ---------------------------------------------------------

def build(tmp, base, dsc, tarball, name, version, cgroups, env, jobs):
    root = os.path.join(tmp, 'buildroot')
    extract_root(base, root)
    ns = Nspawn(root, f'diskbench-build-{os.getpid()}', cgroups, env)
    apt(ns, 'update')
    # build-essential and dpkg-dev, as a buildd has them; the rest comes
    # from Build-Depends alone (apt-get build-dep), so a missing one fails.
    apt(ns, 'install', 'build-essential', 'dpkg-dev')
    os.makedirs(os.path.join(root, 'build'))
    for f in (dsc, tarball):
        shutil.copy(f, os.path.join(root, 'build'))
    ns('useradd', '--create-home', 'builder')
    ns('chown', '-R', 'builder:builder', '/build')
    ns('dpkg-source', '-x', os.path.basename(dsc), user='builder', chdir='/build')
    tree = f'/build/{name}-{version}'
    apt(ns, 'build-dep', tree)
    # As a normal user, as Debian's buildds do (Rules-Requires-Root: no);
    # dh_auto_test's suite must pass without root.
    t0 = time.monotonic()
    # Without network, as on a buildd: the build may fetch nothing.
    result = ns('dpkg-buildpackage', '-b', '-us', '-uc', user='builder', chdir=tree,
                setenv=[f'DEB_BUILD_OPTIONS=parallel={jobs}'], timeout=3600, check=False, network=False)
    with open(os.path.join(tmp, 'build.log'), 'w') as f:
        f.write(result.stdout + result.stderr)
    if result.returncode != 0:
        raise Failure(f'dpkg-buildpackage exited with {result.returncode}:\n'
                      f'{(result.stdout + result.stderr)[-6000:]}')
    tests = re.findall(r'^(Ok|Fail|Skipped|Timeout|Expected Fail|Unexpected Pass):\s+(\d+)',
                       result.stdout, re.M)
    log(f'dpkg-buildpackage -b as builder: {time.monotonic() - t0:.0f} s; dh_auto_test: {tests}')
    if not tests or dict(tests).get('Ok', '0') == '0' or any(
            n != '0' for k, n in tests if k in ('Fail', 'Timeout', 'Unexpected Pass', 'Skipped')):
        raise Failure(f'dh_auto_test did not pass: {tests}')
    out = os.path.join(tmp, 'out')
    os.makedirs(out)
    for f in glob.glob(os.path.join(root, 'build', f'*_{version}_*')):
        shutil.copy(f, out)
    shutil.rmtree(root)
    return out


def lint(out, dsc):
    changes = glob.glob(os.path.join(out, '*.changes'))
    if len(changes) != 1:
        raise Failure(f'expected one .changes in {os.listdir(out)}')
    result = run(['lintian', '--fail-on', 'error,warning', '--display-info', '--show-overrides',
                  changes[0], dsc], check=False, timeout=600)
    show('lintian --fail-on error,warning --display-info --show-overrides', result.stdout
         + result.stderr or '(nothing)')
    if result.returncode != 0:
        raise Failure(f'lintian exited with {result.returncode}')


def validate_installed(out, tmp):
    """appstreamcli and desktop-file-validate on the files as the app's
    package installs them."""
    tree = os.path.join(tmp, 'diskbench-deb')
    deb = glob.glob(os.path.join(out, 'diskbench_*.deb'))[0]
    run(['dpkg-deb', '-x', deb, tree])
    metainfo = os.path.join(tree, 'usr/share/metainfo/org.diskbench.DiskBench.metainfo.xml')
    desktop = os.path.join(tree, 'usr/share/applications/org.diskbench.DiskBench.desktop')
    show('appstreamcli validate --no-net', run(['appstreamcli', 'validate', '--no-net', metainfo]).stdout)
    run(['desktop-file-validate', desktop])
    log('desktop-file-validate: no complaint')


def package_facts(out):
    for p in PACKAGES:
        deb = glob.glob(os.path.join(out, f'{p}_*.deb'))[0]
        info = run(['dpkg-deb', '--field', deb, 'Package', 'Version', 'Depends', 'Installed-Size']).stdout
        files = [line.split()[-1] for line in run(['dpkg-deb', '-c', deb]).stdout.splitlines()
                 if not line.startswith('d')]
        show(f'{os.path.basename(deb)}', info + '\n'.join(files))


# ---- the test root ------------------------------------------------------------

def file_list(root):
    """Every path in ROOT (files, links, directories) but the volatile ones."""
    paths = set()
    for d, dirs, files in os.walk(root):
        rel_d = os.path.relpath(d, root)
        rel_d = '' if rel_d == '.' else rel_d + '/'
        if rel_d.startswith(VOLATILE):
            dirs[:] = []
            continue
        for n in dirs + files:
            rel = rel_d + n
            if not rel.startswith(VOLATILE) and not (rel + '/').startswith(VOLATILE):
                paths.add(rel)
    return paths


UDEVD_DROP_IN = ('[Unit]\n'
                 '# The test container has a read-only /sys; udevd only reads it\n'
                 '# (tests/systemd/README.md: udisksd needs udev\'s database).\n'
                 'ConditionPathIsReadWrite=\n')
DAEMON_DROP_IN = ('[Service]\n'
                  '# Seconds instead of minutes, so the check sees the idle exit.\n'
                  'ExecStart=\n'
                  f'ExecStart=/usr/libexec/diskbenchd --idle-timeout {IDLE_S} '
                  f'--job-retention {RETENTION_S}\n')


def write(root, path, text, mode=0o644):
    full = os.path.join(root, path.lstrip('/'))
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, 'w') as f:
        f.write(text)
    os.chmod(full, mode)


def prepare_test_root(tmp, base, cgroups, env):
    root = os.path.join(tmp, 'testroot')
    extract_root(base, root)
    ns = Nspawn(root, f'diskbench-test-{os.getpid()}', cgroups, env)
    # The machine's user and lab group, and what lets udevd run in a
    # container: set up before the first file list, so none of it counts.
    ns('groupadd', '--system', LAB_GROUP)
    ns('useradd', '--create-home', '--groups', LAB_GROUP, USER)
    for unit in ('systemd-udevd.service', 'systemd-udevd-control.socket', 'systemd-udevd-kernel.socket'):
        write(root, f'/etc/systemd/system/{unit}.d/50-diskbench-check.conf', UDEVD_DROP_IN)
    apt(ns, 'update')
    return root, ns


def install(root, ns, out):
    """Installs our packages with apt as a user would, so their
    dependencies come from the archive; then purges them, which leaves the
    dependencies, and returns the root's file list from then: the list
    after the final purge must be the same. Installs them again for the
    checks and returns (paths of the .debs in the root, that list)."""
    debs_dir = os.path.join(root, 'var/tmp/debs')
    os.makedirs(debs_dir)
    debs = []
    for p in PACKAGES:
        deb = glob.glob(os.path.join(out, f'{p}_*.deb'))[0]
        shutil.copy(deb, debs_dir)
        debs.append(f'/var/tmp/debs/{os.path.basename(deb)}')
    # Without Recommends: what the packages need must be in their Depends.
    result = apt(ns, 'install', *debs)
    new = [line.split()[1] for line in result.stdout.splitlines() if line.startswith('Setting up ')]
    log(f'apt-get install ./*.deb: {len(new)} packages set up, ours and their dependencies '
        f'from the archive')
    apt(ns, 'install', *CHECK_PACKAGES)
    apt(ns, 'purge', *PACKAGES)
    before = file_list(root)
    log(f'file list with the dependencies and without our packages: {len(before)} paths')
    apt(ns, 'install', *debs)
    return debs, before


def boot(c, root, name, loops, cgroups, env):
    argv = ['systemd-nspawn', '--quiet', '--register=no'] + KEEP_UNIT + [f'--machine={name}',
            f'--directory={root}', '--private-network', '--link-journal=no', '--resolv-conf=off',
            '--timezone=off', '--console=passive', '--system-call-filter=bpf',
            '--rlimit=RLIMIT_MEMLOCK=8388608:infinity']
    argv += [f'--bind={node}' for node in loops]
    argv += ['--boot', '--', 'systemd.firstboot=off']
    c.boot(argv, env, cgroups)
    state = wait_until(lambda: c.run('systemctl', 'is-system-running', '--wait', check=False,
                                     timeout=120).stdout.strip(),
                       60, "the container's systemd to answer", interval=0.5)
    log(f'booted: systemctl is-system-running: {state}')
    if state not in ('running', 'degraded'):
        raise Failure(f'the container did not boot: {state}')
    return c


def as_user(c, *argv, check=True, timeout=300):
    """ARGV as the test user: a transient service of the container's
    systemd with the user's uid, groups and home (no login session, as
    over ssh or from a timer: polkit's defaults for an active session do
    not apply, the shipped lab rule does)."""
    return c.run('systemd-run', '--quiet', '--wait', '--pipe', '--collect', f'--uid={USER}',
                 f'--gid={USER}', f'--working-directory=/home/{USER}', f'--setenv=HOME=/home/{USER}',
                 *argv, check=check, timeout=timeout)


def result_file(c, path):
    with open(c.file(path)) as f:
        return json.load(f)


def check_result(result, kind, what):
    figures = {k: v for k, v in result.get('summary', {}).items()
               if isinstance(v, (int, float)) and not isinstance(v, bool)}
    brief = {k: result.get(k) for k in ('kind', 'state', 'target', 'warnings')}
    log(f'{what}: {json.dumps(brief)}; {len(figures)} figures')
    if result.get('kind') != kind or result.get('state') != 'finished':
        raise Failure(f'{what}: {brief}')
    if not any(v > 0 for v in figures.values()):
        raise Failure(f'{what}: no figures in {result.get("summary")}')


def cli_run(c, kind, target, *params):
    """`diskbenchctl run KIND TARGET PARAMS` as the user: exit status 0 and
    a finished result with figures in the file it wrote."""
    path = f'/home/{USER}/{kind}.json'
    r = as_user(c, 'diskbenchctl', 'run', kind, target, *params, '--output', path, check=False)
    show(f'diskbenchctl run {kind} {target}', r.stdout + r.stderr)
    if r.returncode != 0:
        raise Failure(f'diskbenchctl run {kind} exited with {r.returncode}')
    check_result(result_file(c, path), kind, kind)


APP_SCRIPT = r'''#!/bin/sh
# Runs as the test user inside the container: the app on an Xvfb screen
# with a session bus of its own, driven through its GApplication actions
# (tests/gui/README.md) with busctl; writes what it saw to $HOME.
set -u
node=$1
out=$HOME/app-check
mkdir -p "$out"
export GDK_BACKEND=x11 GSK_RENDERER=cairo GTK_A11Y=none NO_AT_BRIDGE=1
xvfb-run -a -s "-screen 0 1280x800x24" diskbench >"$out/app.log" 2>&1 &
bus() { busctl --address="$DBUS_SESSION_BUS_ADDRESS" "$@"; }
actions() { bus call org.diskbench.DiskBench /org/diskbench/DiskBench org.gtk.Actions "$@"; }
status() { actions Describe s status | sed -n 's/.*"\([^"]*\)"$/\1/p'; }
i=0
until bus call org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus \
        NameHasOwner s org.diskbench.DiskBench 2>/dev/null | grep -q true; do
    i=$((i + 1)); [ $i -gt 150 ] && { echo "the app did not come up"; exit 1; }
    sleep 0.2
done
echo "app on the session bus after $i tries"
# The device list arrives from the daemon after the window is up: select
# the loop device until the app knows it (a seek then starts on it).
i=0
while :; do
    actions Activate 'sava{sv}' select-device 1 s "$node" 0 >/dev/null
    actions Activate 'sava{sv}' run-benchmark 1 s seek 0 >/dev/null
    sleep 1
    s=$(status)
    case "$s" in seek:running:*|seek:finished:*) break ;; esac
    i=$((i + 1)); [ $i -gt 30 ] && { echo "no seek started on $node: status '$s'"; exit 1; }
done
echo "seek started on $node: $s"
i=0
until case "$(status)" in seek:finished:*) true ;; *) false ;; esac; do
    i=$((i + 1)); [ $i -gt 120 ] && { echo "seek did not finish: $(status)"; exit 1; }
    sleep 0.5
done
echo "status: $(status)"
# ACTION FILE WHAT: the action writes FILE; wait for it (10 s at most).
write_file() {
    actions Activate 'sava{sv}' "$1" 1 s "$2" 0 >/dev/null
    i=0
    until [ -s "$2" ]; do
        i=$((i + 1)); [ $i -gt 50 ] && { echo "no $3"; exit 1; }
        sleep 0.2
    done
    echo "$3 written"
}
write_file export-graph "$out/seek.png" "graph"
write_file save-result "$out/seek-app.json" "result"
'''


def check_app(c, node):
    write(c.file('/'), '/tmp/diskbench-app-check', APP_SCRIPT, mode=0o755)
    result = as_user(c, 'dbus-run-session', '--', '/tmp/diskbench-app-check', node,
                     check=False, timeout=240)
    show('the app (diskbench under xvfb-run, driven through its actions)', result.stdout + result.stderr)
    if result.returncode != 0:
        log_path = c.file(f'/home/{USER}/app-check/app.log')
        if os.path.exists(log_path):
            show('app.log', open(log_path).read()[-4000:])
        raise Failure('the app check failed')
    # The run was on the loop device: the app listed it and ran on it.
    saved = result_file(c, f'/home/{USER}/app-check/seek-app.json')
    check_result(saved, 'seek', 'the app\'s seek')
    if saved.get('device_info', {}).get('node') != node:
        raise Failure(f'the app\'s seek ran on {saved.get("device_info", {}).get("node")}, not {node}')
    log(f'the app\'s result: seek on {node}')
    png = c.file(f'/home/{USER}/app-check/seek.png')
    drawn = series_pixels(png)
    log(f'exported graph {png_size(png)}: {drawn} pixels of the series colour')
    if drawn <= MIN_SERIES_PIXELS:
        raise Failure(f'the exported seek graph has {drawn} series pixels '
                      f'(more than {MIN_SERIES_PIXELS} wanted)')
    os.unlink(c.file('/tmp/diskbench-app-check'))


def bus_state(c):
    names = c.run('busctl', '--system', '--json=short', 'call', 'org.freedesktop.DBus',
                  '/org/freedesktop/DBus', 'org.freedesktop.DBus', 'ListActivatableNames').stdout
    owned = c.run('busctl', '--system', '--json=short', 'call', 'org.freedesktop.DBus',
                  '/org/freedesktop/DBus', 'org.freedesktop.DBus', 'NameHasOwner', 's',
                  'org.diskbench.DiskBench1').stdout
    return ('org.diskbench.DiskBench1' in json.loads(names)['data'][0], json.loads(owned)['data'][0])


SCHEDULED_OUTPUT = '/var/lib/prometheus/node-exporter/diskbench.prom'


def check_scheduled(c, root, node):
    """The installed scheduled service as an administrator turns it on
    (docs/fleet/README.md): the shipped polkit example copied into place,
    scheduled.conf choosing the loop device (Devices=all leaves loop devices
    out), node_exporter's textfile directory (here made by hand: the
    package prometheus-node-exporter is not installed). The run must write a
    valid metrics file there as root's, through the unprivileged user."""
    state = c.run('systemctl', 'is-enabled', 'diskbench-scheduled.timer', check=False).stdout.strip()
    if state != 'disabled':
        raise Failure(f'diskbench-scheduled.timer is {state!r} after the install, not disabled')
    if not c.run('getent', 'passwd', '_diskbench', check=False).stdout.startswith('_diskbench:'):
        raise Failure('the install did not create the user _diskbench (sysusers.d)')
    example = os.path.join(root, 'usr/share/doc/diskbenchctl/examples/50-diskbench-scheduled.rules')
    if not os.path.exists(example):
        raise Failure('diskbenchctl does not ship examples/50-diskbench-scheduled.rules')
    shutil.copy(example, os.path.join(root, 'etc/polkit-1/rules.d/50-diskbench-scheduled.rules'))
    conf = os.path.join(root, 'etc/diskbench/scheduled.conf')
    with open(conf) as f:
        shipped = f.read()
    with open(conf, 'w') as f:
        f.write(shipped.replace('#Devices=all', f'Devices={node}')
                .replace('#QuietWindowSeconds=10', 'QuietWindowSeconds=1'))
    c.run('mkdir', '-p', os.path.dirname(SCHEDULED_OUTPUT))
    started = time.monotonic()
    ran = c.run('systemctl', 'start', 'diskbench-scheduled.service', check=False, timeout=300)
    took = time.monotonic() - started
    journal = c.run('journalctl', '--boot', '--no-pager', '--output=cat',
                    '--unit=diskbench-scheduled.service').stdout
    result = unit_props(c, 'Result', unit='diskbench-scheduled.service')['Result']
    if ran.returncode != 0 or result != 'success':
        raise Failure(f'systemctl start diskbench-scheduled.service: {ran.returncode}, Result={result}\n'
                      + journal[-3000:])
    log(f'diskbench-scheduled.service ran in {took:.1f} s')
    stat = c.run('stat', '-c', '%U:%G %a', SCHEDULED_OUTPUT).stdout.strip()
    if stat != 'root:root 644':
        raise Failure(f'{SCHEDULED_OUTPUT} is {stat}, not root:root 644')
    with open(c.file(SCHEDULED_OUTPUT)) as f:
        text = f.read()
    label = f'device="{os.path.basename(node)}"'
    needed = [f'diskbench_throughput_bytes_per_second{{{label}', f'diskbench_latency_seconds{{{label}',
              'diskbench_scheduled_last_run_timestamp_seconds ']
    missing = [n for n in needed if n not in text]
    if missing:
        raise Failure(f'{SCHEDULED_OUTPUT} lacks {missing}:\n{text[:3000]}')
    promtool = subprocess.run(['promtool', 'check', 'metrics'], input=text, capture_output=True, text=True)
    if promtool.returncode != 0:
        raise Failure(f'promtool check metrics: {promtool.stdout}{promtool.stderr}')
    kept = c.run('ls', '/var/lib/diskbench/results').stdout.split()
    if len(kept) != 2:
        raise Failure(f'the history in /var/lib/diskbench/results holds {kept}, not the 2 runs')
    owner = c.run('stat', '-c', '%U', '/var/lib/diskbench/results/' + kept[0]).stdout.strip()
    if owner != '_diskbench':
        raise Failure(f'the kept result belongs to {owner}, not _diskbench')
    log(f'{SCHEDULED_OUTPUT}: {len(text)} bytes, root:root 644, promtool check metrics passes; '
        f'{len(kept)} results kept by _diskbench')
    show('the scheduled run\'s journal', journal[-1500:])
    # The admin's files go before the purge; the package's (the history, the
    # metrics file) the purge removes, which the file list then checks.
    os.unlink(os.path.join(root, 'etc/polkit-1/rules.d/50-diskbench-scheduled.rules'))


def check(args, cleanups):
    tmp = tempfile.mkdtemp(prefix='diskbench-packaging-', dir='/var/tmp')
    cleanups.callback(shutil.rmtree, tmp, ignore_errors=True)
    log(f'temp dir {tmp}')
    name, version = version_of_changelog()

    env = dict(os.environ)
    cgroups = []
    host_systemd = open('/proc/1/comm').read().strip() == 'systemd'
    tag = f'diskbench-pkg-{os.getpid()}'
    if not host_systemd:
        cgroups = make_own_cgroups(tag, cleanups)
        if '' in cgroup_mounts():
            env['SYSTEMD_NSPAWN_UNIFIED_HIERARCHY'] = '1'
    for machine in (f'diskbench-build-{os.getpid()}', f'diskbench-test-{os.getpid()}', tag):
        propagate = f'/run/systemd/nspawn/propagate/{machine}'
        cleanups.callback(lambda p=propagate: os.path.isdir(p) and shutil.rmtree(p, ignore_errors=True))

    with Step('source package from a dirty tree (dpkg-source -b)'):
        dsc, tarball = source_package(tmp, name, version)
    with Step(f'minimal Debian 12 root (mmdebstrap --variant=minbase, cache {CACHE})'):
        base = base_tarball()
    if args.debs:
        out = args.debs
        log(f'using the packages in {out} (--debs): no build')
    else:
        with Step('build in a clean root (apt-get build-dep, dpkg-buildpackage -b -us -uc)'):
            out = build(tmp, base, dsc, tarball, name, version, cgroups, env, args.jobs)
        if args.save_debs:
            os.makedirs(args.save_debs, exist_ok=True)
            for f in os.listdir(out):
                shutil.copy(os.path.join(out, f), args.save_debs)
            log(f'the packages are in {args.save_debs}')
    with Step('lintian'):
        lint(out, dsc)
    with Step('appstreamcli and desktop-file-validate on the installed files'):
        validate_installed(out, tmp)
    package_facts(out)

    with Step('install into a fresh root (apt-get install ./*.deb)'):
        root, ns = prepare_test_root(tmp, base, cgroups, env)
        debs, before = install(root, ns, out)
        ours = {}
        conffiles = set()  # stay after remove, as Debian wants; purge takes them
        for p in PACKAGES:
            ours[p] = [line for line in ns('dpkg', '-L', p).stdout.splitlines() if line != '/.']
            listed = ns('dpkg-query', '-W', '-f=${Conffiles}', p).stdout.strip()
            if listed:
                log(f'{p} conffiles: {listed}')
                conffiles |= {line.split()[0] for line in listed.splitlines() if line.strip()}
        # The lab rule as an admin would install it, from the package's docs.
        example = os.path.join(root, 'usr/share/doc/diskbenchd/examples/50-diskbench-lab.rules')
        if not os.path.exists(example):
            raise Failure('diskbenchd does not ship examples/50-diskbench-lab.rules')
        shutil.copy(example, os.path.join(root, 'etc/polkit-1/rules.d/50-diskbench-lab.rules'))
        write(root, '/etc/systemd/system/diskbenchd.service.d/50-diskbench-check.conf', DAEMON_DROP_IN)

    images = {'read': (64 * MiB, False), 'folder': (64 * MiB, True)}
    loops = {}
    for role, (size, ext4) in images.items():
        path = os.path.join(tmp, f'{role}.img')
        make_image(path, size, ext4)
        loops[role] = attach_loop(path, cleanups)
    log('loop devices: ' + ', '.join(f'{role} {node}' for role, node in loops.items()))

    with Step('boot the root (systemd-nspawn --boot)'):
        machine = f'diskbench-test-{os.getpid()}'
        c = Container(machine, tmp)
        # Before the boot: a boot that fails half way still has a container.
        cleanups.callback(c.stop)
        boot(c, root, machine, list(loops.values()), cgroups, env)
        for node in loops.values():
            with open(f'/sys/class/block/{os.path.basename(node)}/uevent', 'w') as f:
                f.write('change')
        c.run('udevadm', 'settle', '--timeout=30', timeout=40)
        if unit_props(c, 'ActiveState')['ActiveState'] != 'inactive':
            raise Failure('diskbenchd.service runs before anything called it')

    read_node = loops['read']
    with Step(f'diskbenchctl devices as {USER} (D-Bus activation of the installed unit)'):
        def listed():
            r = as_user(c, 'diskbenchctl', 'devices', check=False)
            return r.stdout if read_node in r.stdout else None
        shown = wait_until(listed, 60, f'diskbenchctl devices to list {read_node}', interval=1)
        show('diskbenchctl devices', shown)
        props = unit_props(c, 'ActiveState', 'FragmentPath', 'MainPID')
        journal = c.run('journalctl', '--boot', '--no-pager', '_COMM=dbus-daemon').stdout
        if props['ActiveState'] != 'active' or "Activating via systemd: service name='org.diskbench." \
                "DiskBench1' unit='diskbenchd.service'" not in journal:
            raise Failure(f'diskbenchd was not activated through systemd: {props}')
        log(f'diskbenchd.service active from {props["FragmentPath"]}, pid {props["MainPID"]}')

    with Step(f'diskbenchctl run seek {read_node}'):
        cli_run(c, 'seek', read_node, 'count=200')

    with Step('the scheduled benchmarks: systemctl start diskbench-scheduled.service'):
        check_scheduled(c, root, read_node)

    with Step(f'folder benchmark in /home/{USER}/bench (file-rw)'):
        folder = f'/home/{USER}/bench'
        c.run('mkdir', '-p', folder)
        c.run('mount', loops['folder'], folder)
        c.run('chown', f'{USER}:{USER}', folder)
        cli_run(c, 'file-rw', folder, 'size=8M')
        left = c.run('ls', '-A', folder).stdout.split()
        if left != ['lost+found']:
            raise Failure(f'the folder benchmark left {left}')

    with Step('the app under xvfb-run lists the device and runs seek on it'):
        check_app(c, read_node)

    with Step('idle exit of the daemon'):
        state = wait_inactive(c, RETENTION_S + IDLE_S + 30)
        if state != 'inactive':
            raise Failure(f'diskbenchd.service is {state} after its idle time')
        log(f'diskbenchd.service {state}')

    with Step('apt-get remove (with a benchmark running)'):
        c.run('umount', folder)
        # A seek of a million reads (the most it takes; a minute or more)
        # keeps the daemon busy (no idle exit)
        # until the removal's prerm stops it.
        c.run('systemd-run', '--quiet', '--unit=diskbench-check-long-seek', '--collect', f'--uid={USER}',
              f'--gid={USER}', f'--setenv=HOME=/home/{USER}', 'diskbenchctl', 'run', 'seek', read_node,
              'count=1000000', '--no-save')

        def job_running():
            out = c.run('diskbenchctl', 'jobs', '--json', check=False).stdout
            return out if '"running"' in out else None
        wait_until(job_running, 30, 'the long seek to run')
        if unit_props(c, 'ActiveState')['ActiveState'] != 'active':
            raise Failure('diskbenchd is not running for the removal check')
        c.run('rm', '/etc/polkit-1/rules.d/50-diskbench-lab.rules',
              '/etc/systemd/system/diskbenchd.service.d/50-diskbench-check.conf')
        c.run('rmdir', '/etc/systemd/system/diskbenchd.service.d')
        apt(c.run, 'remove', *PACKAGES, timeout=300)
        activatable, owned = bus_state(c)
        active = unit_props(c, 'ActiveState')['ActiveState']
        log(f'after remove: activatable {activatable}, name owned {owned}, unit {active}')
        if activatable or owned or active == 'active':
            raise Failure('the daemon is still on the bus after apt-get remove')
        journal = c.run('journalctl', '--boot', '--no-pager', '--output=cat', '--unit=diskbenchd.service').stdout
        if 'Stopping diskbenchd.service' not in journal and 'Stopping Disk Benchmark daemon' not in journal:
            raise Failure('the removal did not stop diskbenchd.service:\n' + journal[-2000:])
        log('the removal stopped diskbenchd.service while its seek ran')
        left = [p for pkg in PACKAGES for p in ours[pkg]
                if os.path.lexists(os.path.join(root, p.lstrip('/')))
                and not os.path.isdir(os.path.join(root, p.lstrip('/'))) and p not in conffiles]
        if left:
            raise Failure(f'files left after remove: {left}')
        log(f'no file of ours left but the conffiles ({", ".join(sorted(conffiles)) or "none"}), '
            'which purge removes')

    with Step('apt-get purge: the root as before the install'):
        # After remove, dpkg keeps only what has files left to purge (the
        # daemon's postrm); apt knows no other of our packages any more.
        known = [line.split()[0] for line in c.run(
            'dpkg-query', '-W', '-f=${Package} ${db:Status-Abbrev}\n', *PACKAGES,
            check=False).stdout.splitlines() if line.split()[1:] and line.split()[1] == 'rc']
        log(f'left in state rc (config-files) after remove: {known}')
        if known:
            apt(c.run, 'purge', *known, timeout=300)
        status = c.run('dpkg-query', '-W', '-f=${Package} ${db:Status-Abbrev}\n', *PACKAGES,
                       check=False).stdout
        if any(line.split()[1:] and line.split()[1] != 'un' for line in status.splitlines()):
            raise Failure(f'dpkg still knows our packages after purge:\n{status}')
        # The purge removed the scheduled run's metrics file and its state
        # (debian/diskbenchctl.postrm): the textfile directory the check
        # made is empty again (rmdir fails otherwise).
        rmdir = c.run('rmdir', os.path.dirname(SCHEDULED_OUTPUT), '/var/lib/prometheus', check=False)
        if rmdir.returncode != 0:
            raise Failure(f'after purge: {rmdir.stderr.strip()}')
        after = file_list(root)
        added, gone = sorted(after - before), sorted(before - after)
        show('paths after purge that were not there before the install',
             '\n'.join(added) or '(none)')
        if added or gone:
            raise Failure(f'the root differs from before the install: added {added[:40]}, '
                          f'gone {gone[:40]}')
        log(f'the root has the same {len(after)} paths as before the install')

    with Step('reinstall (apt-get install ./*.deb) and use again'):
        apt(c.run, 'install', *debs, timeout=300)
        # On a running system: the bus reads the activation file and policy
        # at once (the dbus package's triggers; we ship no reload).
        activatable, _ = bus_state(c)
        if not activatable:
            raise Failure('after the reinstall the bus does not know org.diskbench.DiskBench1')
        log('the running bus knows org.diskbench.DiskBench1 right after the install')
        # Into place by rename, as polkitd may read a half-written file.
        rules = os.path.join(root, 'etc/polkit-1/rules.d')
        shutil.copy(os.path.join(root, 'usr/share/doc/diskbenchd/examples/50-diskbench-lab.rules'),
                    os.path.join(rules, '.50-diskbench-lab.rules.tmp'))
        os.rename(os.path.join(rules, '.50-diskbench-lab.rules.tmp'),
                  os.path.join(rules, '50-diskbench-lab.rules'))
        # polkitd reads the rule again through its file monitor; until then
        # the daemon's answer is "not authorized" (status 3).
        def seek_again():
            r = as_user(c, 'diskbenchctl', 'run', 'seek', read_node, 'count=100', '--no-save', check=False)
            if r.returncode not in (0, 3):
                raise Failure(f'seek after the reinstall exited with {r.returncode}: {r.stdout}{r.stderr}')
            return r.returncode == 0
        wait_until(seek_again, 30, 'a seek after the reinstall (polkitd reading the lab rule)', interval=1)
        log('seek after the reinstall: exit status 0')


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--jobs', type=int, default=os.cpu_count() or 2,
                        help='parallel compile jobs of the package build')
    parser.add_argument('--debs', help='test these built packages (a directory with the .debs and '
                        'the .changes) instead of building them: for working on the checks')
    parser.add_argument('--save-debs', help='copy the packages it built (and checked) here')
    args = parser.parse_args()

    def stop(signum, _frame):
        raise Stop(f'signal {signum}')
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGHUP, stop)

    ok = False
    try:
        with contextlib.ExitStack() as cleanups:
            try:
                check(args, cleanups)
                ok = True
            except (Failure, Stop, subprocess.TimeoutExpired) as e:
                log(f'FAILED: {e}')
            finally:
                signal.signal(signal.SIGTERM, signal.SIG_IGN)
                signal.signal(signal.SIGINT, signal.SIG_IGN)
                signal.signal(signal.SIGHUP, signal.SIG_IGN)
                log('cleaning up')
    finally:
        show('steps', '\n'.join(f'{"ok    " if passed else "FAILED"} {took:7.1f} s  {name}'
                                for name, took, passed in TIMES))
        if LEFT_BEHIND:
            log('the cleanup left behind: ' + ', '.join(LEFT_BEHIND))
            ok = False
        log(f'{"PASSED" if ok else "FAILED"} in {time.monotonic() - START:.0f} s')
    sys.exit(0 if ok else 1)


if __name__ == '__main__':
    main()
