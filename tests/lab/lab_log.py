# SPDX-License-Identifier: GPL-3.0-or-later
"""One way of saying what the lab does, on standard error with the time."""

import sys
import time


def log(message):
    print(f'[lab {time.strftime("%H:%M:%S")}] {message}', file=sys.stderr, flush=True)
