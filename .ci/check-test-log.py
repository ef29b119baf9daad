#!/usr/bin/python3
"""Reads meson's testlog.json: fails if any test was skipped or did not pass,
and prints the totals as 'N passed, N failed' (the line CI reads)."""
import json
import sys

passed = failed = skipped = 0
for line in open(sys.argv[1]):
    line = line.strip()
    if not line:
        continue
    test = json.loads(line)
    result = test["result"]
    if result == "OK":
        passed += 1
    elif result == "SKIP":
        skipped += 1
        print(f"skipped: {test['name']} (a skipped test is a failure here)")
    else:
        failed += 1
        print(f"{result}: {test['name']}")
print(f"{passed} passed, {failed + skipped} failed")
sys.exit(0 if failed == 0 and skipped == 0 and passed > 0 else 1)
