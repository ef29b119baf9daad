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

fio columns (all io_uring, --direct=1 --readonly --norandommap --randrepeat=0):
  fio huge   huge-page buffers like ours (see Buffers): the like-for-like anchor
  fio lean   fio's default memory, what fio users run for peak numbers
  fio fixed  lean plus --fixedbufs --registerfiles: fio's fastest way to drive the ring
The ratios ours/huge, ours/lean and ours/fixed are medians of per-round
ratios with their interquartile range. Context switches and CPU migrations
per I/O (perf stat over the whole process, warm-up included, divided by
IOPS x (warm-up + duration); getrusage's context switches when perf is
missing) show how often each sleeps and moves between CPUs.

--daemon adds a column that runs the same tests through diskbenchd: the
integration test stack (tests/integration/stack.py: a private system bus,
polkitd, udevd, udisksd and the build's diskbenchd) is brought up once, the
same loop device is shown to udisks, and each round calls StartBenchmark
"profile" with the same parameters as a test user and reads the Summary of
the job's Completed signal. Its ratio is daemon/ours.

Buffers: the engine keeps its I/O buffers in transparent huge pages, so a
1 MiB read is one physically contiguous buffer and reaches the device whole.
fio's buffers are ordinary 4 KiB pages whose physical layout is luck: a 1 MiB
read of 256 scattered pages exceeds a loop device's 128 segments and is split
in two (seen here: 1024 loop requests for 512 fio reads in one run, 512 in
the next). To compare like with like, fio gets huge pages too
(--mem=mmaphuge on a hugetlbfs this script mounts and removes), and a second
fio column shows fio as people usually run it.

--writes measures the destroy-mode writes instead (issue 43), on the same
loop device over our own file: ours is `profile write=true select=write
mode=destroy` (the write column alone, each test's queue full and one
fdatasync at the end inside its time), fio the same job with
--rw=write/randwrite --end_fsync=1 (and no --readonly), the daemon column
the same profile through diskbenchd. The figures are the writes' own.

A benchmark, not a test: it prints figures and judges nothing. Run as root
(it attaches loop devices and reserves a few huge pages, and gives all of it
back):

    sudo tests/perf/engine_vs_fio.py --build build [--rounds 10] [--duration 2]
        [--dir /dev/shm]   # a RAM-backed loop: CPU-bound, shows per-I/O overhead
        [--daemon]         # also through diskbenchd on a private bus
"""

import argparse
import json
import os
import resource
import shutil
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

    # The kernel's default depth of a loop device's queue. A loop device's
    # queue outlives its detach: a test that made one shallower (the io-wq
    # test sets 4) and failed before putting it back would leave the next
    # attach with it, and at 4 requests the kernel punts every read beyond
    # them to io-wq: RND4K Q32T1 measured 0.4 of the IOPS that way.
    QUEUE_REQUESTS = 128

    def __init__(self, backing):
        self.path = subprocess.run(
            ["losetup", "--find", "--show", "--direct-io=on", backing],
            check=True, capture_output=True, text=True).stdout.strip()
        queue = f"/sys/block/{os.path.basename(self.path)}/queue/nr_requests"
        with open(queue) as f:
            self.found_requests = int(f.read())
        if self.found_requests != self.QUEUE_REQUESTS:
            with open(queue, "w") as f:
                f.write(str(self.QUEUE_REQUESTS))

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


class Counted:
    """Runs a command and counts its context switches and CPU migrations:
    with `perf stat` (software events, whole process tree) when perf works,
    else getrusage of the waited-for children (context switches only)."""

    def __init__(self, use_perf):
        self.perf = use_perf and shutil.which("perf") is not None and subprocess.run(
            ["perf", "stat", "-x,", "-e", "context-switches", "true"],
            capture_output=True).returncode == 0

    @staticmethod
    def checked(argv, env):
        """Runs argv; a failure raises with the program's own words."""
        done = subprocess.run(argv, capture_output=True, text=True, env=env)
        if done.returncode != 0 or not done.stdout.strip():
            raise RuntimeError(f"{' '.join(argv)} failed ({done.returncode}): {done.stderr.strip()[-2000:]}")
        return done.stdout

    def run(self, argv, env=None):
        if self.perf:
            with tempfile.NamedTemporaryFile("r", prefix="diskbench-perf-stat-") as stat:
                out = self.checked(["perf", "stat", "-x,", "-o", stat.name,
                                    "-e", "context-switches,cpu-migrations"] + argv, env)
                counts = {}
                for line in stat.read().splitlines():
                    fields = line.split(",")
                    if len(fields) > 2 and fields[0].strip().isdigit():
                        counts[fields[2]] = int(fields[0])
            return out, counts.get("context-switches"), counts.get("cpu-migrations")
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        out = self.checked(argv, env)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        switches = (after.ru_nvcsw + after.ru_nivcsw) - (before.ru_nvcsw + before.ru_nivcsw)
        return out, switches, None


def per_io(count, iops, seconds):
    """Events per I/O: the counts cover warm-up and run, so divide by the
    I/Os of both (IOPS of the run times their length)."""
    if count is None or iops <= 0:
        return None
    return count / (iops * seconds)


def block_bytes(label):
    return 4096 if "4K" in label else 1 << 20


def profile_key(label):
    return label.lower().replace(" ", "_") + "."


# Set by --writes: the write column's figures ("<test>.write_...") and
# its parameters; fio writes.
WRITES = False


def from_summary(summary, label):
    key = profile_key(label) + ("write_" if WRITES else "")
    mb_s = summary[key + "throughput_mb_s"]
    return {
        "mb_s": mb_s,
        "iops": mb_s * 1e6 / block_bytes(label),
        "p50_us": summary[key + "latency_p50_us"],
        "p99_us": summary[key + "latency_p99_us"],
        "cpu": summary[key + "cpu_percent"],
        "features": summary.get("io_uring_features", ""),
    }


def write_options(device):
    return ["write=true", "select=write", "mode=destroy", f"confirm={device}", "mix="] if WRITES else []


def run_ours(counted, engine, device, label, region, warmup, duration):
    out, switches, migrations = counted.run(
        [engine, "profile", device, f"tests={label}", f"region_size={region}",
         f"warmup_s={warmup}", f"duration_s={duration}"] + write_options(device))
    result = json.loads(out)
    r = from_summary(result["summary"], label)
    r["backend"] = result["backend"]
    r["cs_io"] = per_io(switches, r["iops"], warmup + duration)
    r["mig_io"] = per_io(migrations, r["iops"], warmup + duration)
    return r


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


# fio as people run it for peak numbers; each column adds to these.
FIO_LEAN = ["--direct=1", "--readonly", "--norandommap", "--randrepeat=0"]
FIO_COLUMNS = {
    "fio_huge": [],        # + --mem=mmaphuge:FILE, added in run_fio
    "fio_lean": [],
    "fio_fixed": ["--fixedbufs", "--registerfiles"],
}


def run_fio(counted, device, rw, bs, depth, threads, region, warmup, duration, extra, huge_buffer=None):
    memory = [f"--mem=mmaphuge:{huge_buffer}"] if huge_buffer else []
    lean = [o for o in FIO_LEAN if o != "--readonly"] + ["--end_fsync=1"] if WRITES else FIO_LEAN
    if WRITES:
        rw = {"read": "write", "randread": "randwrite"}[rw]
    out, switches, migrations = counted.run(
        ["fio", "--name=compare", f"--filename={device}"] + lean + memory + [
         "--ioengine=io_uring", f"--rw={rw}", f"--bs={bs}", f"--iodepth={depth}",
         f"--numjobs={threads}", f"--size={region}", "--time_based",
         f"--runtime={duration}", f"--ramp_time={warmup}",
         "--group_reporting", "--lat_percentiles=1",
         "--output-format=json"] + extra)
    job = json.loads(out)["jobs"][0]
    read = job["write" if WRITES else "read"]
    pct = read["lat_ns"]["percentile"]
    return {
        "mb_s": read["bw_bytes"] / 1e6,
        "iops": read["iops"],
        "p50_us": pct["50.000000"] / 1000,
        "p99_us": pct["99.000000"] / 1000,
        "cpu": job["usr_cpu"] + job["sys_cpu"],
        "cs_io": per_io(switches, read["iops"], warmup + duration),
        "mig_io": per_io(migrations, read["iops"], warmup + duration),
    }


class ThroughDaemon:
    """The same profile tests started over D-Bus on diskbenchd, on the
    integration tests' private stack (see tests/integration/README.md)."""

    def __init__(self, build, device):
        here = os.path.dirname(os.path.abspath(__file__))
        sys.path.insert(0, os.path.join(here, "..", "..", "devtools", "stack"))
        import stack as it_stack  # noqa: E402 (the integration tests' stack)
        self.it = it_stack
        root = os.path.abspath(os.path.join(here, "..", ".."))
        it_stack.CONFIG.daemon = os.path.abspath(os.path.join(build, "daemon", "diskbenchd"))
        it_stack.CONFIG.polkit_policy = os.path.abspath(os.path.join(build, "polkit-policy",
                                                                     "org.diskbench.policy"))
        it_stack.CONFIG.bus_policy = os.path.join(root, "dbus-interfaces", "org.diskbench.DiskBench1.conf")
        self.device = device
        self.name = os.path.basename(device)
        self.stack = it_stack.Stack(verbose=False, idle_timeout=600, job_retention=600)

    def __enter__(self):
        try:
            self.stack.start()
            # Our loop device, not one of the stack's: udisks learns of it
            # from a change event, like a device plugged in.
            self.it.run(["udevadm", "trigger", "--action=change", f"/sys/class/block/{self.name}"])
            self.it.run(["udevadm", "settle", "--timeout=30"], timeout=40)
            self.it.wait_until(lambda: self.stack.busctl(
                "get-property", self.it.UDISKS_NAME, f"/org/freedesktop/UDisks2/block_devices/{self.name}",
                "org.freedesktop.UDisks2.Block", "Size", check=False).returncode == 0, 30,
                what=f"udisks to show {self.device}")
            self.stack.ensure_daemon()
        except BaseException:
            self.stack.stop()
            raise
        return self

    def __exit__(self, *exc):
        self.stack.stop()

    def run(self, label, region, warmup, duration):
        options = {"tests": ("s", label), "region_size": ("t", region),
                   "warmup_s": ("d", float(warmup)), "duration_s": ("d", float(duration))}
        if WRITES:
            options.update({"write": ("b", True), "select": ("s", "write"), "mode": ("s", "destroy"),
                            "confirm": ("s", self.device), "mix": ("s", "")})
        path = f"{self.it.DEVICES_PATH}/{self.name}"
        with self.stack.client("dbtest-in", (path, "profile", options)) as client:
            if client.error:
                raise RuntimeError(f"StartBenchmark: {client.error}")
            done = client.wait_completed(120 + 4 * (warmup + duration))
        if done["completed"] != "finished":
            raise RuntimeError(f"the daemon's job ended {done['completed']}: {done.get('error')}")
        return from_summary(done["summary"], label)


def median_of(runs, key):
    return statistics.median(r[key] for r in runs)


def quartiles(values):
    """Median and interquartile range (inclusive method), or Nones."""
    values = [v for v in values if v is not None]
    if not values:
        return None, None, None
    if len(values) < 2:
        return values[0], values[0], values[0]
    q1, q2, q3 = statistics.quantiles(values, n=4, method="inclusive")
    return q2, q1, q3


def ratio_text(pairs):
    median, q1, q3 = quartiles([a / b for a, b in pairs])
    if median is None:
        return f"{'-':>6} {'':>11}"
    return f"{median:>6.3f} {f'{q1:.2f}-{q3:.2f}':>11}"


def compare(engine, device, args, counted, daemon):
    region = args.region
    print(f"\nengine vs fio{' (writes)' if WRITES else ''} on {device} (loop, direct I/O, backing file in {args.dir}), test area "
          f"{region >> 20} MiB, {args.rounds} rounds x {args.duration} s (+{args.warmup} s warm-up) "
          f"each, medians; ratios are medians of per-round ratios with their IQR.\n"
          f"load before: {os.getloadavg()[0]:.2f}; context switches and migrations from "
          f"{'perf stat' if counted.perf else 'getrusage (no migrations)'}.\n")
    who_all = ["ours", "fio_huge", "fio_lean", "fio_fixed"] + (["daemon"] if daemon else [])
    header = (f"{'test':<12} {'ours MB/s':>10} {'/huge':>6} {'IQR':>11} {'/lean':>6} {'IQR':>11} "
              f"{'/fixed':>6} {'IQR':>11}" + (f" {'daemon/ours':>11} {'IQR':>11}" if daemon else "")
              + f"  {'p50 us ours':>11} {'lean':>6} {'fixed':>6}" + (f" {'daemon':>6}" if daemon else "")
              + f" {'p50 d% lean':>11}  {'cs/IO ours':>10} {'lean':>6} {'fixed':>6}"
              f"  {'mig/IO ours':>11} {'lean':>6} {'fixed':>6}  {'CPU% ours':>9} {'lean':>5}")
    print(header)
    print("-" * len(header))
    backend = features = None
    all_runs = {}
    with HugetlbFs() as huge:
        for label, rw, bs, depth, threads in TESTS:
            if args.only and args.only not in label:
                continue
            runs = {who: [] for who in who_all}
            for round_ in range(args.rounds):
                # Rotate the order so slow drift of the device hits all alike.
                order = who_all[round_ % len(who_all):] + who_all[:round_ % len(who_all)]
                for who in order:
                    if who == "ours":
                        r = run_ours(counted, engine, device, label, region, args.warmup, args.duration)
                        backend, features = r["backend"], r["features"]
                    elif who == "daemon":
                        r = daemon.run(label, region, args.warmup, args.duration)
                    else:
                        r = run_fio(counted, device, rw, bs, depth, threads, region, args.warmup,
                                    args.duration, FIO_COLUMNS[who],
                                    huge.buffer_file if who == "fio_huge" else None)
                    runs[who].append(r)
            all_runs[label] = runs

            def med(who, key):
                return quartiles([r.get(key) for r in runs[who]])[0]

            def num(value, width, digits=1):
                return f"{value:>{width}.{digits}f}" if value is not None else f"{'-':>{width}}"

            def pairs(a, b):
                return list(zip([r["mb_s"] for r in runs[a]], [r["mb_s"] for r in runs[b]]))
            line = (f"{label:<12} {med('ours', 'mb_s'):>10.1f} {ratio_text(pairs('ours', 'fio_huge'))} "
                    f"{ratio_text(pairs('ours', 'fio_lean'))} {ratio_text(pairs('ours', 'fio_fixed'))}")
            if daemon:
                line += f" {ratio_text(pairs('daemon', 'ours')):>23}"
            line += f"  {num(med('ours', 'p50_us'), 11)} {num(med('fio_lean', 'p50_us'), 6)} " \
                    f"{num(med('fio_fixed', 'p50_us'), 6)}"
            if daemon:
                line += f" {num(med('daemon', 'p50_us'), 6)}"
            line += f" {(med('ours', 'p50_us') / med('fio_lean', 'p50_us') - 1) * 100:>+11.1f}"
            line += f"  {num(med('ours', 'cs_io'), 10, 4)} {num(med('fio_lean', 'cs_io'), 6, 4)} " \
                    f"{num(med('fio_fixed', 'cs_io'), 6, 4)}"
            line += f"  {num(med('ours', 'mig_io'), 11, 4)} {num(med('fio_lean', 'mig_io'), 6, 4)} " \
                    f"{num(med('fio_fixed', 'mig_io'), 6, 4)}"
            line += f"  {num(med('ours', 'cpu'), 9)} {num(med('fio_lean', 'cpu'), 5)}"
            print(line, flush=True)
            if args.verbose:
                for who in runs:
                    print(f"   {who:<9} MB/s per round:", [round(r["mb_s"], 1) for r in runs[who]])
    print(f"\nour backend: {backend} ({features}); "
          f"fio {subprocess.run(['fio', '--version'], capture_output=True, text=True).stdout.strip()}; "
          f"load after: {os.getloadavg()[0]:.2f}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(all_runs, f, indent=1)


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
    parser.add_argument("--daemon", action="store_true",
                        help="also run each test through diskbenchd on a private bus (needs the "
                             "integration test prerequisites, see tests/integration/README.md)")
    parser.add_argument("--no-perf", action="store_true", help="count context switches with getrusage")
    parser.add_argument("--json", help="write every round's figures here")
    parser.add_argument("--writes", action="store_true",
                        help="compare the destroy-mode writes (the Profiles' write column) with fio's")
    args = parser.parse_args()
    global WRITES
    WRITES = args.writes

    engine = os.path.join(args.build, "daemon", "tools", "diskbench-engine")
    if not os.access(engine, os.X_OK):
        sys.exit(f"{engine} not found: build first (meson setup {args.build} && ninja -C {args.build})")
    with tempfile.TemporaryDirectory(prefix="diskbench-perf-", dir=args.dir) as workdir:
        if not args.skip_compare:
            backing = os.path.join(workdir, "backing.img")
            fill(backing, args.region)
            with LoopDevice(backing) as loop:
                if loop.found_requests != LoopDevice.QUEUE_REQUESTS:
                    print(f"{loop.path}'s queue had nr_requests {loop.found_requests} (left by an earlier user); "
                          f"set to the default {LoopDevice.QUEUE_REQUESTS}")
                counted = Counted(not args.no_perf)
                if args.daemon:
                    with ThroughDaemon(args.build, loop.path) as daemon:
                        compare(engine, loop.path, args, counted, daemon)
                else:
                    compare(engine, loop.path, args, counted, None)
        surface_memory(engine, workdir, [int(x) for x in args.surface_sizes.split(",")])


if __name__ == "__main__":
    main()
