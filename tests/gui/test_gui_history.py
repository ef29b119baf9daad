#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""History per device, in the real client under Xvfb (see gui_stack.py).

Two seek runs on the loop device are kept by the app in
$XDG_DATA_HOME/diskbench/results; the History page ("history:idle:N" in the
status action, N the results listed) lists both, and its trend of Seek's
access time is drawn; the page reached with the keyboard (Ctrl+Page Up,
Ctrl+Page Down) has its newest result focused; ticking both (Tab, Space, Down, Tab, Space) and
Alt+C (Compare) shows the newer on the Seek page with the older as the
reference (orange pixels); Delete deletes the newest one:
its file is gone, the other stays, the list shows one.

Run (as root): meson test -C BUILD --print-errorlogs gui-history; by hand, with the
arguments every GUI test file takes (tests/gui/README.md).
"""

import json
import os
import time

import gui_stack
from gui_stack import series_pixels

# The reference's orange (ChartTheme::light()), drawn nowhere else in the window.
REFERENCE_COLOURS = ((0xe6, 0x61, 0x00),)
# ChartTheme::light().overlays: the results compared with, in the order added.
OVERLAY_COLOURS = ((0xe6, 0x61, 0x00), (0x86, 0x5e, 0x3c), (0x3d, 0x38, 0x46), (0x0b, 0x7a, 0x75))


class HistoryGuiTest(gui_stack.GuiTestCase):
    """Steps in order: each needs the app state the one before left."""

    @classmethod
    def prepare(cls):
        cls.gui.start_app()
        cls.results = cls.gui.user_path('.local', 'share', 'diskbench', 'results')

    def kept(self):
        if not os.path.isdir(self.results):
            return []
        return sorted(os.path.join(self.results, n) for n in os.listdir(self.results) if n.endswith('.json'))

    def wait_listed(self, count):
        return self.gui.wait_for(
            lambda: (lambda s: s if s == ('history', 'idle', count) else None)(self.gui.status()),
            15, what=f'history:idle:{count} (status {self.gui.status()})')

    def test_01_two_runs_kept(self):
        self.gui.activate('show-page', 'seek')
        self.gui.wait_status('seek', states=('idle',), min_points=0, timeout=30)
        self.gui.activate('select-device', self.gui.loop.node)
        self.gui.activate_action('set-parameter', "('count', <uint64 200>)")
        for run in range(2):
            before = len(self.kept())
            self.gui.activate('run-benchmark', 'seek')
            if run:  # the first run's "finished" must not count for the second
                self.gui.wait_status('seek', states=('running', 'finished'), min_points=0, timeout=30)
            self.gui.wait_for(lambda: len(self.kept()) == before + 1, 60, what=f'run {run + 1} kept')
            self.gui.wait_status('seek', states=('finished',), min_points=1, timeout=60)
        self.assertEqual(len(self.kept()), 2)
        for path in self.kept():
            with open(path) as f:
                result = json.load(f)
            self.assertEqual(result['kind'], 'seek')
            self.assertEqual(result['device_info']['node'], self.gui.loop.node)

    def test_02_history_lists_both_and_draws_the_trend(self):
        self.gui.activate('show-page', 'history')
        self.wait_listed(2)
        self.gui._xdotool('mousemove', '1275', '795')  # no tooltip over the list
        time.sleep(1)  # drawn
        path = self.screenshot_path('history.png')
        # The trend's line through the two access times, in the series colour.
        self.gui.wait_for(lambda: self.gui.screenshot(path) or series_pixels(path) > 20, 10, interval=0.5,
                          what=f'the trend drawn in {path}')
        print(f'screenshot {path}: {series_pixels(path)} series pixels', flush=True)

    def focus_newest(self):
        """History by keyboard (away and back): its newest result takes the focus."""
        self.gui.activate('show-page', 'history')
        self.wait_listed(2)
        self.gui.send_keys('ctrl+Prior')
        self.gui.wait_for(lambda: (self.gui.status() or ('',))[0] != 'history', 10, what='the page before History')
        self.gui.send_keys('ctrl+Next')
        self.wait_listed(2)
        gui_stack.settle(0.3)  # the page's focus is set once it is shown

    def test_02b_two_picked_are_compared(self):
        # Tab into the newest row's tick box, Space; Down to the next row,
        # Tab, Space; Alt+C (Compare): the Seek page shows the newer run
        # with the older as the reference, in the reference's orange.
        self.focus_newest()
        self.gui.send_keys('Tab', 'space', 'Down', 'Tab', 'space')
        path = self.screenshot_path('history-picked.png')
        self.gui.screenshot(path)
        self.gui.send_keys('alt+c')
        self.gui.wait_status('seek', states=('finished',), min_points=1, timeout=15)
        shot = self.screenshot_path('history-compared.png')

        def orange():
            self.gui.screenshot(shot)
            return gui_stack.count_colour(shot, REFERENCE_COLOURS) > 50
        self.gui.wait_for(orange, 10, interval=0.5, what=f'the older run drawn as the reference in {shot} '
                                                          f'(ticked: {path})')

    def test_03_delete_key_deletes_the_focused_result(self):
        newest, oldest = max(self.kept(), key=os.path.getmtime), min(self.kept(), key=os.path.getmtime)
        self.focus_newest()
        self.gui.send_keys('Delete')
        self.wait_listed(1)
        self.assertFalse(os.path.exists(newest), f'{newest} still there')
        self.assertTrue(os.path.exists(oldest), f'{oldest} deleted too')
        self.assertEqual(self.kept(), [oldest])
        time.sleep(0.5)
        path = self.screenshot_path('history-deleted.png')
        self.gui.screenshot(path)
        print(f'screenshot {path}', flush=True)
        self.gui.check_app_alive()


    def test_04_four_results_compared_at_once(self):
        """Four earlier seeks drawn under the newest, each in its colour
        (ChartTheme::light().overlays) with a legend entry."""
        self.gui.activate('show-page', 'seek')
        self.gui.wait_status('seek', min_points=0, timeout=15)
        while len(self.kept()) < 5:
            before = len(self.kept())
            self.gui.activate('run-benchmark', 'seek')
            self.gui.wait_for(lambda: len(self.kept()) == before + 1, 60, what='another seek kept')
        self.gui.wait_status('seek', states=('finished',), min_points=1, timeout=60)
        self.gui.activate('set-reference', '')
        gui_stack.settle(0.5)
        alone = self.screenshot_path('compare-none.png')
        self.gui.screenshot(alone)
        before = [gui_stack.count_colour(alone, (colour,)) for colour in OVERLAY_COLOURS]
        newest = max(self.kept(), key=os.path.getmtime)
        for path in sorted((p for p in self.kept() if p != newest), key=os.path.getmtime)[-4:]:
            self.gui.activate('set-reference', path)
        shot = self.screenshot_path('compare-four.png')
        counts = []

        def all_four():
            self.gui.screenshot(shot)
            counts[:] = [gui_stack.count_colour(shot, (colour,)) for colour in OVERLAY_COLOURS]
            return all(after - was > 40 for after, was in zip(counts, before))
        self.gui.wait_for(all_four, 15, interval=0.5,
                          what=f'four overlays in their colours in {shot} (pixels {counts}, before {before})')
        print(f'screenshot {shot}: overlay pixels {counts}', flush=True)

if __name__ == '__main__':
    gui_stack.main()
