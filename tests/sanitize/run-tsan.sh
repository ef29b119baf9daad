#!/usr/bin/env bash
# ThreadSanitizer run of the engine's and the daemon's unit tests, as root
# (the loop-device tests attach their own loop devices):
#
#   sudo tests/sanitize/run-tsan.sh [BUILDDIR]      (default _build-tsan)
#
# Builds only those test programs with -Db_sanitize=thread (the daemon's
# bus side and the app are not run under TSan: sd-bus and GLib are not
# instrumented, and the integration tests would mostly time out) and runs
# them with meson's "tsan" test setup (tests/meson.build): a data race or a
# lock-order inversion fails the test.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
build=${1:-$src/_build-tsan}
if [ ! -d "$build" ]; then
    meson setup "$build" "$src" --werror --buildtype=debugoptimized -Db_sanitize=thread
fi
meson compile -C "$build" tests/unit/engine-tests tests/unit/engine-device-writes \
    tests/unit/engine-mixed-load tests/unit/engine-fs-tree-tests tests/unit/daemon-tests
tests=$(meson test -C "$build" --list 2>/dev/null | sed -n 's/^diskbench:unit \/ \(\(engine\|daemon\)-.*\)$/\1/p' | grep -vx engine-json)
# --no-rebuild: meson would build every target of the project first.
exec meson test -C "$build" --setup tsan --no-rebuild --print-errorlogs $tests
