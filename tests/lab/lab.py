#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The hardware lab, host side: Debian 12's kernel under QEMU with the
host's root read-only, the lab's emulated drives, and the guest's tests
(guest/lab_guest.py) run against the build's diskbenchd on real disk
drivers. Exit status 0 only when the guest said every test passed.

    sudo tests/lab/run-lab.sh BUILD      (or: meson test -C BUILD --suite lab)

On failure the guest's console and the stack's logs are printed; they stay
in the run's folder with --keep."""

import argparse
import json
import os
import shutil
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from lab_drives import make_images  # noqa: E402
from lab_initramfs import build_initramfs  # noqa: E402
from lab_kernel import CACHE, fetch_kernel  # noqa: E402
from lab_log import log  # noqa: E402
from lab_machine import Machine  # noqa: E402


GUEST_ENVIRONMENT = ('ASAN_OPTIONS', 'UBSAN_OPTIONS', 'LSAN_OPTIONS', 'DISKBENCH_TEST_TIMEOUT_MULTIPLIER')


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('build', help='the meson build folder (its diskbenchd, diskbenchctl and policy)')
    p.add_argument('--accel', choices=['auto', 'kvm', 'tcg'],
                   default=os.environ.get('DISKBENCH_LAB_ACCEL', 'auto'))
    p.add_argument('--timeout', type=int, default=int(os.environ.get('DISKBENCH_LAB_TIMEOUT', '900')),
                   help='seconds the guest may run')
    p.add_argument('--keep', action='store_true', help='keep the run folder (images, logs)')
    p.add_argument('--only', default='', help='unittest names for the guest, comma-separated')
    return p.parse_args()


def print_file(path, tail=None):
    try:
        with open(path, errors='replace') as f:
            text = f.read()
    except OSError:
        return
    if tail:
        text = text[-tail:]
    print(f'==== {path}\n{text}', file=sys.stderr)


def main():
    args = parse_args()
    if os.geteuid() != 0:
        sys.exit('the lab needs root (QEMU reads the whole root filesystem to share it)')
    build = os.path.abspath(args.build)
    for needed in ['daemon/diskbenchd', 'client-cli/diskbenchctl', 'polkit-policy/org.diskbench.policy']:
        if not os.path.exists(os.path.join(build, needed)):
            sys.exit(f'{build} has no {needed}: build first')
    # The guest sees the host's root but lays a fresh tmpfs on /tmp: a build
    # or checkout there is not in the guest ("can't open file lab_guest.py").
    here = os.path.dirname(os.path.abspath(__file__))
    for where, path in (('build', os.path.realpath(build)), ('source tree', os.path.realpath(here))):
        if path == '/tmp' or path.startswith('/tmp/'):
            sys.exit(f'the lab cannot run a {where} under /tmp ({path}): the guest has its own /tmp; '
                     'build in a folder elsewhere (such as /var/tmp)')
    started = time.monotonic()
    kernel = fetch_kernel()
    # Not under /tmp: the guest sees the host's root, and its own /tmp is a
    # fresh tmpfs; the run folder is under /var/tmp, which the guest's
    # overlay shows read-only, and only out/ is shared writable.
    run_dir = tempfile.mkdtemp(prefix='diskbench-lab-', dir='/var/tmp')
    out_dir = os.path.join(run_dir, 'out')
    images = os.path.join(run_dir, 'images')
    os.mkdir(out_dir)
    os.mkdir(images)
    machine = None
    status = 1
    try:
        initramfs = build_initramfs(kernel, os.path.join(run_dir, 'initramfs.cpio'))
        drive_args = make_images(images)
        shutil.copy(os.path.join(images, 'drives.json'), os.path.join(out_dir, 'drives.json'))
        # The sanitizer options of `meson test`'s setup (a sanitized build's
        # findings must be fatal in the guest too), and its time multiplier.
        with open(os.path.join(out_dir, 'guest-env.json'), 'w') as f:
            json.dump({k: v for k, v in os.environ.items() if k in GUEST_ENVIRONMENT}, f)
        guest_args = [f'--build={build}', f'--out=/run/lab-out']
        if args.only:
            guest_args.append(f'--only={args.only.replace(",", "+")}')
        machine = Machine(kernel, initramfs, run_dir, out_dir, drive_args, guest_args,
                          stage2=os.path.join(HERE, 'guest', 'stage2.sh'))
        accel = machine.boot(args.accel)
        # A sanitized build's setup multiplies every test's time (tests/meson.build).
        limit = args.timeout * float(os.environ.get('DISKBENCH_TEST_TIMEOUT_MULTIPLIER', '1'))
        code = machine.wait(limit)
        if code is None:
            log(f'the guest did not end within {limit:.0f} s')
        status_file = os.path.join(out_dir, 'guest-status')
        guest_status = open(status_file).read().strip() if os.path.exists(status_file) else None
        status = 0 if guest_status == '0' else 1
        log(f'guest ({accel}) ended: tests exit status {guest_status}, '
            f'{time.monotonic() - started:.0f} s in all')
        if status != 0:
            print_file(machine.console)
            print_file(os.path.join(out_dir, 'qemu.log'))
            logs = os.path.join(out_dir, 'logs')
            if os.path.isdir(logs):
                for name in sorted(os.listdir(logs)):
                    print_file(os.path.join(logs, name), tail=20000)
        else:
            print_file(os.path.join(out_dir, 'summary.txt'))
    finally:
        if machine:
            machine.stop()
        if args.keep or status != 0:
            log(f'the run folder stays: {run_dir}')
            shutil.rmtree(images, ignore_errors=True)
        else:
            shutil.rmtree(run_dir, ignore_errors=True)
    log(f'kernel cache: {CACHE}')
    return status


if __name__ == '__main__':
    sys.exit(main())
