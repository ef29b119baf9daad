#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The hardware lab on a build folder: sudo tests/lab/run-lab.sh BUILD
# (README.md here). Options after BUILD go to lab.py (--keep, --accel,
# --only TEST).
set -eu
[ $# -ge 1 ] || { echo "usage: sudo $0 BUILD [--keep] [--accel auto|kvm|tcg] [--only TEST]" >&2; exit 2; }
exec /usr/bin/python3 "$(dirname "$0")/lab.py" "$@"
