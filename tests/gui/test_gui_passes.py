#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Passes in the real client under Xvfb against the real daemon (gui_stack.py).

As the test user: select the loop device, set passes=3 ("set-parameter"),
run "sequential", wait for "sequential:finished:N", take a screenshot and
find both the median drawn strongly (the series colour) and the passes drawn
faintly (the series colour at 30 % over the graph's white, counted only
where no strong pixel is near, since the strong line's anti-aliased edge
has that colour too: passes on a loop device differ from their median
enough to show apart from it).

Run (as root): meson test -C BUILD --print-errorlogs gui-passes; by hand, with the
arguments every GUI test file takes (tests/gui/README.md).
"""

import json
import os
import subprocess
import time

import gui_stack
from gui_stack import SERIES_COLOURS, read_png, series_pixels

# ChartTheme::light()'s first series colour (#1c71d8) at alpha 0.3 over white.
FAINT_COLOURS = (tuple(round(255 - 0.3 * (255 - c)) for c in (0x1c, 0x71, 0xd8)),)

MIN_SERIES_PIXELS = 50
MIN_FAINT_PIXELS = 20


def faint_pixels(path, tolerance=10, clearance=3):
    """Pixels of the faint colour with no pixel of the strong series colours
    within CLEARANCE: the anti-aliased edge of the strong line has the faint
    colour too, a pass drawn apart from the median has nothing strong near."""
    width, height, rgb = read_png(path)

    def near(px, colours, tol):
        return any(all(abs(a - b) <= tol for a, b in zip(px, c)) for c in colours)
    pixels = list(zip(rgb[0::3], rgb[1::3], rgb[2::3]))
    strong = {i for i, px in enumerate(pixels) if near(px, SERIES_COLOURS, 40)}
    count = 0
    for i, px in enumerate(pixels):
        if not near(px, FAINT_COLOURS, tolerance):
            continue
        y, x = divmod(i, width)
        if not any((y + dy) * width + (x + dx) in strong
                   for dy in range(-clearance, clearance + 1) for dx in range(-clearance, clearance + 1)
                   if 0 <= y + dy < height and 0 <= x + dx < width):
            count += 1
    return count


class PassesGuiTest(gui_stack.GuiTestCase):

    def test_passes_drawn_faintly_under_the_median(self):
        self.gui.activate('select-device', self.gui.loop.node)
        self.gui.wait_for(lambda: self.gui.window_names(), 20, what='a window')
        time.sleep(1)  # the first frame
        before = self.screenshot_path('before-passes.png')
        self.gui.screenshot(before)
        faint_before = faint_pixels(before)
        # set-parameter sets the shown page's parameters: a first run shows
        # the sequential page (one pass, the default).
        self.gui.activate('run-benchmark', 'sequential')
        self.gui.wait_status('sequential', timeout=180)
        self.gui.activate_action('set-parameter', "('passes', <uint64 3>)")
        self.gui.activate_action('set-parameter', "('block_size', <uint64 1048576>)")
        self.gui.activate('run-benchmark', 'sequential')
        kind, state, points = self.gui.wait_status('sequential', timeout=180, min_points=64 * 4)
        self.assertEqual((kind, state), ('sequential', 'finished'))
        self.assertGreater(points, 0)
        time.sleep(1.5)  # the frame after the run's end (the median comes last)
        shot = self.screenshot_path('sequential-passes.png')
        last = [0, 0]

        def drawn():
            self.gui.screenshot(shot)
            last[:] = [series_pixels(shot), faint_pixels(shot)]
            return last[0] > MIN_SERIES_PIXELS and last[1] > faint_before + MIN_FAINT_PIXELS
        self.gui.wait_for(drawn, 20, interval=0.5,
                          what=f'the median ({MIN_SERIES_PIXELS}+ series pixels) and faint passes '
                               f'({MIN_FAINT_PIXELS}+ more pixels than the {faint_before} before the run)')
        print(f'screenshot {shot}: {last[0]} median pixels, {last[1]} faint pixels '
              f'({faint_before} before the run)', flush=True)

    def test_profiles_grid_spread_of_a_saved_result(self):
        """A 3-pass profile measured by diskbench-engine (the same engine,
        as root on the stack's loop device; its JSON is a result file the
        app opens) shows in the Profiles grid with its spread; saving it
        again keeps every pass's series."""
        app = os.path.abspath(self.gui.app_argv[0])
        engine = os.path.join(os.path.dirname(os.path.dirname(app)), 'daemon', 'tools', 'diskbench-engine')
        result = self.gui.user_path('profile-passes.json')
        with open(result, 'w') as out:
            subprocess.run([engine, 'profile', self.gui.loop.node, 'passes=3', 'duration_s=0.5',
                            'warmup_s=0.1', 'region_size=67108864'], stdout=out, check=True)
        os.chmod(result, 0o644)
        self.gui.activate('select-device', self.gui.loop.node)  # the pages, not the sidebar alone
        self.gui.activate('open-result', result)
        kind, state, _points = self.gui.wait_status('profile', timeout=20)
        self.assertEqual(state, 'finished')
        time.sleep(1.5)  # the frame with the grid
        self.gui.screenshot(self.screenshot_path('profile-passes.png'))
        again = self.gui.user_path('profile-passes-again.json')
        self.gui.activate('save-result', again)
        saved = self.gui.wait_for(lambda: _json(again), 20, what=f'{again} to hold JSON')
        names = [s['name'] for s in saved['series']]
        self.assertIn('throughput.pass3', names)
        self.assertIn('seq1m_q8t1.throughput_mb_s_cv_percent', saved['summary'])


def _json(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


if __name__ == '__main__':
    gui_stack.main()
