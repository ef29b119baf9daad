#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The drive's temperature drawn over a graph: the app's right-hand axis.

No drive here has a sensor (loop devices have none, the VM's own disk must
not be touched), so, as in tests/integration/test_drive_temperature.py,
python3-dbusmock plays org.freedesktop.UDisks2 with a Drive.Ata
SmartTemperature for a real loop device we attach; diskbenchd and polkitd
are real. Two sustained writes run on it (as root, over the bus) with the
same real slowdown from the middle on (competing writers): once with the
drive at 76 °C before the slowdown (the daemon calls it thermal
throttling), once at 45 °C (a cache cliff). `diskbenchctl watch -o` keeps
each job as a result file; the app opens both, and the temperature must be
drawn: pixels of the overlay's red (ChartTheme::light().secondary) in the
exported graph and more of them on screen than before the result was shown;
the run's warnings in a card drawn whole (assert_warnings_card_whole).

Run (as root):
    /usr/bin/python3 tests/gui/test_gui_temperature.py --app BUILD/client-gtk/diskbench \\
        --daemon BUILD/daemon/diskbenchd \\
        --polkit-policy BUILD/polkit-policy/org.diskbench.policy \\
        --bus-policy dbus-interfaces/org.diskbench.DiskBench1.conf \\
        [--screenshot-dir DIR]
"""

import json
import os
import subprocess
import threading
import time

import gui_stack
from gui_stack import count_colour, series_pixels
from harness import wait_until
from test_drive_properties import UDISKS_PATH, MOCK_IFACE, drive_properties, block_properties
from test_drive_temperature import ATA_IFACE, KELVIN, ata_properties, compete
from harness import UDISKS_NAME

# ChartTheme::light().secondary (GNOME red 3): the temperature's line and axis.
OVERLAY_COLOURS = ((0xe0, 0x1b, 0x24),)
MIN_OVERLAY_PIXELS = 60


class TemperatureGuiTest(gui_stack.GuiTestCase):
    gui_options = {'stack_options': {'udisks': 'mock'}, 'loop_size': 0}

    @classmethod
    def prepare(cls):
        cls.add_mock_object(f'{UDISKS_PATH}/Manager', 'org.freedesktop.UDisks2.Manager',
                            {'Version': ('s', '2.9.4'), 'SupportedFilesystems': ('as', []),
                             'SupportedEncryptionTypes': ('as', []),
                             'DefaultEncryptionType': ('s', '')})
        cls.hot = cls.stack.attach_loop(size=128 * 1024 * 1024)
        name = 'Warm_Disk_DBT0101'
        cls.hot_drive = f'{UDISKS_PATH}/drives/{name}'
        cls.add_mock_object(cls.hot_drive, 'org.freedesktop.UDisks2.Drive',
                            drive_properties(name, {'Model': ('s', name), 'Serial': ('s', name[-7:])},
                                             cls.hot.size))
        cls.stack.call(cls.hot_drive, MOCK_IFACE, 'AddProperties', 'sa{sv}', ATA_IFACE,
                       ata_properties(45.0), dest=UDISKS_NAME)
        cls.add_mock_object(cls.hot.udisks_path, 'org.freedesktop.UDisks2.Block',
                            block_properties(cls.hot, cls.hot_drive))
        cls.gui.start_app()

    @classmethod
    def add_mock_object(cls, path, iface, props):
        cls.stack.call(UDISKS_PATH, MOCK_IFACE, 'AddObject', 'ssa{sv}a(ssss)',
                       path, iface, props, [], dest=UDISKS_NAME)

    def set_mock_temperature(self, celsius):
        self.stack.call(self.hot_drive, MOCK_IFACE, 'UpdateProperties', 'sa{sv}', ATA_IFACE,
                        {'SmartTemperature': ('d', celsius + KELVIN)}, dest=UDISKS_NAME)
        wait_until(lambda: abs(self.stack.get_all(self.hot.object_path, 'org.diskbench.DiskBench1.Device')
                               ['Temperature'] - celsius) < 1e-6, 10, what=f'Temperature at {celsius} °C')

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
        """A sustained write with a planted slowdown (as in
        test_drive_temperature.py), kept as a result file at PATH."""
        self.set_mock_temperature(45.0)
        job = self.stack.start_benchmark(self.hot, 'sustained-write', {
            'mode': ('s', 'destroy'), 'confirm': ('s', 'DBT0101'), 'size': ('t', 32 * 1024 * 1024),
            'block_size': ('t', 1024 * 1024), 'queue_depth': ('t', 2), 'duration_s': ('d', 10.0),
            'window_s': ('d', 0.25), 'detach': ('b', True)}, user='root')
        env = dict(os.environ, DBUS_SYSTEM_BUS_ADDRESS=self.stack.address)
        watch = subprocess.Popen([self.ctl(), 'watch', job, '--no-save', '--output', path], env=env,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            wait_until(lambda: self.stack.get_property(job, 'org.diskbench.DiskBench1.Job', 'Progress') >= 0.5,
                       30, what='the write half done')
            if hot_at_drop:
                self.set_mock_temperature(76.0)
                time.sleep(1.5)  # the job reads its sensor once a second
            stop = threading.Event()
            writers = [threading.Thread(target=compete, args=(self.hot.node, n, stop)) for n in range(8)]
            for writer in writers:
                writer.start()
            try:
                self.assertEqual(self.wait_job_state(job), 'finished')
            finally:
                stop.set()
                for writer in writers:
                    writer.join(30)
            _out, err = watch.communicate(timeout=60)
        finally:
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
        # The run's two warnings wrap to 3-4 lines: their card must be drawn
        # whole above the consent card and the graph (a short page used to
        # squeeze its revealer and cut the card's top lines, see 47e403b).
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
        the slowest..fastest repetition in the same blue at 35 %."""
        self.set_mock_temperature(45.0)
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
        # The band: the series blue at alpha 0.35 over white (band_painter).
        band_colour = tuple(round(255 - 0.35 * (255 - c)) for c in (0x1c, 0x71, 0xd8))
        last = [0, 0]

        def drawn():
            self.gui.screenshot(shot)
            last[:] = [series_pixels(shot), count_colour(shot, (band_colour,), tolerance=12)]
            return last[0] > 50 and last[1] > 200
        self.gui.wait_for(drawn, 20, interval=0.5, what='the median line (50+ pixels) in its band (200+ pixels)')
        print(f'{shot}: {last[0]} median pixels, {last[1]} band pixels', flush=True)


if __name__ == '__main__':
    gui_stack.main()
