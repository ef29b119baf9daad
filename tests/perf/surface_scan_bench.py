#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The error-tolerant surface scan: its cost on a healthy disk, and its time
and memory on a dead one.

1. Healthy: `diskbench-engine surface` of this build against the same
   command of another build (--baseline: an engine from before the scan
   tolerated read errors, e.g. built from a git worktree of an older
   commit), on one loop device (--direct-io=on) over a data-filled file in
   --dir (/dev/shm: the CPU decides, so the engine's own cost shows).
   Rounds alternate which runs first; printed: each one's median MB/s and
   the median of the per-round ratios new/baseline with its IQR (target
   >= 0.98).
2. Dead regions (with --fuse, the stalling-fuse helper meson builds under
   tests/integration): a loop device over its FUSE file with N bad blocks
   of one sector each planted one sector apart from each other (so N
   ranges that cannot merge), scanned with max_bad_percent=100 and
   max_bad_ranges above N; printed: the seconds, the ranges found, and the
   engine's peak resident memory (getrusage of the child), for N = 0,
   1000, 10000 and 100000: memory must stay flat (at most 10,000 ranges
   are kept, the rest counted).

A benchmark, not a test: it prints figures and judges nothing. Run as root;
it detaches, unmounts and deletes what it made, also on an error or Ctrl-C:

    sudo /usr/bin/python3 tests/perf/surface_scan_bench.py --engine build/daemon/tools/diskbench-engine \\
        --baseline /tmp/old/daemon/tools/diskbench-engine [--dir /dev/shm] [--size 1G] [--rounds 5] \\
        [--fuse build/tests/integration/stalling-fuse]
"""

import argparse
import contextlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

MiB = 1 << 20
SECTOR = 512


def parse_size(text):
    units = {'K': 1 << 10, 'M': 1 << 20, 'G': 1 << 30}
    return int(float(text[:-1]) * units[text[-1].upper()]) if text[-1].upper() in units else int(text)


def fill(path, size):
    chunk = os.urandom(8 * MiB)
    with open(path, 'wb') as f:
        for _ in range(size // len(chunk)):
            f.write(chunk)
        f.flush()
        os.fsync(f.fileno())


@contextlib.contextmanager
def loop_over(path):
    node = subprocess.run(['losetup', '--find', '--show', '--direct-io=on', path], check=True,
                          capture_output=True, text=True).stdout.strip()
    try:
        yield node
    finally:
        subprocess.run(['losetup', '--detach', node], check=False)


def scan(engine, node, *params):
    """One surface scan; (seconds, summary, peak RSS of that engine run in MiB,
    from its own rusage: wait4)."""
    started = time.monotonic()
    with tempfile.TemporaryFile('w+') as out, tempfile.TemporaryFile('w+') as err:
        proc = subprocess.Popen([engine, 'surface', node, *params], stdout=out, stderr=err, text=True)
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        took = time.monotonic() - started
        out.seek(0)
        err.seek(0)
        if proc.returncode != 0:
            sys.exit(f'{engine} surface {node}: {err.read().strip()}')
        return took, json.loads(out.read())['summary'], usage.ru_maxrss / 1024


def iqr(values):
    v = sorted(values)
    return v[len(v) // 4], v[(3 * len(v)) // 4]


def healthy(args, workdir):
    backing = os.path.join(workdir, 'healthy.img')
    fill(backing, args.size)
    rates = {'new': [], 'baseline': []}
    ratios = []
    with loop_over(backing) as node:
        for round_ in range(args.rounds):
            order = ['new', 'baseline'] if round_ % 2 == 0 else ['baseline', 'new']
            got = {}
            for which in order:
                _, summary, _ = scan(args.engine if which == 'new' else args.baseline, node)
                got[which] = summary['throughput_mb_s']
                rates[which].append(got[which])
            ratios.append(got['new'] / got['baseline'])
            print(f'  round {round_ + 1}: new {got["new"]:.0f} MB/s, baseline {got["baseline"]:.0f} MB/s',
                  flush=True)
    low, high = iqr(ratios)
    print(f'healthy {args.size // MiB} MiB in {args.dir}, {args.rounds} rounds: '
          f'new {statistics.median(rates["new"]):.0f} MB/s, baseline {statistics.median(rates["baseline"]):.0f} MB/s, '
          f'new/baseline {statistics.median(ratios):.3f} (IQR {low:.3f}-{high:.3f})')


def dead_regions(args, workdir):
    size = 256 * MiB
    backing = os.path.join(workdir, 'sick.img')
    fill(backing, size)
    mountpoint = os.path.join(workdir, 'fuse')
    os.mkdir(mountpoint)
    flag = os.path.join(workdir, 'stalled')
    server = subprocess.Popen([args.fuse, backing, flag, mountpoint], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    try:
        image = os.path.join(mountpoint, 'disk.img')
        for _ in range(100):
            if os.path.exists(image):
                break
            time.sleep(0.05)
        with loop_over(image) as node:
            print('dead regions on a 256 MiB FUSE-backed loop device (bad sectors one sector apart):')
            for count in (0, 1000, 10000, 100000):
                control = flag + '.control'
                with open(control + '.new', 'w') as f:
                    for i in range(count):
                        f.write(f'eio {16 * MiB + 2 * i * SECTOR} {SECTOR}\n')
                os.rename(control + '.new', control)
                took, summary, rss = scan(args.engine, node, 'max_bad_percent=100',
                                          f'max_bad_ranges={count + 1}', 'reread_limit=100000')
                print(f'  {count:>6} bad sectors: {took:6.1f} s, {summary["bad_ranges"]} ranges found '
                      f'({summary.get("bad_ranges_not_kept", 0)} not kept), {summary["failed_reads"]} failed '
                      f'reads, peak RSS {rss:.1f} MiB', flush=True)
    finally:
        subprocess.run(['fusermount3', '-u', mountpoint], check=False, capture_output=True)
        server.terminate()
        server.wait(10)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--engine', required=True, help='this build\'s diskbench-engine')
    parser.add_argument('--baseline', help='an older diskbench-engine to compare the healthy scan with')
    parser.add_argument('--dir', default='/dev/shm')
    parser.add_argument('--size', type=parse_size, default=parse_size('1G'))
    parser.add_argument('--rounds', type=int, default=5)
    parser.add_argument('--fuse', help='the stalling-fuse helper, for the dead-region figures')
    args = parser.parse_args()
    if os.geteuid() != 0:
        sys.exit('run as root (loop devices)')
    workdir = tempfile.mkdtemp(prefix='diskbench-scanperf-', dir=args.dir)
    try:
        if args.baseline:
            healthy(args, workdir)
        if args.fuse:
            dead_regions(args, workdir)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == '__main__':
    main()
