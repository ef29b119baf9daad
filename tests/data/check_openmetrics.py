#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""`diskbenchctl export --format=openmetrics` on results of real runs, as
Prometheus' own tool reads them:
  * diskbench-engine runs seek and a two-pass profile on a file of random
    data (no root, no daemon: the engine writes the result-file format);
  * the export (to standard output and --output) passes
    `promtool check metrics` without a complaint, and has the families of
    both kinds;
  * a file that is no result fails the export with status 14 and leaves the
    --output file as it was; an unknown --format is a usage error (2);
  * a hostile result file (escape sequences in its model, serial and kind)
    exports with no control character in the text, each one as the text
    \\xNN, and the export still passes promtool.

usage: check_openmetrics.py ENGINE DISKBENCHCTL PROMTOOL
"""

import json
import os
import subprocess
import sys
import tempfile

# A terminal's title (OSC ... BEL), clear screen, a line of its own, a C1
# CSI (U+009B), DEL.
EVIL = '\x1b]0;owned\x07\x1b[2J\nverified OK \u009b31m\x7f'


def hostile_result():
    return json.dumps({
        'schema_version': 1, 'kind': 'seek' + EVIL, 'state': 'finished', 'backend': 'io_uring',
        'target_kind': 'device', 'target': '/dev/sda',
        'started_at_us': 1_700_000_000_000_000, 'finished_at_us': 1_700_000_001_000_000,
        'parameters': {'count': 100}, 'summary': {'latency_mean_us': 8500.0, 'latency_p50_us': 8000.0},
        'device_info': {'node': '/dev/sda', 'model': 'USB disk' + EVIL, 'serial': 'S1' + EVIL,
                        'stack_line': 'sda' + EVIL},
        'warnings': [], 'notes': [], 'series': [],
    })


def check_hostile(ctl, promtool, tmp, env, failures):
    path = os.path.join(tmp, 'hostile.json')
    with open(path, 'w') as f:
        f.write(hostile_result())
    res = subprocess.run([ctl, 'export', '--format=openmetrics', path], capture_output=True, timeout=120, env=env)
    if res.returncode != 0:
        failures.append(f'hostile export exited with {res.returncode}: {res.stderr!r}')
        return
    controls = sorted({b for b in res.stdout if (b < 0x20 and b != 0x0a) or b == 0x7f})
    if controls or b'\xc2\x9b' in res.stdout:
        failures.append(f'hostile export: raw control bytes {controls} in {res.stdout!r}')
    if b'model="USB disk\\\\x1b]0;owned\\\\x07\\\\x1b[2J\\nverified OK \\\\xc2\\\\x9b31m\\\\x7f"' not in res.stdout:
        failures.append(f'hostile export: the model is not escaped as \\xNN: {res.stdout!r}')
    check = run([promtool, 'check', 'metrics'], input=res.stdout.decode())
    print(f'promtool check metrics (hostile): status {check.returncode} {check.stdout}{check.stderr}'.strip())
    if check.returncode != 0 or check.stdout.strip() or check.stderr.strip():
        failures.append(f'promtool check metrics complained of the hostile export: {check.stdout}{check.stderr}')


def run(argv, **kwargs):
    return subprocess.run(argv, capture_output=True, text=True, timeout=120, **kwargs)


def main():
    engine, ctl, promtool = sys.argv[1:4]
    failures = []
    with tempfile.TemporaryDirectory(prefix='diskbench-openmetrics-', dir='/var/tmp') as tmp:
        image = os.path.join(tmp, 'disk.img')
        with open(image, 'wb') as f:
            f.write(os.urandom(32 * 1024 * 1024))
        results = []
        for kind, params in (('seek', ['count=100']),
                             ('profile', ['tests=SEQ1M Q1T1, RND4K Q1T1', 'duration_s=0.2', 'warmup_s=0',
                                          'passes=2'])):
            path = os.path.join(tmp, f'{kind}.json')
            res = run([engine, kind, image] + params)
            if res.returncode != 0:
                print(f'diskbench-engine {kind} failed: {res.stderr}')
                return 1
            with open(path, 'w') as f:
                f.write(res.stdout)
            results.append(path)

        env = dict(os.environ, XDG_DATA_HOME=tmp, LC_ALL='C.UTF-8')
        res = run([ctl, 'export', '--format=openmetrics'] + results, env=env)
        if res.returncode != 0:
            failures.append(f'export exited with {res.returncode}: {res.stderr}')
        text = res.stdout
        check = run([promtool, 'check', 'metrics'], input=text)
        print(f'promtool check metrics: status {check.returncode} {check.stdout}{check.stderr}'.strip())
        if check.returncode != 0 or check.stdout.strip() or check.stderr.strip():
            failures.append(f'promtool check metrics complained: {check.stdout}{check.stderr}')
        for needle in ('diskbench_throughput_bytes_per_second{', 'kind="profile",test="SEQ1M Q1T1",op="read"',
                       'diskbench_latency_seconds{', 'kind="seek"', 'diskbench_pass_cv_ratio{',
                       'diskbench_run_timestamp_seconds{'):
            if needle not in text:
                failures.append(f'the export has no {needle}')
        if not text.endswith('# EOF\n'):
            failures.append('the export does not end with # EOF')

        out = os.path.join(tmp, 'diskbench.prom')
        res = run([ctl, 'export', '--format=openmetrics', '--output', out] + results, env=env)
        if res.returncode != 0 or open(out).read() != text:
            failures.append(f'--output: status {res.returncode}, the file differs from standard output')

        # Bad input: nothing written over the last good file.
        bogus = os.path.join(tmp, 'bogus.json')
        with open(bogus, 'w') as f:
            f.write('{"not": "a result"}')
        res = run([ctl, 'export', '--format=openmetrics', '--output', out, results[0], bogus], env=env)
        if res.returncode != 14 or open(out).read() != text:
            failures.append(f'a bad file: status {res.returncode} (wanted 14), file kept: '
                            f'{open(out).read() == text}')
        res = run([ctl, 'export', '--format=xml', results[0]], env=env)
        if res.returncode != 2 or 'unknown format' not in res.stderr:
            failures.append(f'--format=xml: status {res.returncode}, {res.stderr!r}')
        check_hostile(ctl, promtool, tmp, env, failures)
        leftovers = [n for n in os.listdir(tmp) if n.startswith('diskbench.prom') and n != 'diskbench.prom']
        if leftovers:
            failures.append(f'temporary files left next to the output: {leftovers}')

    for failure in failures:
        print(f'FAIL: {failure}')
    if not failures:
        print('OK: the export of seek and profile results, and of a hostile one, passes promtool check metrics')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
