#!/usr/bin/python3
"""Reads meson's testlog.json: fails if any test was skipped or did not pass,
or is a Python unittest file that ran no test (a file without its
`harness.main()` call exits 0 having run nothing), and prints the totals as
'N passed, N failed' (the line CI reads)."""
import json
import re
import sys


def ran_no_unittest(test):
    """A unittest file's run says 'Ran N tests' on stderr; none, or N = 0, is a suite that tested nothing."""
    command = test.get("command") or []
    if not any(part.endswith(".py") and ("/tests/integration/test_" in part or "/tests/gui/test_" in part)
               for part in command):
        return False
    return not re.search(r"^Ran [1-9]\d* tests?", test.get("stderr", "") + test.get("stdout", ""), re.M)


passed = failed = skipped = 0
for line in open(sys.argv[1]):
    line = line.strip()
    if not line:
        continue
    test = json.loads(line)
    result = test["result"]
    if result == "OK" and ran_no_unittest(test):
        failed += 1
        print(f"ran no test: {test['name']}")
    elif result == "OK":
        passed += 1
    elif result == "SKIP":
        skipped += 1
        print(f"skipped: {test['name']} (a skipped test is a failure here)")
    else:
        failed += 1
        print(f"{result}: {test['name']}")
print(f"{passed} passed, {failed + skipped} failed")
sys.exit(0 if failed == 0 and skipped == 0 and passed > 0 else 1)
