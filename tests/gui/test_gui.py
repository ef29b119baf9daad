#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The real client under Xvfb against the real daemon (see gui_stack.py).

As the unprivileged test user dbtest-in, through the app's actions on the
session bus: select the loop device, run "seek", wait for the status
"seek:finished:N" (N > 0), take a screenshot and find the current series'
colour drawn; save the result, open it again and save it again (same
series); the run's warning shown in a whole card (its border not
clipped); export the graph as PNG and SVG (valid files); run "burst" and
"sequential" and find their graphs drawn too.

Run (as root): meson test -C BUILD --print-errorlogs gui; by hand, with the
arguments every GUI test file takes (tests/gui/README.md).
"""

import csv
import json
import os
import time
import xml.etree.ElementTree as ET

import gui_stack
from loop_devices import sha256_of
from gui_stack import APP_ACTIONS, MIN_SERIES_PIXELS, count_colour, header_and_chart, png_size, series_pixels

# The reference's orange (ChartTheme::light()), drawn nowhere else in the window.
REFERENCE_COLOURS = ((0xe6, 0x61, 0x00),)
# A run's second series (ChartTheme::light().current[1]): the overview's write rate.
WRITE_COLOURS = ((0x26, 0xa2, 0x69),)



class GuiTest(gui_stack.GuiTestCase):
    """Steps in order (numbered): each needs the app state the one before left."""

    def run_kind(self, kind):
        self.gui.activate('run-benchmark', kind)
        kind_, state, points = self.gui.wait_status(kind, timeout=180)
        self.assertEqual((kind_, state), (kind, 'finished'))
        self.assertGreater(points, 0)
        return points

    def wait_json(self, path):
        def loaded():
            try:
                with open(path) as f:
                    return json.load(f)
            except (OSError, ValueError):
                return None
        return self.gui.wait_for(loaded, 20, what=f'{path} to hold JSON')

    # ---- the steps ----

    def test_00_app_exports_its_actions(self):
        actions = set(self.gui.list_actions())
        self.assertFalse(set(APP_ACTIONS) - actions,
                         f'missing actions; the app has {sorted(actions)}')
        enabled, ptype, state = self.gui.describe_action('status')
        self.assertEqual(ptype, '')
        self.assertEqual(len(state), 1, 'status must be stateful')
        for name in ('select-device', 'run-benchmark', 'save-result', 'open-result',
                     'export-graph', 'export-data'):
            self.assertEqual(self.gui.describe_action(name)[1], 's', name)
        self.assertTrue(self.gui.window_names(), 'no window on the screen')

    def test_01_seek_runs_and_is_drawn(self):
        self.gui.activate('select-device', self.gui.loop.node)
        self.gui.activate('show-page', 'seek')
        # The control: no graph yet, so the pixel check must find (almost) nothing.
        empty = self.screenshot_path('before-seek.png')
        self.gui.wait_for(lambda: self.gui.window_names(), 20, what='a window')
        time.sleep(1)  # the first frame
        self.gui.screenshot(empty)
        self.assertLessEqual(series_pixels(empty), MIN_SERIES_PIXELS // 2,
                             f'{empty} shows the series colours before any run: '
                             'the pixel check cannot tell a graph from the rest')
        # No messages yet: the chart follows the header with only the
        # margins between (a hidden warnings card once kept a blank band
        # of its height there).
        header_bottom, frame_top = header_and_chart(empty)
        self.assertLessEqual(frame_top - header_bottom, 30,
                             f'{empty}: {frame_top - header_bottom} px of blank page between the header '
                             f'(down to row {header_bottom}) and the chart (from row {frame_top})')
        # A setting made in the app reaches the daemon: 300 reads, not 1000.
        self.gui.activate_action('set-parameter', "('count', <uint64 300>)")
        # The 300 reads and the 19 points of their latency distribution ("cdf").
        self.assertEqual(self.run_kind('seek'), 300 + 19)
        self.wait_series_drawn('seek.png')
        # The run's one warning (a loop device reports no temperature) in
        # its card, one line: the card whole, its top border included (a
        # revealer that clipped it cut that border off, see 47e403b).
        self.assert_warnings_card_whole('seek-warnings.png')

    def test_02_save_open_save_keeps_series(self):
        first = self.gui.user_path('seek-result.json')
        second = self.gui.user_path('seek-result-again.json')
        self.gui.activate('save-result', first)
        saved = self.wait_json(first)
        self.assertTrue(saved.get('series'), f'no series in {first}: {saved}')
        self.gui.activate('open-result', first)
        kind, state, points = self.gui.wait_status('seek', timeout=20)
        self.assertEqual(state, 'finished')
        self.gui.activate('save-result', second)
        again = self.wait_json(second)
        self.assertEqual(saved['series'], again['series'])

    def test_03_export_png_and_svg(self):
        png = self.gui.user_path('seek.png')
        svg = self.gui.user_path('seek.svg')
        self.gui.activate('export-graph', png)
        self.gui.wait_for(lambda: os.path.exists(png) and os.path.getsize(png) > 33, 20,
                          what=f'{png} to be written')
        width, height = self.gui.wait_for(lambda: _try(png_size, png), 10,
                                          what=f'{png} to be a complete PNG')
        self.assertGreater(width, 0)
        self.assertGreater(height, 0)
        self.gui.activate('export-graph', svg)
        # (a tuple: an Element without children is false)
        root, = self.gui.wait_for(lambda: _try(lambda p: (ET.parse(p).getroot(),), svg), 20,
                                  what=f'{svg} to be well-formed XML')
        self.assertIn(root.tag, ('svg', '{http://www.w3.org/2000/svg}svg'))
        # The shown seek's data as CSV (issue 31): each series a file
        # beside the name asked for, a header with units, a row per read.
        data = self.gui.user_path('seek-data.csv')
        self.gui.activate('export-data', data)
        latency = self.gui.user_path('seek-data-latency.csv')
        rows = self.gui.wait_for(lambda: _try(lambda p: list(csv.reader(open(p, newline=''))), latency), 20,
                                 what=f'{latency} to be written')
        self.assertEqual(rows[0], ['distance (B)', 'latency (us)'])
        self.assertEqual(len(rows), 1 + 300)
        # and its latency distribution, a file of its own
        cdf = self.gui.user_path('seek-data-cdf.csv')
        rows = self.gui.wait_for(lambda: _try(lambda p: list(csv.reader(open(p, newline=''))), cdf), 20,
                                 what=f'{cdf} to be written')
        self.assertEqual(rows[0], ['latency (us)', 'cdf (%)'])

    def test_03b_overview_is_the_first_page_and_draws(self):
        """Issue 31: a GNOME Disks user picks a disk, stays on the first
        page and presses Start: the read rate over the whole disk drawn,
        the headline's numbers under it."""
        self.gui.activate('select-device', self.gui.loop.node)
        self.gui.activate_action('go-to-page', 'int32 1')
        self.gui.wait_status('overview', states=('idle', 'finished'), min_points=0, timeout=30)
        self.gui.activate_action('set-parameter', "('access_reads', <uint64 200>)")
        # 256 MiB: 100 samples of 10 MiB, all distinct places, and the
        # 200 access times.
        self.assertEqual(self.run_kind('overview'), 100 + 200)
        shot = self.wait_series_drawn('overview.png')
        print(f'{shot}: the overview', flush=True)

    def test_03c_overview_with_the_write_rate_keeps_the_data(self):
        """GNOME Disks' opt-in write rate: read and write drawn, each in
        its colour; the device byte-identical afterwards."""
        before = sha256_of(self.gui.loop.backing)
        self.gui.activate_action('set-parameter', "('write', <true>)")
        # The page still shows the last overview (finished, 300 points) until
        # this run's start comes back: wait for this run's 100 + 100 + 200.
        self.gui.activate('run-benchmark', 'overview')
        self.gui.wait_status('overview', states=('finished',), min_points=100 + 100 + 200, timeout=180)
        self.assertEqual(self.gui.status(), ('overview', 'finished', 100 + 100 + 200))
        shot = self.wait_series_drawn('overview-write.png')
        # The write line in the second series colour (ChartTheme::light().current[1]).
        def green():
            self.gui.screenshot(shot)
            return count_colour(shot, WRITE_COLOURS) > 100
        self.gui.wait_for(green, 10, interval=0.5, what=f'the write rate drawn in green in {shot}')
        self.assertEqual(sha256_of(self.gui.loop.backing), before, 'the device changed')
        self.gui.activate_action('set-parameter', "('write', <false>)")

    def test_03d_burst_runs_and_is_drawn(self):
        """Issue 41's proof kind, HD Tune's burst rate: a line of MB/s over
        the measured time, a point per 50 ms window."""
        # 2 s measured after 0.2 s of warm-up (the defaults): some 40 windows.
        self.assertGreaterEqual(self.run_kind('burst'), 20)
        self.wait_series_drawn('burst.png')

    def test_04_sequential_runs_and_is_drawn(self):
        self.run_kind('sequential')
        self.wait_series_drawn('sequential.png')

    def test_05_runs_are_kept_and_overlay_as_reference(self):
        # The finished runs were kept in the user's XDG data dir (the
        # reference picker's "this disk, last time").
        kept_dir = self.gui.user_path('.local', 'share', 'diskbench', 'results')
        suffix = '-sequential-' + os.path.basename(self.gui.loop.node) + '.json'
        kept = sorted(f for f in os.listdir(kept_dir) if f.endswith(suffix))
        self.assertTrue(kept, f'no kept sequential result in {kept_dir}: {os.listdir(kept_dir)}')
        # The control: before a reference is set, no orange anywhere.
        self.assertLessEqual(count_colour(self.screenshot_path('sequential.png'), REFERENCE_COLOURS), 25,
                             'the reference colour shows before a reference was set')
        shot = self.screenshot_path('sequential-reference.png')
        self.gui.activate('set-reference', os.path.join(kept_dir, kept[-1]))

        def overlaid():
            self.gui.screenshot(shot)
            return count_colour(shot, REFERENCE_COLOURS) > MIN_SERIES_PIXELS
        self.gui.wait_for(overlaid, 15, interval=0.5, what='the reference drawn in its colour')
        self.gui.activate('set-reference', '')

        def removed():
            self.gui.screenshot(shot)
            return count_colour(shot, REFERENCE_COLOURS) <= 25
        self.gui.wait_for(removed, 15, interval=0.5, what='the reference gone again')


def _try(fn, *args):
    try:
        return fn(*args)
    except (OSError, ValueError, ET.ParseError):
        return None


if __name__ == '__main__':
    gui_stack.main()
