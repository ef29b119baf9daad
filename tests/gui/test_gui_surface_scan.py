#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The Surface page on a dying drive (issue 30): a loop device over the FUSE
file of tests/integration/stalling-fuse, with planted bad and slow
sectors, scanned from the app. The error-scan card must draw red cells for
the bad blocks and yellow ones for the slow spots (pixels counted on the
screen), say it in its summary line, and never a plain "✓"; Ctrl+C copies
the list of bad ranges.

The Capacity page on a fake stick (a second FUSE disk that wraps at 40 MiB
of its 64): its check, kept by diskbenchctl and opened in the app, draws
the intact share along the device and leads the checks card with the
loss. The Burn-in page on the same fake: its run, kept by diskbenchctl,
draws the write speed along the device and leads the checks card with the
blocks that read back wrong."""

import os
import subprocess
import time

import gui_stack
from gui_stack import count_colour, series_pixels

MiB = 1024 * 1024
SECTOR = 512
# client-gtk/app/fault_map.cpp: GNOME red 4 and yellow 4.
BAD_COLOURS = ((0xc0, 0x1c, 0x28),)
SLOW_COLOURS = ((0xf5, 0xc2, 0x11),)
CELL_PIXELS = 60  # of a 10 x 10 cell's 100, allowing for the screenshot's scaling


class SurfaceScanGuiTest(gui_stack.GuiTestCase):
    gui_options = {'loop_size': 0}

    @classmethod
    def prepare(cls):
        cls.sick = cls.stack.attach_stalling_disk(size=64 * MiB)
        # Two bad ranges in two buckets (1 MiB each on 64 MiB), and a weak
        # sector slow every time in a third.
        cls.sick.plant_faults([f'eio {10 * MiB + 7 * SECTOR} {8 * SECTOR}', f'eio {40 * MiB} {64 * SECTOR}',
                               f'slow {50 * MiB} 4096 80'])
        cls.fake = cls.stack.attach_stalling_disk(size=64 * MiB)
        cls.fake.plant_faults([f'wrap {40 * MiB}'])
        cls.gui.start_app()

    def fault_map(self):
        _enabled, _ptype, state = self.gui.describe_action('fault-map')
        return state[0]

    def test_map_shows_bad_and_slow_cells(self):
        self.gui.activate('select-device', self.sick.loop.node)
        self.gui.activate('show-page', 'surface')
        time.sleep(1)
        before = self.screenshot_path('surface-scan-before.png')
        self.gui.screenshot(before)
        red_before = count_colour(before, BAD_COLOURS, tolerance=10)
        yellow_before = count_colour(before, SLOW_COLOURS, tolerance=10)

        # Above anything a loaded test machine does by itself.
        self.gui.activate_action('set-parameter', "('slow_ms', <40.0>)")
        self.gui.activate('run-benchmark', 'surface')
        kind, state, _points = self.gui.wait_status('surface', timeout=180)
        self.assertEqual((kind, state), ('surface', 'finished'))
        described = self.gui.wait_for(lambda: (d := self.fault_map()).startswith('bad=2 ') and d, 20,
                                      what='the error-scan card to show the scan\'s end')
        counts, _, line = described.partition('|')
        print(f'fault-map: {described}', flush=True)
        self.assertEqual(counts, 'bad=2 slow=1 good=61 cells=64')
        self.assertTrue(line.startswith('⚠ 2 bad ranges, ') and ' unreadable, the first at ' in line, line)
        self.assertIn('1 slow spot, 1 of them slow every time', line)

        shot = self.screenshot_path('surface-scan.png')
        last = []

        def drawn():
            self.gui.screenshot(shot)
            last[:] = [count_colour(shot, BAD_COLOURS, tolerance=10) - red_before,
                       count_colour(shot, SLOW_COLOURS, tolerance=10) - yellow_before]
            return last[0] >= 2 * CELL_PIXELS and last[1] >= CELL_PIXELS
        self.gui.wait_for(drawn, 20, interval=0.5, what='two red cells and a yellow one on the screen')
        print(f'{shot}: {last[0]} red pixels more than before, {last[1]} yellow', flush=True)
        # The checks card leads with the drive's state, a warning.
        checks = self.gui.describe_action('checks')[2][0]
        self.assertTrue(checks.startswith('⚠ bad ranges: 2, '), checks)
        self.assertNotIn('✓ Surface', checks)

    def test_capacity_page_shows_a_fake(self):
        app = os.path.abspath(self.gui.app_argv[0])
        ctl = os.path.join(os.path.dirname(os.path.dirname(app)), 'client-cli', 'diskbenchctl')
        node = self.fake.loop.node
        result = self.gui.user_path('capacity.json')
        res = subprocess.run([ctl, 'run', 'verify-capacity', node, 'mode=destroy', f'confirm={node}',
                              '--no-save', '--output', result],
                             env=dict(os.environ, DBUS_SYSTEM_BUS_ADDRESS=self.stack.address),
                             capture_output=True, text=True, timeout=120)
        self.assertEqual(res.returncode, 16, res.stderr)  # the fake's own exit status
        os.chmod(result, 0o644)
        self.gui.activate('select-device', node)
        self.gui.activate('show-page', 'verify-capacity')
        time.sleep(1)
        empty = self.screenshot_path('capacity-empty.png')
        self.gui.screenshot(empty)
        self.gui.activate('open-result', result)
        kind, state, points = self.gui.wait_status('verify-capacity', timeout=20)
        self.assertEqual((kind, state), ('verify-capacity', 'finished'))
        self.assertGreaterEqual(points, 100)
        shot = self.wait_series_drawn('capacity.png')
        print(f'{shot}: {series_pixels(shot)} series pixels, {series_pixels(empty)} before', flush=True)
        checks = self.gui.describe_action('checks')[2][0]
        self.assertTrue(checks.startswith('⚠ data beyond 40 MiB of the claimed 64 MiB is lost'), checks)
        self.assertNotIn('✓ Capacity', checks)
        self.assertIn('writes beyond 40 MiB land at the start', self.gui.describe_action('messages')[2][0])

    def test_burn_in_page_shows_a_failed_drive(self):
        app = os.path.abspath(self.gui.app_argv[0])
        ctl = os.path.join(os.path.dirname(os.path.dirname(app)), 'client-cli', 'diskbenchctl')
        node = self.fake.loop.node
        result = self.gui.user_path('burn-in.json')
        res = subprocess.run([ctl, 'run', 'burn-in', node, 'mode=destroy', f'confirm={node}', 'block_size=65536',
                              '--no-save', '--output', result],
                             env=dict(os.environ, DBUS_SYSTEM_BUS_ADDRESS=self.stack.address),
                             capture_output=True, text=True, timeout=120)
        self.assertEqual(res.returncode, 17, res.stderr)  # a failed burn-in's own exit status
        os.chmod(result, 0o644)
        self.gui.activate('select-device', node)
        self.gui.activate('open-result', result)
        kind, state, points = self.gui.wait_status('burn-in', timeout=20)
        self.assertEqual((kind, state), ('burn-in', 'finished'))
        self.assertGreater(points, 0)
        shot = self.wait_series_drawn('burn-in.png')
        print(f'{shot}: {series_pixels(shot)} series pixels', flush=True)
        checks = self.gui.describe_action('checks')[2][0]
        self.assertTrue(checks.startswith('⚠ blocks read back other than written: '), checks)
        self.assertIn('the sector at 0 holds what was written to 41943040', self.gui.describe_action('messages')[2][0])


if __name__ == '__main__':
    gui_stack.main()
