#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The daemon's notes and warnings in Czech: the real client under Xvfb
(gui_stack.py) with LANGUAGE=cs and a cs_CZ.UTF-8 locale (built with
localedef into a temporary LOCPATH, since this machine has none installed),
its translations from the build tree (DISKBENCH_LOCALEDIR). A real seek run
on the loop device, which has no temperature sensor, gets the daemon's note
"this device reports no temperature" (Job.NoteMessages id "no-temperature");
the app's message area ("messages" action state) shows it in Czech and not
in English, and a screenshot is kept.

Run (as root): meson test -C BUILD --print-errorlogs gui-messages; by hand, with the
arguments every GUI test file takes (tests/gui/README.md) plus --localedir BUILD/po.
"""

import os
import shutil
import subprocess
import sys
import tempfile
import time

import gui_stack

CZECH_NOTE = 'toto zařízení neudává teplotu'
ENGLISH_NOTE = 'this device reports no temperature'


def take_option(name):
    """Removes --NAME VALUE from argv (gui_stack's main() parses the rest)."""
    if name in sys.argv:
        i = sys.argv.index(name)
        value = sys.argv[i + 1]
        del sys.argv[i:i + 2]
        return value
    raise SystemExit(f'{name} is required')


LOCALEDIR = os.path.abspath(take_option('--localedir'))


class MessagesGuiTest(gui_stack.GuiTestCase):

    @classmethod
    def prepare(cls):
        cls.locpath = tempfile.mkdtemp(prefix='diskbench-locale-')
        os.chmod(cls.locpath, 0o755)
        # localedef exits 1 on mere warnings; the locale is there when it is usable.
        subprocess.run(['localedef', '-i', 'cs_CZ', '-f', 'UTF-8', os.path.join(cls.locpath, 'cs_CZ.UTF-8')],
                       capture_output=True)
        if not os.path.isdir(os.path.join(cls.locpath, 'cs_CZ.UTF-8')):
            raise AssertionError('localedef could not build cs_CZ.UTF-8')
        subprocess.run(['chmod', '-R', 'a+rX', cls.locpath], check=True)
        cls.gui.start_app(extra_env={'LOCPATH': cls.locpath, 'LANG': 'cs_CZ.UTF-8', 'LANGUAGE': 'cs',
                                     'DISKBENCH_LOCALEDIR': LOCALEDIR})

    @classmethod
    def tearDownClass(cls):
        super().tearDownClass()
        shutil.rmtree(cls.locpath, ignore_errors=True)

    def messages(self):
        _enabled, _ptype, state = self.gui.describe_action('messages')
        return state[0]

    def test_daemon_note_shown_in_czech(self):
        self.gui.activate('select-device', self.gui.loop.node)
        self.gui.wait_for(lambda: self.gui.window_names(), 20, what='a window')
        self.gui.activate('run-benchmark', 'seek')
        self.gui.wait_status('seek', timeout=180)
        shown = self.gui.wait_for(lambda: self.messages() or None, 20, what='the message area')
        self.assertIn(CZECH_NOTE, shown)
        self.assertNotIn(ENGLISH_NOTE, shown)
        time.sleep(0.5)  # the frame that shows it
        self.gui.screenshot(self.screenshot_path('messages-cs.png'))


if __name__ == '__main__':
    gui_stack.main()
