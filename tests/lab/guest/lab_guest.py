#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The hardware lab inside the guest: loads the disk drivers, starts udevd
and lets it see every drive (coldplug), builds the storage stacks (md
RAID1 → LUKS2 → LVM, dm-flakey, dm-delay), starts the integration tests'
stack (private system bus, polkitd, udisksd, the build's diskbenchd) once,
and runs the lab's tests (test_lab_*.py) against it.

Its exit status is the verdict; the host reads it from the shared output
folder, with the stack's logs (logs/) when a test failed and summary.txt
(what diskbench said about each drive against the truth) in any case.

Arguments come as one comma-separated word from the kernel command line
(stage2.sh): --build=DIR,--out=DIR[,--only=TEST+TEST]."""

import json
import os
import sys
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(SOURCE, 'devtools', 'stack'))

import lab_context  # noqa: E402
import lab_storage  # noqa: E402


def parse(argv):
    words = [w for arg in argv for w in arg.split(',') if w]
    options = {}
    for word in words:
        key, _, value = word.partition('=')
        options[key.lstrip('-')] = value
    return options


def main():
    options = parse(sys.argv[1:])
    build = options['build']
    out = options.get('out', '/run/lab-out')
    os.environ.update({
        'DISKBENCHD': os.path.join(build, 'daemon', 'diskbenchd'),
        'DISKBENCHCTL': os.path.join(build, 'client-cli', 'diskbenchctl'),
        'DISKBENCH_POLKIT_POLICY': os.path.join(build, 'polkit-policy', 'org.diskbench.policy'),
        'DISKBENCH_BUS_POLICY': os.path.join(SOURCE, 'dbus-interfaces', 'org.diskbench.DiskBench1.conf'),
    })
    with open(os.path.join(out, 'guest-env.json')) as f:
        os.environ.update(json.load(f))
    # The stack's configuration reads these (devtools/stack/stack.py).
    from stack import CONFIG
    CONFIG.load([])
    started = time.monotonic()
    lab_context.OUT = out
    lab_context.BUILD = build
    hardware = lab_storage.Hardware(out)
    ok = False
    try:
        hardware.bring_up()
        lab_context.HARDWARE = hardware
        lab_context.start_stack()
        print(f'lab_guest: hardware and stack up in {time.monotonic() - started:.0f} s', flush=True)
        loader = unittest.TestLoader()
        if options.get('only'):
            suite = loader.loadTestsFromNames(options['only'].split('+'))
        else:
            suite = loader.discover(HERE, pattern='test_lab_*.py', top_level_dir=HERE)
        result = unittest.TextTestRunner(stream=sys.stdout, verbosity=2).run(suite)
        ok = result.wasSuccessful() and result.testsRun > 0 and not result.skipped
        if result.skipped:
            print('FAIL: lab tests were skipped; a lab test must never skip', flush=True)
    except Exception:
        import traceback
        traceback.print_exc()
    finally:
        lab_context.write_summary()
        if not ok:
            lab_context.save_logs()
        problems = lab_context.stop_stack()
        if problems:
            print('FAIL: the stack ended with problems:\n  ' + '\n  '.join(problems), flush=True)
            ok = False
        hardware.tear_down()
    print(f'lab_guest: {"passed" if ok else "FAILED"} in {time.monotonic() - started:.0f} s', flush=True)
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
