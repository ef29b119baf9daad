# SPDX-License-Identifier: GPL-3.0-or-later
"""What the sanitizers and valgrind say about diskbenchd under the tests.

The daemon is started by D-Bus activation, so it is not the tests' child:
its exit status and stderr reach nobody who checks them. Instead every
daemon the stack starts writes its sanitizer reports (ASan, UBSan, LSan,
TSan: log_path) or its valgrind log into the stack's report folder, and
Stack.stop() ends the daemon first (so what LeakSanitizer and valgrind
report at exit is written), then reads that folder: a sanitizer report, or
a valgrind log with errors, is a teardown problem, which fails the test.

The sanitizer options themselves come from the environment (meson test
--setup sanitize / tsan, see tests/meson.build); only log_path is added
here. For a daemon built without sanitizers these variables do nothing.

valgrind: DISKBENCH_TEST_VALGRIND=1 (tests/memcheck/run-memcheck.sh) runs
the activated daemon under memcheck; DISKBENCH_TEST_VALGRIND_ARGS adds
arguments; DISKBENCH_TEST_VALGRIND_SUMMARY names a file that collects every
run's ERROR SUMMARY and LEAK SUMMARY lines (the logs themselves go with
the stack's temp dir unless a test failed).
"""

import os
import re
import shlex
import sys

SANITIZER_VARIABLES = ('ASAN_OPTIONS', 'UBSAN_OPTIONS', 'LSAN_OPTIONS', 'TSAN_OPTIONS')

VALGRIND = '/usr/bin/valgrind'
# Errors and definite leaks both count in the ERROR SUMMARY
# (--errors-for-leak-kinds); possible leaks are only listed: sd-bus and
# glibc keep interior pointers into their caches.
VALGRIND_ARGS = ['--tool=memcheck', '--leak-check=full', '--show-leak-kinds=definite',
                 '--errors-for-leak-kinds=definite', '--track-origins=yes',
                 '--num-callers=30', '--error-exitcode=99', '--child-silent-after-fork=yes']


def valgrind_wanted():
    return os.environ.get('DISKBENCH_TEST_VALGRIND', '') not in ('', '0')


def daemon_environment(report_dir, name):
    """The sanitizer variables for a daemon, each with log_path into report_dir.

    Sanitizer runtimes write NAME.PID there (one file per report-writing
    process); nothing is written when there is nothing to report."""
    base = os.path.join(report_dir, name)
    env = {}
    for var in SANITIZER_VARIABLES:
        options = os.environ.get(var, '')
        env[var] = f'{options}:log_path={base}' if options else f'log_path={base}'
    return env


def daemon_command(report_dir, name, argv):
    """argv, under valgrind when DISKBENCH_TEST_VALGRIND asks for it."""
    if not valgrind_wanted():
        return list(argv)
    extra = shlex.split(os.environ.get('DISKBENCH_TEST_VALGRIND_ARGS', ''))
    return ([VALGRIND] + VALGRIND_ARGS + extra
            + [f'--log-file={os.path.join(report_dir, name)}.valgrind.%p'] + list(argv))


def daemon_stop_grace():
    """Seconds a daemon gets between SIGTERM and SIGKILL: under valgrind its
    exit (with the leak check) takes far longer than the usual 5 s."""
    return 60.0 if valgrind_wanted() else 10.0


_VALGRIND_ERRORS = re.compile(r'ERROR SUMMARY: (\d+) errors')


def read_reports(report_dir):
    """[(path, text)] of every report that means a finding.

    A sanitizer log file exists only when it reported something; a valgrind
    log is written for every run and counts when its ERROR SUMMARY is not
    zero, or when it has none (the daemon was killed before valgrind could
    finish: its leaks went unchecked)."""
    found = []
    try:
        names = sorted(os.listdir(report_dir))
    except FileNotFoundError:
        return found
    for name in names:
        path = os.path.join(report_dir, name)
        with open(path, errors='replace') as f:
            text = f.read()
        if '.valgrind.' in name:
            summary = _VALGRIND_ERRORS.findall(text)
            if summary and int(summary[-1]) == 0:
                continue
            if not summary:
                text = ('(no ERROR SUMMARY: the daemon did not exit by itself, so valgrind '
                        'did not check it to the end)\n' + text)
        found.append((path, text))
    return found


# What sanitizer runtimes print. GCC's UBSan, combined with ASan, writes
# its diagnostic to stderr (the daemon's log) and only the SUMMARY line to
# log_path; a report from a daemon started without the log_path (by hand)
# is only there.
_LOG_MARKERS = re.compile(r'runtime error:|ERROR: (Address|Leak|Thread|UndefinedBehavior)Sanitizer'
                          r'|WARNING: ThreadSanitizer|SUMMARY: (Address|Leak|Thread|UndefinedBehavior)Sanitizer')


def log_findings(log_path, context=40):
    """Sanitizer reports in a daemon log: the lines from each marker on."""
    try:
        with open(log_path, errors='replace') as f:
            lines = f.read().splitlines()
    except FileNotFoundError:
        return ''
    keep = set()
    for i, line in enumerate(lines):
        if _LOG_MARKERS.search(line):
            keep.update(range(i, min(len(lines), i + context)))
    return '\n'.join(lines[i] for i in sorted(keep))


def valgrind_summaries(report_dir):
    """The ERROR SUMMARY and LEAK SUMMARY lines of every valgrind log."""
    lines = []
    try:
        names = sorted(os.listdir(report_dir))
    except FileNotFoundError:
        return lines
    for name in names:
        if '.valgrind.' not in name:
            continue
        with open(os.path.join(report_dir, name), errors='replace') as f:
            for line in f:
                if re.search(r'ERROR SUMMARY|in use at exit|definitely lost:|indirectly lost:|possibly lost:', line):
                    lines.append(f'{name}: {line.strip()}')
    return lines


def record_valgrind_summary(report_dir):
    """Appends the valgrind summaries to $DISKBENCH_TEST_VALGRIND_SUMMARY."""
    target = os.environ.get('DISKBENCH_TEST_VALGRIND_SUMMARY')
    if not target or not valgrind_wanted():
        return
    test = os.path.basename(sys.argv[0])
    with open(target, 'a') as f:
        for line in valgrind_summaries(report_dir):
            f.write(f'{test}: {line}\n')
