#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Hostile files in the results folder, in the real client under Xvfb (see
gui_stack.py; issue 26).

The app reads every file of $XDG_DATA_HOME/diskbench/results when it starts.
Besides two good results of the loop device, the folder holds one nested
200,000 arrays deep (valid JSON that overflowed json-glib's parser: the
app crashed at start), one larger than a result can be (a sparse file) and
a FIFO (which would block a reader): the app starts, the History page lists
the two good results ("history:idle:2"), and the bad files are skipped with
one warning each (expected_complaints).

Run (as root): meson test -C BUILD --print-errorlogs gui-hostile-results; by
hand, with the arguments every GUI test file takes (tests/gui/README.md).
"""

import json
import os
import pwd
import re

import gui_stack
from harness import wait_until

# Escape sequences in a good result's texts: shown as text by GTK, they must
# not keep it from being listed.
EVIL = '\x1b]0;owned\x07\x1b[2J\nverified OK \u009b31m\x7f'


class HostileResultsGuiTest(gui_stack.GuiTestCase):

    # The app's one warning for each bad file it skips (asserted below).
    expected_complaints = (re.compile(r'WARNING \*\*: [0-9:.]+: skipped .*/(deep|large|fifo)\.json: '),)

    @classmethod
    def prepare(cls):
        pw = pwd.getpwnam(cls.gui.user)
        path = cls.gui.home
        for part in ('.local', 'share', 'diskbench', 'results'):
            path = os.path.join(path, part)
            os.makedirs(path, exist_ok=True)
            os.chown(path, pw.pw_uid, pw.pw_gid)
        cls.results = path
        loop = cls.gui.loop

        def device_identity():
            # The identity the app matches results by (device_info_of()),
            # once the daemon has the device.
            try:
                return {key: cls.daemon_property(cls, loop.object_path, 'Device', prop)
                        for key, prop in (('model', 'Model'), ('vendor', 'Vendor'), ('serial', 'Serial'),
                                          ('wwn', 'WWN'), ('size', 'Size'), ('node', 'Node'))}
            except Exception:  # noqa: BLE001 - not on the bus yet
                return None
        identity = wait_until(device_identity, 30, interval=0.5, what=f'{loop.node} on the daemon')
        for name, minute, text in (('good.json', 0, ''), ('evil.json', 1, EVIL)):
            cls.write(name, json.dumps({
                'schema_version': 1, 'kind': 'seek', 'state': 'finished', 'backend': 'io_uring' + text,
                'target_kind': 'device', 'target': loop.node,
                'started_at_us': 1_700_000_000_000_000 + minute * 60_000_000,
                'finished_at_us': 1_700_000_001_000_000 + minute * 60_000_000,
                'parameters': {'count': 100}, 'summary': {'latency_mean_us': 8500.0 + minute, 'reads': 100},
                'device_info': identity, 'warnings': ['warning' + text], 'notes': ['note' + text],
                'series': [{'name': 'latency', 'x_unit': 'B', 'y_unit': 'us', 'style': 'scatter',
                            'points': [[0, 1.0], [4096, 2.0]]}],
            }), pw)
        cls.write('deep.json', '[' * 200_000 + ']' * 200_000, pw)
        with open(os.path.join(cls.results, 'large.json'), 'w') as f:
            f.truncate(256 * 1024 * 1024 + 1)  # sparse: past the limit without using the disk
        os.mkfifo(os.path.join(cls.results, 'fifo.json'))
        cls.gui.start_app()

    @classmethod
    def write(cls, name, text, pw):
        path = os.path.join(cls.results, name)
        with open(path, 'w') as f:
            f.write(text)
        os.chown(path, pw.pw_uid, pw.pw_gid)

    def test_starts_and_lists_the_good_results(self):
        self.gui.activate('select-device', self.gui.loop.node)
        self.gui.activate('show-page', 'history')
        self.gui.wait_for(lambda: self.gui.status() == ('history', 'idle', 2), 30,
                          what=f'history:idle:2 (status {self.gui.status()})')
        path = self.screenshot_path('hostile-results.png')
        self.gui.screenshot(path)
        print(f'screenshot {path}', flush=True)
        self.gui.check_app_alive()
        log = self.gui.app_log()
        for name in ('deep.json', 'large.json', 'fifo.json'):
            self.assertEqual(log.count(os.path.join(self.results, name)), 1, log)
        self.assertNotIn('good.json', log)
        self.assertNotIn('evil.json', log)


if __name__ == '__main__':
    gui_stack.main()
