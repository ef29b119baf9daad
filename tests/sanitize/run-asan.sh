#!/usr/bin/env bash
# What CI runs after the normal suite (.ci/run): the unit, integration and
# GUI suites on an AddressSanitizer + UndefinedBehaviorSanitizer build,
# with LeakSanitizer, as root:
#
#   sudo tests/sanitize/run-asan.sh [BUILDDIR [meson test arguments]]   (default _build-asan)
#
# meson's "sanitize" test setup (tests/meson.build) makes every finding
# fatal; the integration harness hands the options to the daemon that
# D-Bus activation starts and fails the test on its reports.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
build=${1:-$src/_build-asan}
shift || true
if [ ! -d "$build" ]; then
    meson setup "$build" "$src" --werror --buildtype=debugoptimized -Db_sanitize=address,undefined
fi
meson compile -C "$build"
if [ $# -eq 0 ]; then
    set -- --suite unit --suite integration --suite gui
fi
exec meson test -C "$build" --setup sanitize --print-errorlogs "$@"
