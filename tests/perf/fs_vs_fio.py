#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Our filesystem write benchmarks against fio and dd on the same ext4, in one run.

It makes a scratch file in --dir (filled with data, not sparse, so the
host filesystem allocates nothing during the run), attaches it as a loop device
with --direct-io=on, makes ext4 on it (inode tables and journal initialised
up front, so no ext4lazyinit thread writes behind the benchmark's back;
without discard, which would punch holes in the backing file again),
mounts it in a temporary directory and compares there:

  file-rw   `diskbench-engine file-rw DIR size=S block_size=1M` write and
            read MB/s against
              fio  --rw=write --bs=1M --direct=1 --end_fsync=1 --ioengine=psync
                   --iodepth=1 --size=S, then --rw=read on the same file
              dd   if=/dev/zero of=F bs=1M count=N oflag=direct conv=fsync,
                   then dd if=F of=/dev/null bs=1M iflag=direct
  write-sweep  `diskbench-engine write-sweep DIR min_block=B max_block=B
            amount_per_size=A` per block size B (its 9 repetitions, the
            least it allows: the median of those is its figure of the round)
            against one run each of the same fio write and dd write with bs=B.

Every tool writes a NEW file each time (fio's and dd's are deleted before
each run; fio would otherwise overwrite its old, already allocated file).
fio is run three times: as people run it (its default --fallocate=native:
fallocate(fd, 0, 0, size) before writing, so the writes land inside the
file's size, in preallocated unwritten extents), with --fallocate=none
(the writes extend the file, as dd's and ours do), and with
--fallocate=none and huge-page buffers ('fio-h', --mem=mmaphuge on a
hugetlbfs this script mounts and removes): like for like with ours, whose
buffers are transparent huge pages. A 1 MiB request from 256 scattered
4 KiB pages exceeds a loop device's 128 segments and is split in two (see
engine_vs_fio.py); from one huge page it reaches the device whole. dd writes zeros from /dev/zero:
ext4 neither compresses nor deduplicates, so that is fine here, but a
hypervisor that detects zero writes (qemu detect-zeroes) could flatter it;
fio and our engine write pseudo-random data.

What the tools do differently (strace, and ext4/io_uring tracepoints over
64 x 1 MiB writes on this setup): all three write a new file O_DIRECT, one
request at a time, and sync once at the end (ours: O_TMPFILE, fcntl
O_DIRECT, one io_uring_enter per block, one fdatasync; fio: pwrite64, one
fsync; dd: write, one fsync). With fio's default fallocate the writes land
inside the file's size: ~2.3 ext4 journal handles per write (unwritten
extent conversion) instead of ~4.3 for extending writes (allocation, orphan
list, size update), and io_uring can issue them inline, while an extending
O_DIRECT write is punted to an io-wq thread (64 io_uring_queue_async_work
for ours and for fio --ioengine=io_uring --fallocate=none alike). So
'fio-h' is what ours is like for like (the target, ours/fio-h >= 0.98);
'fio-na' and dd show the same writes from 4 KiB pages, 'fio' the price of
not preallocating.

Many short rounds in rotating order; the ratio is the median of the
per-round ratios (each round runs all tools back to back) with its IQR,
because a virtual disk's speed drifts by tens of percent from second to
second and only paired rounds cancel that out. All sizes are MB/s = 10^6
bytes per second, each timed up to the end of the final fsync/fdatasync.

A benchmark, not a test: it prints figures and judges nothing (target:
ours/fio >= 0.98). Run as root; it unmounts, detaches and deletes
everything it made, also on an error, Ctrl-C or SIGTERM:

    sudo /usr/bin/python3 tests/perf/fs_vs_fio.py --build build [--rounds 9]
        [--size 1G] [--sweep-amount 64M] [--sweep-blocks 4K,64K,1M,16M]
"""

import argparse
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from engine_vs_fio import HugetlbFs  # noqa: E402  (fio's huge-page buffers, given back on exit)

# fio-na: fio --fallocate=none; fio-h: the same with huge-page buffers
TOOLS = ["ours", "fio", "fio-na", "fio-h", "dd"]

_current = None  # the child process running now, killed by PID on the way out


def run(cmd, **kw):
    """subprocess.run that remembers its child, so cleanup can stop it."""
    global _current
    with subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw) as proc:
        _current = proc
        try:
            out, err = proc.communicate()
        finally:
            _current = None
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({proc.returncode}): {err.strip()}")
    return out, err


def parse_size(text):
    m = re.fullmatch(r"(\d+)([KMGT]?)(i?B)?", text.strip(), re.IGNORECASE)
    if not m:
        raise argparse.ArgumentTypeError(f"not a size: {text}")
    return int(m.group(1)) << {"": 0, "K": 10, "M": 20, "G": 30, "T": 40}[m.group(2).upper()]


def size_label(n):
    for shift, unit in ((30, "G"), (20, "M"), (10, "K")):
        if n >= 1 << shift and n % (1 << shift) == 0:
            return f"{n >> shift}{unit}"
    return str(n)


class Scratch:
    """Backing file -> loop device (direct I/O) -> ext4 -> mount; all undone in close()."""

    def __init__(self):
        self.workdir = self.backing = self.loop = self.mountpoint = None
        self.mounted = False

    def setup(self, directory, size):
        free = shutil.disk_usage(directory).free
        if free < size + (1 << 30):
            sys.exit(f"{directory}: {free >> 20} MiB free, need {size >> 20} MiB + 1 GiB to spare")
        self.workdir = tempfile.mkdtemp(prefix="diskbench-fsperf-", dir=directory)
        self.backing = os.path.join(self.workdir, "backing.img")
        # Data written for real (not zeros, which a hypervisor may skip): a
        # sparse or fallocated backing file would make the host filesystem
        # allocate or convert blocks under whichever tool first writes a
        # region, and fio, which deletes and recreates its file in the same
        # place, would meet those costs once while ours met them every run.
        chunk = os.urandom(8 << 20)
        with open(self.backing, "wb") as f:
            for _ in range(size // len(chunk)):
                f.write(chunk)
            f.flush()
            os.fsync(f.fileno())
        out, _ = run(["losetup", "--find", "--show", "--direct-io=on", self.backing])
        self.loop = out.strip()
        # nodiscard: mkfs would otherwise discard the whole loop device,
        # which punches the backing file full of holes again (see above).
        # Inode tables and journal initialised now, so no ext4lazyinit
        # thread writes behind the benchmark's back.
        run(["mkfs.ext4", "-q", "-E", "nodiscard,lazy_itable_init=0,lazy_journal_init=0", self.loop])
        self.mountpoint = os.path.join(self.workdir, "mnt")
        os.mkdir(self.mountpoint)
        run(["mount", "-t", "ext4", self.loop, self.mountpoint])
        self.mounted = True

    def close(self):
        proc = _current
        if proc is not None and proc.poll() is None:
            proc.kill()  # ours, by PID: it holds the mount busy
            proc.wait()
        if self.mounted:
            for _ in range(10):
                if subprocess.run(["umount", self.mountpoint]).returncode == 0:
                    self.mounted = False
                    break
                time.sleep(0.5)
        if self.loop and not self.mounted:
            subprocess.run(["losetup", "--detach", self.loop], check=False)
            self.loop = None
        if self.workdir and not self.mounted:
            shutil.rmtree(self.workdir, ignore_errors=True)
            self.workdir = None
        if self.mounted:
            print(f"could not unmount {self.mountpoint}; left it and {self.loop} for you", file=sys.stderr)


def drop(path):
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


def ours_file_rw(engine, directory, size, bs):
    out, _ = run([engine, "file-rw", directory, f"size={size}", f"block_size={bs}"])
    s = json.loads(out)["summary"]
    if not s.get("direct_io"):
        raise RuntimeError("the engine did not get O_DIRECT")
    return s["write_mb_s"], s["read_mb_s"]


def ours_write_sweep(engine, directory, amount, bs):
    out, _ = run([engine, "write-sweep", directory, f"min_block={bs}", f"max_block={bs}",
                  f"amount_per_size={amount}"])
    return json.loads(out)["summary"]["throughput_max_mb_s"]


def fio(directory, rw, size, bs, fallocate, huge_buffer):
    memory = [f"--mem=mmaphuge:{huge_buffer}"] if huge_buffer else []
    out, _ = run(["fio", "--name=fsperf", f"--filename={os.path.join(directory, 'fio.dat')}",
                  f"--rw={rw}", f"--bs={bs}", "--direct=1", "--end_fsync=1", "--ioengine=psync",
                  "--iodepth=1", f"--size={size}", f"--fallocate={fallocate}", "--output-format=json"]
                 + memory)
    job = json.loads(out)["jobs"][0]
    return job["read" if rw == "read" else "write"]["bw_bytes"] / 1e6


def fio_rw(directory, size, bs, fallocate, read_back, huge_buffer=None):
    drop(os.path.join(directory, "fio.dat"))  # a new file, as ours and dd write
    try:
        w = fio(directory, "write", size, bs, fallocate, huge_buffer)
        r = fio(directory, "read", size, bs, fallocate, huge_buffer) if read_back else None
    finally:
        drop(os.path.join(directory, "fio.dat"))
    return w, r


def dd_mb_s(stderr):
    # "1073741824 bytes (1.1 GB, 1.0 GiB) copied, 1.234 s, 870 MB/s": dd's own
    # clock, which with conv=fsync runs until the fsync returned.
    m = re.search(r"^(\d+) bytes .* copied, ([\d.,]+) s", stderr, re.MULTILINE)
    if not m:
        raise RuntimeError(f"cannot read dd's output: {stderr!r}")
    return int(m.group(1)) / float(m.group(2).replace(",", ".")) / 1e6


def dd_rw(directory, size, bs, read_back):
    path = os.path.join(directory, "dd.dat")
    drop(path)
    env = dict(os.environ, LC_ALL="C")
    try:
        _, err = run(["dd", "if=/dev/zero", f"of={path}", f"bs={bs}", f"count={size // bs}",
                      "oflag=direct", "conv=fsync"], env=env)
        w = dd_mb_s(err)
        r = None
        if read_back:
            _, err = run(["dd", f"if={path}", "of=/dev/null", f"bs={bs}", "iflag=direct"], env=env)
            r = dd_mb_s(err)
    finally:
        drop(path)
    return w, r


def iqr(values):
    v = sorted(values)
    return v[len(v) // 4], v[(3 * len(v)) // 4]


def report(label, runs, verbose):
    med = {t: statistics.median(runs[t]) for t in TOOLS}
    cols = [f"{label:<18}"] + [f"{med[t]:>8.1f}" for t in TOOLS]
    for other in TOOLS[1:]:
        ratios = [a / b for a, b in zip(runs["ours"], runs[other])]
        lo, hi = iqr(ratios)
        cols.append(f"{statistics.median(ratios):>9.3f} {lo:>5.2f}-{hi:<5.2f}")
    print("  ".join(cols), flush=True)
    if verbose:
        for t in TOOLS:
            print(f"   {t:<6} MB/s per round:", [round(x, 1) for x in runs[t]], flush=True)


def compare(engine, directory, args, huge_buffer):
    print(f"\nours vs fio vs dd on ext4 on a loop device (--direct-io=on over {args.dir}), "
          f"{args.rounds} rounds in rotating order, medians; ratio = median of per-round ours/other "
          f"with its IQR.\n'fio' is fio's default --fallocate=native (preallocates the file), "
          f"'fio-na' is --fallocate=none, 'fio-h' is --fallocate=none with huge-page buffers like ours "
          f"(like for like); dd writes zeros.\n")
    header = (f"{'test':<18}  {'ours MB/s':>8}  {'fio MB/s':>8}  {'fio-na':>8}  {'fio-h':>8}  {'dd MB/s':>8}  "
              + "  ".join(f"{'vs ' + t:>9} {'IQR':>11}" for t in TOOLS[1:]))
    print(header)
    print("-" * len(header))

    tests = []
    if not args.skip_file_rw:
        tests.append(("file-rw", args.size, 1 << 20))
    if not args.skip_sweep:
        tests += [("write-sweep", args.sweep_amount, bs) for bs in args.sweep_blocks]
    for kind, size, bs in tests:
        label = f"{kind} {size_label(bs)}"
        if args.only and args.only not in label:
            continue
        read_back = kind == "file-rw"
        w = {t: [] for t in TOOLS}
        r = {t: [] for t in TOOLS}
        for round_ in range(args.rounds):
            # Rotate the order so slow drift of the device hits all tools alike.
            k = round_ % len(TOOLS)
            for tool in TOOLS[k:] + TOOLS[:k]:
                if tool == "ours":
                    if read_back:
                        a, b = ours_file_rw(engine, directory, size, bs)
                    else:
                        a, b = ours_write_sweep(engine, directory, size, bs), None
                elif tool == "dd":
                    a, b = dd_rw(directory, size, bs, read_back)
                else:
                    a, b = fio_rw(directory, size, bs, "native" if tool == "fio" else "none", read_back,
                                  huge_buffer if tool == "fio-h" else None)
                w[tool].append(a)
                if read_back:
                    r[tool].append(b)
        report(f"{label} write" if read_back else label, w, args.verbose)
        if read_back:
            report(f"{label} read", r, args.verbose)
    fio_version = subprocess.run(["fio", "--version"], capture_output=True, text=True).stdout.strip()
    print(f"\nfile-rw: {size_label(args.size)} per run; write-sweep: {size_label(args.sweep_amount)} per block "
          f"size per run, block sizes {', '.join(size_label(b) for b in args.sweep_blocks)}; {fio_version}; "
          f"kernel {os.uname().release}")


def main():
    # Ctrl-C or kill: unwind normally so the mount, the loop device and the
    # backing file go away.
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, lambda *_: sys.exit(1))
    # Also when started with SIGINT ignored (a background job of a script).
    signal.signal(signal.SIGINT, signal.default_int_handler)
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default="build", help="meson build directory")
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--size", type=parse_size, default=1 << 30, help="file-rw file size (default 1G)")
    parser.add_argument("--sweep-amount", type=parse_size, default=64 << 20,
                        help="bytes written per block size and repetition in the sweep (default 64M)")
    parser.add_argument("--sweep-blocks", default="4K,64K,1M,16M",
                        help="block sizes of the sweep (default 4K,64K,1M,16M: a subset of the engine's 512..16M)")
    parser.add_argument("--backing-size", type=parse_size, default=3 << 30, help="loop file size (default 3G)")
    parser.add_argument("--dir", default="/var/tmp", help="where the backing file goes")
    parser.add_argument("--only", help="run only the tests whose label contains this, e.g. 'write-sweep 4K'")
    parser.add_argument("--skip-file-rw", action="store_true")
    parser.add_argument("--skip-sweep", action="store_true")
    parser.add_argument("--verbose", action="store_true", help="print every round's figures")
    args = parser.parse_args()
    args.sweep_blocks = [parse_size(b) for b in args.sweep_blocks.split(",")]

    if os.geteuid() != 0:
        sys.exit("run as root: it attaches a loop device and mounts it")
    engine = os.path.join(args.build, "daemon", "tools", "diskbench-engine")
    if not os.access(engine, os.X_OK):
        sys.exit(f"{engine} not found: build first (meson setup {args.build} && meson compile -C {args.build})")
    engine = os.path.abspath(engine)
    if max(args.size, args.sweep_amount) * 2 > args.backing_size * 0.9:
        sys.exit("--backing-size too small for --size/--sweep-amount")
    scratch = Scratch()
    try:
        scratch.setup(args.dir, args.backing_size)
        with HugetlbFs() as huge:
            compare(engine, scratch.mountpoint, args, huge.buffer_file)
    finally:
        scratch.close()


if __name__ == "__main__":
    main()
