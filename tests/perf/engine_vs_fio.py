#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Our engine against fio on the same loop device, in one run.

For each test of the default profile (SEQ1M Q8T1, SEQ1M Q1T1, RND4K Q32T1,
RND4K Q1T1) it alternates diskbench-engine and `fio --ioengine=io_uring
--direct=1` with the same block size, queue depth, threads, test area,
warm-up and duration, many short rounds in ABBA order, and prints medians:
MB/s, the ratio ours/fio, p50/p99 latency (fio's total latency, submission to
completion, which is what we time) and CPU. The ratio is the median of the
per-round ratios (each round runs both back to back), with its spread, because
a virtual disk's speed drifts by tens of percent from second to second and
only paired rounds cancel that out. Then it shows that the engine's memory stays flat over a
whole-surface run, however large the device.

Buffers: the engine keeps its I/O buffers in transparent huge pages, so a
1 MiB read is one physically contiguous buffer and reaches the device whole.
fio's buffers are ordinary 4 KiB pages whose physical layout is luck: a 1 MiB
read of 256 scattered pages exceeds a loop device's 128 segments and is split
in two (seen here: 1024 loop requests for 512 fio reads in one run, 512 in
the next). To compare like with like, fio gets huge pages too
(--mem=mmaphuge on a hugetlbfs this script mounts and removes), and a second
fio column shows fio as people usually run it.

A benchmark, not a test: it prints figures and judges nothing. Run as root
(it attaches loop devices and reserves a few huge pages, and gives all of it
back):

    sudo tests/perf/engine_vs_fio.py --build build [--rounds 10] [--duration 2]
        [--dir /dev/shm]   # a RAM-backed loop: CPU-bound, shows per-I/O overhead
"""

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time

TESTS = [
    # label, fio rw, block size, queue depth, threads
    ("SEQ1M Q8T1", "read", "1M", 8, 1),
    ("SEQ1M Q1T1", "read", "1M", 1, 1),
    ("RND4K Q32T1", "randread", "4k", 32, 1),
    ("RND4K Q1T1", "randread", "4k", 1, 1),
]


class LoopDevice:
    """losetup --direct-io=on over a file; detached on exit, also on error."""

    def __init__(self, backing):
        self.path = subprocess.run(
            ["losetup", "--find", "--show", "--direct-io=on", backing],
            check=True, capture_output=True, text=True).stdout.strip()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        subprocess.run(["losetup", "--detach", self.path], check=False)


def fill(path, size):
    """Real data, no holes: fio and the engine must both read the device."""
    chunk = os.urandom(8 << 20)
    with open(path, "wb") as f:
        for _ in range(size // len(chunk)):
            f.write(chunk)
        f.flush()
        os.fsync(f.fileno())


def run_ours(engine, device, label, region, warmup, duration):
    out = subprocess.run(
        [engine, "profile", device, f"tests={label}", f"region_size={region}",
         f"warmup_s={warmup}", f"duration_s={duration}"],
        check=True, capture_output=True, text=True).stdout
    result = json.loads(out)
    key = label.lower().replace(" ", "_") + "."
    s = result["summary"]
    return {
        "mb_s": s[key + "throughput_mb_s"],
        "p50_us": s[key + "latency_p50_us"],
        "p99_us": s[key + "latency_p99_us"],
        "cpu": s[key + "cpu_percent"],
        "backend": result["backend"],
    }


class HugetlbFs:
    """A hugetlbfs mount with a few 2 MiB pages reserved for fio's buffers."""

    PAGES = 16  # SEQ1M Q8T1 needs 8 MiB of buffers, the rest far less

    def __enter__(self):
        with open("/proc/sys/vm/nr_hugepages") as f:
            self.old_pages = int(f.read())
        with open("/proc/sys/vm/nr_hugepages", "w") as f:
            f.write(str(self.old_pages + self.PAGES))
        self.mountpoint = tempfile.mkdtemp(prefix="diskbench-hugetlbfs-")
        subprocess.run(["mount", "-t", "hugetlbfs", "none", self.mountpoint], check=True)
        self.buffer_file = os.path.join(self.mountpoint, "fio-buffers")
        return self

    def __exit__(self, *exc):
        subprocess.run(["umount", self.mountpoint], check=False)
        os.rmdir(self.mountpoint)
        with open("/proc/sys/vm/nr_hugepages", "w") as f:
            f.write(str(self.old_pages))


def run_fio(device, rw, bs, depth, threads, region, warmup, duration, huge_buffer=None):
    memory = [f"--mem=mmaphuge:{huge_buffer}"] if huge_buffer else []
    out = subprocess.run(
        ["fio", "--name=compare", f"--filename={device}", "--readonly", "--direct=1"] + memory + [
         "--ioengine=io_uring", f"--rw={rw}", f"--bs={bs}", f"--iodepth={depth}",
         f"--numjobs={threads}", f"--size={region}", "--time_based",
         f"--runtime={duration}", f"--ramp_time={warmup}", "--norandommap",
         "--randrepeat=0", "--group_reporting", "--lat_percentiles=1",
         "--output-format=json"],
        check=True, capture_output=True, text=True).stdout
    job = json.loads(out)["jobs"][0]
    read = job["read"]
    pct = read["lat_ns"]["percentile"]
    return {
        "mb_s": read["bw_bytes"] / 1e6,
        "p50_us": pct["50.000000"] / 1000,
        "p99_us": pct["99.000000"] / 1000,
        "cpu": job["usr_cpu"] + job["sys_cpu"],
    }


def median_of(runs, key):
    return statistics.median(r[key] for r in runs)


def compare(engine, device, args):
    region = args.region
    print(f"\nengine vs fio on {device} (loop, direct I/O), test area {region >> 20} MiB, "
          f"{args.rounds} rounds x {args.duration} s (+{args.warmup} s warm-up) each, medians.\n"
          f"'fio' has huge-page buffers like ours; 'fio 4K' is fio's default memory.\n")
    header = (f"{'test':<12} {'ours MB/s':>10} {'fio MB/s':>10} {'ratio':>6} {'ratio IQR':>10}  "
              f"{'ours p50/p99 us':>17} {'fio p50/p99 us':>17} {'p50 d%':>7} {'p99 d%':>7} "
              f"{'ours CPU%':>9} {'fio CPU%':>9} {'fio 4K MB/s':>11}")
    print(header)
    print("-" * len(header))
    backend = None
    with HugetlbFs() as huge:
        for label, rw, bs, depth, threads in TESTS:
            if args.only and args.only not in label:
                continue
            runs = {"ours": [], "fio": [], "fio4k": []}
            for round_ in range(args.rounds):
                # Rotate the order so slow drift of the device hits all three alike.
                order = ["ours", "fio", "fio4k"]
                order = order[round_ % 3:] + order[:round_ % 3]
                for who in order:
                    if who == "ours":
                        runs["ours"].append(run_ours(engine, device, label, region, args.warmup, args.duration))
                        backend = runs["ours"][-1]["backend"]
                    else:
                        runs[who].append(run_fio(device, rw, bs, depth, threads, region, args.warmup,
                                                 args.duration, huge.buffer_file if who == "fio" else None))
            keys = ("mb_s", "p50_us", "p99_us", "cpu")
            o = {k: median_of(runs["ours"], k) for k in keys}
            f = {k: median_of(runs["fio"], k) for k in keys}
            plain = median_of(runs["fio4k"], "mb_s")
            ratios = sorted(a["mb_s"] / b["mb_s"] for a, b in zip(runs["ours"], runs["fio"]))
            ratio = statistics.median(ratios)
            spread = f"{ratios[len(ratios) // 4]:.2f}-{ratios[(3 * len(ratios)) // 4]:.2f}"
            print(f"{label:<12} {o['mb_s']:>10.1f} {f['mb_s']:>10.1f} {ratio:>6.3f} {spread:>10}  "
                  f"{o['p50_us']:>8.1f}/{o['p99_us']:<8.1f} {f['p50_us']:>8.1f}/{f['p99_us']:<8.1f} "
                  f"{(o['p50_us'] / f['p50_us'] - 1) * 100:>+7.1f} {(o['p99_us'] / f['p99_us'] - 1) * 100:>+7.1f} "
                  f"{o['cpu']:>9.1f} {f['cpu']:>9.1f} {plain:>11.1f}", flush=True)
            if args.verbose:
                for who in runs:
                    print(f"   {who:<5} MB/s per round:", [round(r["mb_s"], 1) for r in runs[who]])
    print(f"\nour backend: {backend}; fio {subprocess.run(['fio', '--version'], capture_output=True, text=True).stdout.strip()}")


def rss_kib(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except FileNotFoundError:
        pass
    return None


def surface_memory(engine, workdir, sizes_gib):
    print("\nengine memory over a whole-surface read (surface, 1 MiB reads, 1000 buckets):\n")
    print(f"{'device':>8} {'seconds':>8} {'RSS at 10%':>11} {'at 50%':>8} {'at 90%':>8} {'peak':>8}  (KiB)")
    for gib in sizes_gib:
        backing = os.path.join(workdir, f"surface-{gib}g.img")
        # Sparse on purpose: this measures memory, not the device, and the
        # holes read back as zeros at memory speed, so a large device is quick.
        with open(backing, "wb") as f:
            f.truncate(gib << 30)
        with LoopDevice(backing) as loop:
            samples = []
            start = time.monotonic()
            proc = subprocess.Popen([engine, "surface", loop.path], stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, text=True)
            out_chunks = []
            reader = threading.Thread(target=lambda: out_chunks.append(proc.stdout.read()))
            reader.start()
            while proc.poll() is None:
                rss = rss_kib(proc.pid)
                if rss is not None:
                    samples.append((time.monotonic() - start, rss))
                time.sleep(0.02)
            reader.join()
            elapsed = time.monotonic() - start
            if proc.returncode != 0:
                print(f"surface failed: {proc.stderr.read()}", file=sys.stderr)
                continue
            result = json.loads(out_chunks[0])

            def at(fraction):
                wanted = elapsed * fraction
                return min(samples, key=lambda s: abs(s[0] - wanted))[1] if samples else 0
            print(f"{gib:>6} GiB {elapsed:>8.1f} {at(0.1):>11} {at(0.5):>8} {at(0.9):>8} "
                  f"{max(s[1] for s in samples) if samples else 0:>8}  "
                  f"({result['summary']['buckets']} buckets, {len(result['series'][0]['points'])} points)")
        os.unlink(backing)


def main():
    # Ctrl-C or kill: unwind normally so every loop device is detached.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default="build", help="meson build directory")
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--duration", type=float, default=2)
    parser.add_argument("--warmup", type=float, default=0.5)
    parser.add_argument("--region", type=int, default=1 << 30, help="test area in bytes")
    parser.add_argument("--dir", default="/var/tmp", help="where the backing file goes")
    parser.add_argument("--surface-sizes", default="1,16", help="GiB sizes for the memory run")
    parser.add_argument("--skip-compare", action="store_true")
    parser.add_argument("--only", help="run only the tests whose label contains this, e.g. SEQ1M")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()

    engine = os.path.join(args.build, "daemon", "tools", "diskbench-engine")
    if not os.access(engine, os.X_OK):
        sys.exit(f"{engine} not found: build first (meson setup {args.build} && ninja -C {args.build})")
    with tempfile.TemporaryDirectory(prefix="diskbench-perf-", dir=args.dir) as workdir:
        if not args.skip_compare:
            backing = os.path.join(workdir, "backing.img")
            fill(backing, args.region)
            with LoopDevice(backing) as loop:
                compare(engine, loop.path, args)
        surface_memory(engine, workdir, [int(x) for x in args.surface_sizes.split(",")])


if __name__ == "__main__":
    main()
