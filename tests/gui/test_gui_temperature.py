#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The drive's temperature drawn over a graph: the app's right-hand axis.

No drive here has a sensor (loop devices have none, the VM's own disk must
not be touched), so, as in tests/integration/test_drive_temperature.py,
python3-dbusmock plays org.freedesktop.UDisks2 with a Drive.Ata
SmartTemperature for a real loop device we attach; diskbenchd and polkitd
are real. Two sustained writes run on it (as root, over the bus) with the
same real slowdown from the middle on (competing writers; both from
devtools/stack/mock_drive.py): once with the
drive at 76 °C before the slowdown (the daemon calls it thermal
throttling), once at 45 °C (a cache cliff). `diskbenchctl watch -o` keeps
each job as a result file; the app opens both, and the temperature must be
drawn: pixels of the overlay's red (ChartTheme::light().secondary) in the
exported graph and more of them on screen than before the result was shown;
the run's warnings in a card drawn whole (assert_warnings_card_whole).

Run (as root): meson test -C BUILD --print-errorlogs gui-temperature; by hand, with the
arguments every GUI test file takes (tests/gui/README.md).
"""

import json
import os
import subprocess
import time

import gui_stack
from gui_stack import count_colour, series_pixels
from mock_drive import MockDrive, add_mock_manager, sustained_write_with_planted_drop

# ChartTheme::light().secondary (GNOME red 3): the temperature's line and axis.
OVERLAY_COLOURS = ((0xe0, 0x1b, 0x24),)
MIN_OVERLAY_PIXELS = 60


class TemperatureGuiTest(gui_stack.GuiTestCase):
    gui_options = {'stack_options': {'udisks': 'mock'}, 'loop_size': 0}

    @classmethod
    def prepare(cls):
        add_mock_manager(cls.stack)
        cls.hot_drive = MockDrive(cls.stack, cls.stack.attach_loop(size=128 * 1024 * 1024),
                                  'Warm_Disk_DBT0101', 45.0)
        cls.hot = cls.hot_drive.loop
        cls.gui.start_app()

    def ctl(self):
        app = os.path.abspath(self.gui.app_argv[0])
        return os.path.join(os.path.dirname(os.path.dirname(app)), 'client-cli', 'diskbenchctl')

    def kept_result(self, job, path):
        """Follows JOB with `diskbenchctl watch -o PATH` to its end; returns the result file."""
        env = dict(os.environ, DBUS_SYSTEM_BUS_ADDRESS=self.stack.address)
        done = subprocess.run([self.ctl(), 'watch', job, '--no-save', '--output', path], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=180, text=True)
        self.assertTrue(os.path.exists(path), done.stderr)
        os.chmod(path, 0o644)
        with open(path) as f:
            return json.load(f)

    def sustained_write_result(self, hot_at_drop, path):
        """The planted slowdown of test_drive_temperature.py (mock_drive.py),
        followed by `diskbenchctl watch -o` from its start and kept as a
        result file at PATH."""
        env = dict(os.environ, DBUS_SYSTEM_BUS_ADDRESS=self.stack.address)
        watches = []

        def follow(job):
            watches.append(subprocess.Popen([self.ctl(), 'watch', job, '--no-save', '--output', path],
                                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE))
        try:
            _job, state = sustained_write_with_planted_drop(self.hot_drive, hot_at_drop, 'DBT0101',
                                                            on_started=follow)
            self.assertEqual(state, 'finished')
            _out, err = watches[0].communicate(timeout=60)
        finally:
            for watch in watches:
                if watch.poll() is None:
                    watch.kill()
                    watch.wait()
        self.assertTrue(os.path.exists(path), err)
        os.chmod(path, 0o644)
        with open(path) as f:
            return json.load(f)

    def red_before_any_run(self):
        """Red pixels of the Sustained page with nothing drawn yet (the
        consent card and warnings may have some of libadwaita's red)."""
        self.gui.activate('select-device', self.hot.node)
        self.gui.activate('show-page', 'sustained-write')
        time.sleep(1)
        before = self.screenshot_path('temperature-before.png')
        self.gui.screenshot(before)
        return count_colour(before, OVERLAY_COLOURS, tolerance=20)

    def shows_overlay(self, result, name, red_before):
        """Opens RESULT in the app; returns the screenshot's path after
        checking the overlay is drawn on screen and in the exported graph."""
        self.gui.activate('open-result', result)
        kind, state, _points = self.gui.wait_status('sustained-write', timeout=20)
        self.assertEqual(state, 'finished')
        shot = self.screenshot_path(f'{name}.png')
        last = [0]

        def drawn():
            self.gui.screenshot(shot)
            last[0] = count_colour(shot, OVERLAY_COLOURS, tolerance=20)
            return last[0] >= red_before + MIN_OVERLAY_PIXELS
        self.gui.wait_for(drawn, 20, interval=0.5,
                          what=f'the temperature drawn ({MIN_OVERLAY_PIXELS}+ more red pixels than '
                               f'the {red_before} before)')
        exported = self.gui.user_path(f'{name}-graph.png')
        self.gui.activate('export-graph', exported)
        self.gui.wait_for(lambda: os.path.exists(exported) and os.path.getsize(exported) > 0, 20,
                          what=f'{exported} written')
        in_export = count_colour(exported, OVERLAY_COLOURS, tolerance=20)
        print(f'{shot}: {last[0]} overlay pixels ({red_before} before); export: {in_export}', flush=True)
        self.assertGreaterEqual(in_export, MIN_OVERLAY_PIXELS)
        # The run's warnings (one or two, up to four lines) must be drawn
        # whole in their card above the consent card and the graph (a short
        # page used to squeeze its revealer and cut the card's top lines,
        # see 47e403b).
        self.assert_warnings_card_whole(f'{name}-warnings.png')
        return shot

    def test_throttling_and_cache_cliff_drawn_with_the_temperature(self):
        red_before = self.red_before_any_run()
        hot = self.gui.user_path('sustained-hot.json')
        saved = self.sustained_write_result(True, hot)
        self.assertEqual(saved['summary'].get('speed_drop_cause'), 'thermal-throttling', saved['summary'])
        self.assertIn('temperature', [s['name'] for s in saved['series']])
        self.shows_overlay(hot, 'temperature-throttling', red_before)

        cool = self.gui.user_path('sustained-cool.json')
        saved = self.sustained_write_result(False, cool)
        self.assertEqual(saved['summary'].get('speed_drop_cause'), 'cache', saved['summary'])
        self.shows_overlay(cool, 'temperature-cache-cliff', red_before)

    def test_write_sweep_draws_the_median_in_its_band(self):
        """The device write sweep (its page used to draw the mean's bars):
        the median line in the blue of the current series, over a band of
        the slowest..fastest repetition in the same blue at 20 %."""
        self.hot_drive.set_temperature(45.0)
        job = self.stack.start_benchmark(self.hot, 'device-write-sweep', {
            'mode': ('s', 'destroy'), 'confirm': ('s', 'DBT0101'), 'amount_per_size': ('t', 4 * 1024 * 1024),
            'min_block': ('t', 4096), 'max_block': ('t', 4 * 1024 * 1024), 'repetitions': ('t', 9),
            'detach': ('b', True)}, user='root')
        path = self.gui.user_path('write-sweep.json')
        saved = self.kept_result(job, path)
        names = [s['name'] for s in saved['series']]
        self.assertIn('throughput-median', names)
        self.gui.activate('select-device', self.hot.node)
        self.gui.activate('open-result', path)
        _kind, state, _points = self.gui.wait_status('device-write-sweep', timeout=20)
        self.assertEqual(state, 'finished')
        shot = self.screenshot_path('write-sweep.png')
        # The band: the series blue at alpha 0.2 over white (band_painter).
        # (It read 0.35 here, which only the few pixels where the band's
        # edges overlap come near: the test passed on a wide graph by luck
        # and failed once the list of pages made the graph narrower.)
        band_colour = tuple(round(255 - 0.2 * (255 - c)) for c in (0x1c, 0x71, 0xd8))
        last = [0, 0]

        def drawn():
            self.gui.screenshot(shot)
            last[:] = [series_pixels(shot), count_colour(shot, (band_colour,), tolerance=12)]
            return last[0] > 50 and last[1] > 200
        self.gui.wait_for(drawn, 20, interval=0.5, what='the median line (50+ pixels) in its band (200+ pixels)')
        print(f'{shot}: {last[0]} median pixels, {last[1]} band pixels', flush=True)

    def test_info_page_names_a_dying_drive(self):
        """Issue 30: the drive's SMART health on the Info page, its
        attribute counts named, and the warning card when SMART says it is
        failing; back to no card when it recovers (the mock's
        SmartFailing, as udisks would change it)."""
        self.gui.activate('select-device', self.hot.node)
        self.gui.activate('show-page', 'info')

        def health():
            return self.gui.describe_action('health')[2][0]
        self.hot_drive.set_smart_attributes({5: 4, 197: 2, 199: 0}, 1_800_000_000)
        summary = self.gui.wait_for(lambda: 'pending 2' in (h := health()) and h, 20,
                                    what='the Info page to name the attribute counts')
        self.assertTrue(summary.startswith('Good: no bad sectors, 1 hours powered on; reallocated 4, pending 2|'),
                        summary)
        self.assertNotIn('CRC', summary)  # a zero count is not worth a word
        self.stack.call(self.hot_drive.path, 'org.freedesktop.DBus.Mock', 'UpdateProperties', 'sa{sv}',
                        'org.freedesktop.UDisks2.Drive.Ata',
                        {'SmartFailing': ('b', True), 'SmartNumBadSectors': ('x', 6)}, dest='org.freedesktop.UDisks2')
        warned = self.gui.wait_for(lambda: 'FAILING' in (h := health()) and h, 20,
                                   what='the Info page to say the drive is failing')
        self.assertIn('|⚠ SMART says this drive is failing', warned)
        time.sleep(1)  # the card's reveal, for the screenshot
        self.gui.screenshot(self.screenshot_path('info-health-failing.png'))
        self.stack.call(self.hot_drive.path, 'org.freedesktop.DBus.Mock', 'UpdateProperties', 'sa{sv}',
                        'org.freedesktop.UDisks2.Drive.Ata',
                        {'SmartFailing': ('b', False), 'SmartNumBadSectors': ('x', 0)}, dest='org.freedesktop.UDisks2')
        self.gui.wait_for(lambda: health().endswith('|'), 20, what='the warning card to go')


if __name__ == '__main__':
    gui_stack.main()
