#!/usr/bin/env bash
# valgrind memcheck of diskbenchd across the integration suite, as root:
#
#   sudo tests/memcheck/run-memcheck.sh [BUILDDIR [meson test arguments]]
#
# BUILDDIR is a normal build (not a sanitizer one). meson's "memcheck" test
# setup (tests/meson.build) makes the harness start every activated daemon
# under valgrind --leak-check=full (devtools/stack/daemon_checks.py): a
# memory error or a definite leak in the daemon fails the test. At the end
# this prints every daemon's ERROR SUMMARY and leak lines, and the totals.
#
# What fails under valgrind for valgrind's sake (3.19, Debian 12), not as a
# finding: the daemon runs some 20 times slower, so timing bounds (a cancel
# within ~100 ms, signal batching) fail in test_benchmarks and
# test_authorization; and a daemon a test kills on purpose
# (test_filesystem's kill -9 mid-run) never reaches valgrind's summary,
# which fails that test's teardown. Folder benchmarks do run: valgrind
# does not implement openat2, and the daemon falls back (fs_beneath.cpp)
# as it does under systemd's system call filter. The result is the valgrind summaries at the end: a
# valgrind finding fails its test too, and shows there.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
build=$(cd "${1:-$src/_build}" && pwd)
shift || true
command -v valgrind >/dev/null || { echo "valgrind is not installed (Debian package valgrind)"; exit 1; }

summary=$build/meson-logs/memcheck-summary.txt
rm -f "$summary"
export DISKBENCH_TEST_VALGRIND_SUMMARY=$summary
status=0
meson test -C "$build" --setup memcheck --suite integration --print-errorlogs "$@" || status=$?

echo
echo "== valgrind summaries (also in $summary) =="
if [ -s "$summary" ]; then
    cat "$summary"
    awk '/ERROR SUMMARY/ { runs++; for (i = 1; i <= NF; i++) if ($i == "SUMMARY:") { gsub(",", "", $(i+1)); errors += $(i+1) } }
         /definitely lost:/ { for (i = 1; i <= NF; i++) if ($i == "lost:") { gsub(",", "", $(i+1)); definite += $(i+1) } }
         END { printf "daemons checked: %d, errors (incl. definite leaks): %d, bytes definitely lost: %d\n", runs, errors, definite }' "$summary"
else
    echo "no valgrind summaries: no daemon ran to its end under valgrind"
    status=1
fi
exit "$status"
