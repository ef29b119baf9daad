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
# Slow: the daemon runs some 20 times slower, so timing-bound tests may
# fail for that alone (the test log says which).
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
