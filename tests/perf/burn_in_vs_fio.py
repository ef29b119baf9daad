#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The burn-in's two passes against fio on the same loop device.

`diskbench-engine burn-in` (one cycle: every block written at QD 32 with
1 MiB blocks and one fdatasync, then every block read back and compared)
against, on the same device and in the same round:
  fio write   --rw=write --bs=1M --iodepth=32 --direct=1 --end_fsync=1
              (the write pass alone, no verification data)
  fio read    --rw=read --bs=1M --iodepth=32 --direct=1 (a verify read
              alone: reading without comparing)
Rounds alternate which runs first (ABBA), and the ratios ours/fio are the
medians of the per-round ratios with their interquartile range, because a
virtual disk's speed drifts from second to second and only paired rounds
cancel that out. Also printed: the engine's CPU per GiB moved beyond the
I/O (user + system time of the process, from wait4), which is what eight
drives at once cost the daemon.

The device is a loop device (--direct-io=on) over a file in --dir
(/dev/shm: the CPU decides, so the engine's own cost shows; /var/tmp for a
disk-backed one). A benchmark, not a test: it prints figures and judges
nothing. Run as root; it detaches and deletes what it made, also on an
error or Ctrl-C:

    sudo /usr/bin/python3 tests/perf/burn_in_vs_fio.py --engine build/daemon/tools/diskbench-engine \\
        [--dir /dev/shm] [--size 2G] [--rounds 6]
"""

import argparse
import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile

MiB = 1 << 20


def parse_size(text):
    units = {'K': 1 << 10, 'M': 1 << 20, 'G': 1 << 30}
    return int(float(text[:-1]) * units[text[-1].upper()]) if text[-1].upper() in units else int(text)


@contextlib.contextmanager
def loop_over(directory, size):
    fd, path = tempfile.mkstemp(prefix='burn-in-bench-', suffix='.img', dir=directory)
    try:
        os.ftruncate(fd, size)
        os.close(fd)
        node = subprocess.run(['losetup', '--find', '--show', '--direct-io=on', path], check=True,
                              capture_output=True, text=True).stdout.strip()
        try:
            # Every page of the backing file allocated once, so no round
            # pays for tmpfs's first touch.
            subprocess.run(['dd', 'if=/dev/zero', f'of={node}', 'bs=1M', 'oflag=direct', 'status=none',
                            f'count={size // MiB}'], check=True)
            yield node
        finally:
            subprocess.run(['losetup', '--detach', node], check=False)
    finally:
        os.unlink(path)


def timed(argv):
    """Runs ARGV; (stdout, CPU seconds of that process from wait4)."""
    with tempfile.TemporaryFile('w+') as out, tempfile.TemporaryFile('w+') as err:
        proc = subprocess.Popen(argv, stdout=out, stderr=err, text=True)
        _, status, usage = os.wait4(proc.pid, 0)
        out.seek(0)
        err.seek(0)
        if os.waitstatus_to_exitcode(status) != 0:
            raise RuntimeError(f'{" ".join(argv)} failed: {err.read()[-2000:]}')
        return out.read(), usage.ru_utime + usage.ru_stime


def fio(node, rw):
    argv = ['fio', '--name=bench', f'--filename={node}', f'--rw={rw}', '--bs=1M', '--iodepth=32', '--direct=1',
            '--ioengine=io_uring', '--size=100%', '--output-format=json']
    argv += ['--end_fsync=1'] if rw == 'write' else ['--readonly']
    out, _ = timed(argv)
    job = json.loads(out)['jobs'][0]
    return job['write' if rw == 'write' else 'read']['bw_bytes'] / 1e6


def ours(engine, node):
    out, cpu = timed([engine, 'burn-in', node, 'mode=destroy', 'confirm=bench'])
    summary = json.loads(out)['summary']
    if summary['verdict'] != 'pass':
        raise RuntimeError(f'the burn-in failed a healthy loop device: {summary["verdict_reasons"]}')
    return summary['write_mb_s'], summary['read_mb_s'], cpu, summary['written_bytes'] + summary['verified_bytes']


def quartiles(values):
    if len(values) < 2:
        return values[0], values[0]
    q = statistics.quantiles(values, n=4)
    return q[0], q[2]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--engine', required=True)
    parser.add_argument('--dir', default='/dev/shm')
    parser.add_argument('--size', default='2G')
    parser.add_argument('--rounds', type=int, default=6)
    args = parser.parse_args()
    size = parse_size(args.size)
    writes, reads, fio_writes, fio_reads, cpu_per_gib = [], [], [], [], []
    with loop_over(args.dir, size) as node:
        for round_number in range(args.rounds):
            def run_ours():
                w, r, cpu, moved = ours(args.engine, node)
                writes.append(w)
                reads.append(r)
                cpu_per_gib.append(cpu / (moved / (1 << 30)))

            def run_fio():
                fio_writes.append(fio(node, 'write'))
                fio_reads.append(fio(node, 'read'))
            for step in ((run_ours, run_fio) if round_number % 2 == 0 else (run_fio, run_ours)):
                step()
    write_ratios = [a / b for a, b in zip(writes, fio_writes)]
    read_ratios = [a / b for a, b in zip(reads, fio_reads)]
    print(f'burn-in against fio on {node} ({args.dir}, {size // MiB} MiB), {args.rounds} rounds ABBA, medians')
    print(f'{"":14}{"ours MB/s":>11}{"fio MB/s":>10}{"ours/fio":>10}{"IQR":>14}')
    for name, mine, theirs, ratios in (('write pass', writes, fio_writes, write_ratios),
                                       ('verify pass', reads, fio_reads, read_ratios)):
        low, high = quartiles(ratios)
        print(f'{name:14}{statistics.median(mine):11.0f}{statistics.median(theirs):10.0f}'
              f'{statistics.median(ratios):10.3f}{low:8.3f}-{high:.3f}')
    print(f'engine CPU: {statistics.median(cpu_per_gib):.3f} s per GiB written or verified '
          f'(user + system, the whole process)')
    return 0


if __name__ == '__main__':
    sys.exit(main())
