#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""file-profile against fio on the same ext4 loop file, read and write, like for like.

It makes an ext4 on a loop device over a data-filled file in --dir (as
fs_vs_fio.py does: --direct-io=on, inode tables and journal initialised up
front, no discard), and in each round runs

  ours  `diskbench-engine file-profile MNT file_size=S duration_s=D warmup_s=W
        tests=T mix=M` for each test T of the default preset (SEQ1M Q8T1,
        SEQ1M Q1T1, RND4K Q32T1, RND4K Q1T1), read and written, and beside
        RND4K Q1T1 the mixed test (70 % reads): its own unnamed test file of
        S bytes, filled with pseudo-random data before the tests (not timed);
        with --whole-profile, one job with every test, as a user runs it;
  fio   one job per test and direction on a file of S bytes written anew
        with pseudo-random data before each test's jobs (as ours fills its
        file right before its tests): --ioengine=io_uring --direct=1
        --rw=read|write|randread|randwrite|randrw --rwmixread=70 with the
        same block size, --iodepth, --numjobs (sequential jobs each on their
        own slice, --offset_increment, like ours), --time_based --runtime=D
        --ramp_time=W --end_fsync=1 for writes (ours syncs at the end of each
        write test inside its time), and huge-page buffers
        (--mem=mmaphuge, on a hugetlbfs this script mounts and removes) like
        ours, whose buffers are transparent huge pages (engine_vs_fio.py
        says why that matters on a loop device).

Each test's pair (ours, fio) runs back to back, the order alternating
every round (ours first, then fio first), and the ratio of a test is the
median of the per-round ratios ours/fio with its IQR: a virtual disk drifts
by tens of percent over a minute, and only pairs run seconds apart cancel
that out (pairing whole profiles, a minute apart, put different tests
below 0.98 from one run to the next). MB/s = 10^6 bytes per second; the mix
compares read + write MB/s together.

A benchmark, not a test: it prints figures and judges nothing (target:
ours/fio >= 0.98 on each test). Run as root; it unmounts, detaches and
deletes what it made, also on an error, Ctrl-C or SIGTERM:

    sudo /usr/bin/python3 tests/perf/file_profile_vs_fio.py --build build [--rounds 5]
        [--size 1G] [--duration 3] [--warmup 1] [--only "RND4K Q1T1"] [--engine PATH]
        [--whole-profile]
"""

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from engine_vs_fio import HugetlbFs  # noqa: E402
from fs_vs_fio import Scratch, iqr, parse_size, run, size_label  # noqa: E402

# (label, summary key, fio rw for read, for write, block, depth, threads)
TESTS = [
    ("SEQ1M Q8T1", "seq1m_q8t1", "read", "write", 1 << 20, 8, 1),
    ("SEQ1M Q1T1", "seq1m_q1t1", "read", "write", 1 << 20, 1, 1),
    ("RND4K Q32T1", "rnd4k_q32t1", "randread", "randwrite", 4096, 32, 1),
    ("RND4K Q1T1", "rnd4k_q1t1", "randread", "randwrite", 4096, 1, 1),
]
MIX = ("MIX RND4K Q1T1", "mix", "randrw", 4096, 1, 1)


def tests(args):
    """The profile tests to run: all, or those whose label contains --only."""
    return [t for t in TESTS if not args.only or args.only in t[0]]


def mix_chosen(args):
    return not args.only or args.only in MIX[0]


def units(args):
    """What runs back to back as one pair, ours then fio or fio then ours:
    each profile test (read and write), the mixed test beside RND4K Q1T1 (its
    block and depth); or, with --whole-profile, every test in one job, as a
    user runs file-profile. Pairs of single tests are seconds apart, so the
    virtual disk's drift, tens of percent over a minute, mostly cancels in
    their ratios; whole profiles are about a minute apart."""
    chosen = tests(args)
    if args.whole_profile:
        return [(chosen, mix_chosen(args))]
    mix_base = MIX[0].removeprefix("MIX ")
    return [([t], mix_chosen(args) and t[0] == mix_base) for t in chosen]


def ours(engine, directory, args, unit_tests, with_mix):
    # interval_s=0: fio rests between nothing either.
    out, _ = run([engine, "file-profile", directory, f"file_size={args.size}", f"duration_s={args.duration}",
                  "interval_s=0", f"warmup_s={args.warmup}", "tests=" + ",".join(label for label, *_ in unit_tests),
                  "mix=" + (MIX[0].removeprefix("MIX ") if with_mix else "")])
    s = json.loads(out)["summary"]
    if not s.get("direct_io"):
        raise RuntimeError("the engine did not get O_DIRECT")
    figures = {}
    for label, key, *_ in unit_tests:
        figures[f"{label} read"] = s[f"{key}.read_mb_s"]
        figures[f"{label} write"] = s[f"{key}.write_mb_s"]
    if with_mix:
        figures[f"{MIX[0]} r+w"] = s["mix.read_mb_s"] + s["mix.write_mb_s"]
    return figures


def fio(path, args, rw, bs, depth, threads, huge_buffer, mix=False):
    sequential = rw in ("read", "write")
    size = args.size // threads if sequential else args.size
    cmd = ["fio", "--name=profile", f"--filename={path}", "--ioengine=io_uring", "--direct=1", f"--rw={rw}",
           f"--bs={bs}", f"--iodepth={depth}", f"--numjobs={threads}", f"--size={size}", "--time_based",
           f"--runtime={args.duration}", f"--ramp_time={args.warmup}", "--group_reporting",
           "--norandommap", "--randrepeat=0", f"--mem=mmaphuge:{huge_buffer}", "--output-format=json"]
    if sequential and threads > 1:
        cmd.append(f"--offset_increment={size}")
    if rw != "read" and rw != "randread":
        cmd.append("--end_fsync=1")
    if mix:
        cmd.append("--rwmixread=70")
    out, _ = run(cmd)
    job = json.loads(out)["jobs"][0]
    return (job["read"]["bw_bytes"] + job["write"]["bw_bytes"]) / 1e6


def fio_all(path, args, huge_buffer, unit_tests, with_mix):
    # Ours fills a new test file right before its tests (not timed, but the
    # host is still writing it back when they start): fio's file is written
    # anew the same way, so both meet the same write-back.
    lay_out(path, args.size)
    figures = {}
    for label, _key, read_rw, write_rw, bs, depth, threads in unit_tests:
        figures[f"{label} read"] = fio(path, args, read_rw, bs, depth, threads, huge_buffer)
        figures[f"{label} write"] = fio(path, args, write_rw, bs, depth, threads, huge_buffer)
    if with_mix:
        label, _key, rw, bs, depth, threads = MIX
        figures[f"{label} r+w"] = fio(path, args, rw, bs, depth, threads, huge_buffer, mix=True)
    return figures


def lay_out(path, size):
    """fio's test file, filled with pseudo-random data (as ours fills its own)."""
    chunk = os.urandom(8 << 20)
    with open(path, "wb") as f:
        for _ in range(size // len(chunk)):
            f.write(chunk)
        f.flush()
        os.fsync(f.fileno())


def main():
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, lambda *_: sys.exit(1))
    signal.signal(signal.SIGINT, signal.default_int_handler)
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default="build", help="meson build directory")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--size", type=parse_size, default=1 << 30, help="test file size (default 1G)")
    parser.add_argument("--duration", type=float, default=3.0, help="measured seconds per test and direction")
    parser.add_argument("--warmup", type=float, default=1.0, help="warm-up seconds per test and direction")
    parser.add_argument("--backing-size", type=parse_size, default=3 << 30, help="loop file size (default 3G)")
    parser.add_argument("--dir", default="/var/tmp", help="where the backing file goes")
    parser.add_argument("--verbose", action="store_true", help="print every round's figures")
    parser.add_argument("--only", help="run only the tests whose label contains this, e.g. \"RND4K Q1T1\"")
    parser.add_argument("--engine", help="the diskbench-engine to run (default: the build's)")
    parser.add_argument("--whole-profile", action="store_true",
                        help="pair whole profiles (ours: one file-profile job) instead of each test")
    args = parser.parse_args()
    if os.geteuid() != 0:
        sys.exit("run as root: it attaches a loop device and mounts it")
    engine = args.engine or os.path.join(args.build, "daemon", "tools", "diskbench-engine")
    if not os.access(engine, os.X_OK):
        sys.exit(f"{engine} not found: build first")
    engine = os.path.abspath(engine)
    if not tests(args):
        sys.exit(f"--only {args.only!r} matches no profile test (the mixed test runs beside RND4K Q1T1)")
    if args.size * 2 > args.backing_size * 0.9:
        sys.exit("--backing-size too small for two test files of --size")

    scratch = Scratch()
    try:
        scratch.setup(args.dir, args.backing_size)
        fio_file = os.path.join(scratch.mountpoint, "fio.dat")
        lay_out(fio_file, args.size)
        with HugetlbFs() as huge:
            rounds = {"ours": [], "fio": []}
            for round_ in range(args.rounds):
                figures = {"ours": {}, "fio": {}}
                for unit_tests, with_mix in units(args):
                    order = [("ours", lambda: ours(engine, scratch.mountpoint, args, unit_tests, with_mix)),
                             ("fio", lambda: fio_all(fio_file, args, huge.buffer_file, unit_tests, with_mix))]
                    for name, measure in (order if round_ % 2 == 0 else order[::-1]):
                        figures[name].update(measure())
                for name in rounds:
                    rounds[name].append(figures[name])
                print(f"round {round_ + 1}/{args.rounds} done", file=sys.stderr, flush=True)
        labels = list(rounds["ours"][0])
        print(f"\nfile-profile vs fio on ext4 on a loop device (--direct-io=on over {args.dir}), test file "
              f"{size_label(args.size)}, {args.duration:g} s after {args.warmup:g} s warm-up per test, "
              f"{args.rounds} rounds alternating the order, "
              f"{'whole profiles' if args.whole_profile else 'each test'} paired; "
              f"ratio = median of per-round ours/fio with its IQR\n")
        header = f"| {'test':<22} | {'ours MB/s':>10} | {'fio MB/s':>10} | {'ours/fio':>8} | {'IQR':>11} |"
        print(header)
        print("|" + "|".join("-" * (len(c)) for c in header.split("|")[1:-1]) + "|")
        for label in labels:
            o = [r[label] for r in rounds["ours"]]
            f = [r[label] for r in rounds["fio"]]
            ratios = [a / b for a, b in zip(o, f)]
            lo, hi = iqr(ratios)
            print(f"| {label:<22} | {statistics.median(o):>10.1f} | {statistics.median(f):>10.1f} | "
                  f"{statistics.median(ratios):>8.3f} | {lo:>5.2f}-{hi:<5.2f} |", flush=True)
            if args.verbose:
                print(f"    ours {[round(x, 1) for x in o]}\n    fio  {[round(x, 1) for x in f]}")
        fio_version = subprocess.run(["fio", "--version"], capture_output=True, text=True).stdout.strip()
        print(f"\n{fio_version}; kernel {os.uname().release}")
    finally:
        scratch.close()


if __name__ == "__main__":
    main()
