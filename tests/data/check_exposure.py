#!/usr/bin/python3
"""Runs `systemd-analyze security --offline=true UNIT`, prints its table and
the overall exposure, and fails when the exposure is above the limit, when
systemd-analyze fails or prints no overall figure, or when it warns about a
line of the unit (a misspelt key or a bad value is only a warning to
systemd, and a hardening line it ignores protects nothing).

Usage: check_exposure.py SYSTEMD_ANALYZE UNIT_FILE [LIMIT]   (LIMIT: 2.0)
"""
import os
import re
import subprocess
import sys


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    analyze, unit = sys.argv[1], sys.argv[2]
    limit = float(sys.argv[3]) if len(sys.argv) == 4 else 2.0
    proc = subprocess.run([analyze, "security", "--offline=true", "--no-pager", unit],
                          capture_output=True, text=True)
    sys.stdout.write(proc.stdout)
    sys.stderr.write(proc.stderr)
    if proc.returncode != 0:
        print(f"FAIL: systemd-analyze exited with {proc.returncode}")
        return 1
    # e.g. "/path/diskbenchd.service:113: Unknown key 'SystemCallErrorNumbr' ..."
    unit_warnings = [line for line in proc.stderr.splitlines() if re.match(r"\S*" + re.escape(os.path.basename(unit)) + r":\d+: ", line)]
    if unit_warnings:
        print(f"FAIL: systemd-analyze warned about {len(unit_warnings)} line(s) of the unit")
        return 1
    # "→ Overall exposure level for diskbenchd.service: 1.3 OK 🙂"
    match = re.search(r"Overall exposure level for (\S+): (\d+(?:\.\d+)?)", proc.stdout)
    if not match:
        print("FAIL: no 'Overall exposure level' line in the output")
        return 1
    exposure = float(match.group(2))
    print(f"exposure of {match.group(1)}: {exposure} (limit {limit})")
    if exposure > limit:
        print(f"FAIL: exposure {exposure} is above {limit}")
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
