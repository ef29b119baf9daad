#!/usr/bin/env bash
# The build CI tests (.ci/run), in a directory of its own: AddressSanitizer
# + UndefinedBehaviorSanitizer with LeakSanitizer, every suite, as root:
#
#   sudo tests/sanitize/run-asan.sh [BUILDDIR [meson test arguments]]   (default _build-asan)
#
# On this build meson's "sanitize" test setup (tests/meson.build) is the
# default: it makes every finding fatal; the integration harness hands the
# options to the daemon that D-Bus activation starts and fails the test on
# its reports, and the systemd suite gives them to the unit (without leak
# checking, which needs ptrace). --prefix=/usr: the systemd suite installs
# the build into its container.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
build=${1:-$src/_build-asan}
shift || true
if [ ! -d "$build" ]; then
    meson setup "$build" "$src" --werror --buildtype=plain -Doptimization=1 \
        -Dcpp_args=-g1 -Dc_args=-g1 --prefix=/usr -Db_sanitize=address,undefined
fi
meson compile -C "$build"
exec meson test -C "$build" --print-errorlogs "$@"
