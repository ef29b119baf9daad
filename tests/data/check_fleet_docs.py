#!/usr/bin/python3
"""Checks docs/fleet: `promtool check rules` and `promtool test rules` on
the alerting rules, and the dashboard: JSON, a Prometheus query in every
panel that draws data, only diskbench_ metrics the export documents
(docs/metrics.md lists every family).

Usage: check_fleet_docs.py PROMTOOL FLEET_DIR
"""
import json
import os
import re
import subprocess
import sys


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    promtool, fleet = sys.argv[1], sys.argv[2]
    failures = []
    for argv in ([promtool, 'check', 'rules', 'diskbench-alerts.yml'],
                 [promtool, 'test', 'rules', 'diskbench-alerts.test.yml']):
        # promtool test rules finds rule_files relative to the test file's folder.
        proc = subprocess.run(argv, cwd=fleet, capture_output=True, text=True)
        sys.stdout.write(proc.stdout + proc.stderr)
        if proc.returncode != 0:
            failures.append(' '.join(argv[1:]) + f' exited with {proc.returncode}')

    with open(os.path.join(fleet, 'diskbench-dashboard.json')) as f:
        dashboard = json.load(f)
    with open(os.path.join(fleet, '..', 'metrics.md')) as f:
        documented = set(re.findall(r'`(diskbench_[a-z_]+)`', f.read()))
    panels = []

    def walk(items):
        for panel in items:
            panels.append(panel)
            walk(panel.get('panels', []))
    walk(dashboard.get('panels', []))
    drawing = [p for p in panels if p.get('type') != 'row']
    if not drawing:
        failures.append('the dashboard has no panels')
    for panel in drawing:
        exprs = [t.get('expr', '') for t in panel.get('targets', [])]
        if not any(exprs):
            failures.append(f'panel {panel.get("title")!r} queries nothing')
        for expr in exprs:
            for name in re.findall(r'\bdiskbench_[a-z_]+', expr):
                if name not in documented:
                    failures.append(f'panel {panel.get("title")!r} queries {name}, which docs/metrics.md '
                                    'does not list')
    print(f'{len(drawing)} panels, {sum(len(p.get("targets", [])) for p in drawing)} queries')
    for failure in failures:
        print('FAIL:', failure)
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
