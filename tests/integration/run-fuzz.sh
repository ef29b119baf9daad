#!/usr/bin/env bash
# A long run of the D-Bus fuzz test (test_fuzz.py): by default a million
# calls against BUILDDIR's diskbenchd, as root, like the integration tests.
#
#   sudo tests/integration/run-fuzz.sh [BUILDDIR [CALLS [SEED]]]
#
# The seed is printed at the start; give it again to repeat the calls. On
# a sanitizer build run it with that build's options, e.g.
#   ASAN_OPTIONS=halt_on_error=1:detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
#     tests/integration/run-fuzz.sh _build-asan
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
build=$(cd "${1:-$src/_build}" && pwd)
export DISKBENCH_FUZZ_CALLS=${2:-1000000}
if [ -n "${3:-}" ]; then
    export DISKBENCH_FUZZ_SEED=$3
fi
export DISKBENCH_INTERFACE_XML=$src/dbus-interfaces/org.diskbench.DiskBench1.xml
export DISKBENCH_TEST_LOG_DIR=${DISKBENCH_TEST_LOG_DIR:-$build/tests/integration/logs}
export PYTHONPATH=$src/devtools/stack
export PYTHONUNBUFFERED=1 PYTHONDONTWRITEBYTECODE=1
# About 1 ms a call here (two callers at once); the harness's own watchdog
# gets ten times that, plus the setup.
timeout=$(( DISKBENCH_FUZZ_CALLS / 100 + 600 ))
exec /usr/bin/python3 "$here/test_fuzz.py" \
    --daemon "$build/daemon/diskbenchd" \
    --polkit-policy "$build/polkit-policy/org.diskbench.policy" \
    --bus-policy "$src/dbus-interfaces/org.diskbench.DiskBench1.conf" \
    --timeout "$timeout" \
    FuzzTest.test_fuzz
