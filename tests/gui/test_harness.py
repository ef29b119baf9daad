#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The GUI harness's own parts: the PNG reader and colour count against
files ImageMagick writes in every layout it picks for screenshots, and a
GuiStack (with the real app) that ends everything it started, and
nothing else.

Run (as root): /usr/bin/python3 tests/gui/test_harness.py --app BUILD/client-gtk/diskbench
    --daemon BUILD/daemon/diskbenchd --polkit-policy BUILD/polkit-policy/org.diskbench.policy
    --bus-policy dbus-interfaces/org.diskbench.DiskBench1.conf
"""

import os
import re
import subprocess
import tempfile
import unittest

import gui_stack
from gui_stack import count_colour, png_size, read_png, series_pixels
from harness import STATE_PATH, pid_alive, loop_devices


def magick(*args):
    subprocess.run(['convert', *args], check=True, stdout=subprocess.PIPE,
                   stderr=subprocess.PIPE, timeout=60)


class PngTest(unittest.TestCase):
    """A 40x30 white image with a 10x5 block of #1c71d8 and one of #3584e4, a
    2x2 block of a nearby blue (within the tolerance) and one of red."""

    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix='diskbench-png-')

    @classmethod
    def tearDownClass(cls):
        subprocess.run(['rm', '-rf', '--', cls.dir], check=False)

    def make(self, name, fmt=None):
        path = os.path.join(self.dir, name)
        magick('-size', '40x30', 'xc:white', '+antialias',
               '-fill', '#1c71d8', '-draw', 'rectangle 0,0 9,4',
               '-fill', '#3584e4', '-draw', 'rectangle 20,10 29,14',
               '-fill', '#2278dc', '-draw', 'rectangle 30,20 31,21',
               '-fill', '#e01b24', '-draw', 'rectangle 35,25 36,26',
               f'{fmt}:{path}' if fmt else path)
        return path

    def check(self, path, exact=True):
        self.assertEqual(png_size(path), (40, 30))
        width, height, rgb = read_png(path)
        self.assertEqual((width, height, len(rgb)), (40, 30, 40 * 30 * 3))
        if exact:
            self.assertEqual(rgb[0:3], bytes((0x1c, 0x71, 0xd8)))
            self.assertEqual(rgb[(10 * 40 + 20) * 3:(10 * 40 + 21) * 3],
                             bytes((0x35, 0x84, 0xe4)))
            self.assertEqual(rgb[-3:], b'\xff\xff\xff')
        self.assertEqual(count_colour(path, tolerance=0), 100)
        self.assertEqual(count_colour(path), 104)

    def test_rgb(self):
        self.check(self.make('rgb.png', 'PNG24'))

    def test_rgba(self):
        self.check(self.make('rgba.png', 'PNG32'))

    def test_palette(self):
        self.check(self.make('palette.png', 'PNG8'))

    def test_sixteen_bit(self):
        self.check(self.make('deep.png', 'PNG48'))

    def test_as_imagemagick_chooses(self):
        self.check(self.make('auto.png'))

    def test_grey_and_low_bit_depths(self):
        for colour_type, bits in ((0, 1), (0, 2), (0, 4), (0, 8), (0, 16), (4, 8), (3, 1), (3, 4)):
            with self.subTest(colour_type=colour_type, bits=bits):
                path = os.path.join(self.dir, f'grey-{colour_type}-{bits}.png')
                magick('-size', '13x3', 'xc:white', '-fill', 'black', '-draw', 'point 5,1',
                       '-define', f'png:color-type={colour_type}',
                       '-define', f'png:bit-depth={bits}', f'PNG:{path}')
                with open(path, 'rb') as f:
                    self.assertEqual(tuple(f.read(26)[24:26]), (bits, colour_type))
                width, height, rgb = read_png(path)
                self.assertEqual((width, height), (13, 3))
                self.assertEqual(rgb[(13 + 5) * 3:(13 + 6) * 3], b'\0\0\0')
                self.assertEqual(rgb.count(b'\xff\xff\xff'), 13 * 3 - 1)

    def test_series_pixels_leave_out_solid_blocks(self):
        path = self.make('blocks.png', 'PNG24')
        self.assertEqual(series_pixels(path), 4)  # only the 2x2 block: too small for a widget
        line = os.path.join(self.dir, 'line.png')
        magick(path, '+antialias', '-fill', 'none', '-stroke', '#3584e4', '-strokewidth', '1',
               '-draw', 'line 0,29 39,12', 'PNG24:' + line)
        added = count_colour(line) - count_colour(path)
        self.assertGreater(added, 30)
        self.assertEqual(series_pixels(line), 4 + added)

    def test_not_a_png(self):
        path = os.path.join(self.dir, 'no.png')
        with open(path, 'w') as f:
            f.write('<svg/>')
        with self.assertRaises(ValueError):
            png_size(path)


class AppComplaintsTest(unittest.TestCase):
    """What fails a GUI test class at its end: GLib's lines for warnings
    and criticals in the app's output (the four "gtk_widget_set_sensitive:
    assertion 'GTK_IS_WIDGET (widget)' failed" the app printed at every
    start went unnoticed before), and nothing else it prints."""

    def test_warnings_and_criticals_are_found(self):
        output = ("** (diskbench:18405): WARNING **: 00:31:47.371: Cannot reach the system bus\n"
                  "(diskbench:18405): Gtk-CRITICAL **: 00:31:47.436: gtk_widget_set_sensitive: "
                  "assertion 'GTK_IS_WIDGET (widget)' failed\n"
                  "(diskbench:18405): GLib-GObject-WARNING **: 00:31:47.500: invalid cast\n"
                  "(diskbench:18405): Gtk-WARNING **: 00:31:47.600: Theme parser error\n")
        self.assertEqual(len(gui_stack.glib_complaints(output)), 4)

    def test_a_tests_expected_warnings_are_not(self):
        output = ("** (diskbench:25482): WARNING **: 00:41:15.879: skipped /r/large.json: too large\n"
                  "** (diskbench:25482): WARNING **: 00:41:15.880: skipped /r/other.json: too large\n")
        expected = (re.compile(r'WARNING \*\*: [0-9:.]+: skipped .*/large\.json: '),)
        self.assertEqual(gui_stack.glib_complaints(output, expected), [output.splitlines()[1]])

    def test_other_output_is_not(self):
        output = ("Disk Benchmark does not run as root.\n"
                  "[harness] started the app\n"
                  "a line quoting (diskbench:1): Gtk-CRITICAL ** in its middle\n"
                  "(diskbench:18405): Gtk-DEBUG: 00:31:47.436: Connecting to session bus\n"
                  "** Message: 00:41:15.879: skipped /home/u/results/large.json: too large\n"
                  # Xvfb without a window manager (gui_stack.NOT_THE_APPS).
                  "(diskbench:19978): Gtk-WARNING **: 00:34:01.638: GtkText - did not receive a focus-out event.\n")
        self.assertEqual(gui_stack.glib_complaints(output), [])


class TeardownTest(gui_stack.GuiTestCase):
    """A whole GuiStack, stopped by the test: nothing of it may remain."""

    @classmethod
    def prepare(cls):
        """Nothing: the test starts the app itself."""

    def test_stop_ends_everything_it_started(self):
        gui = self.gui
        app = gui.start_app()
        self.assertIn(gui.display, (f':{n}' for n in range(99, 140)))
        self.assertTrue(gui.window_names(), 'the app shows no window')
        # The app runs as the test user, with the documented environment.
        with open(f'/proc/{app.pid}/status') as f:
            uid = next(line.split()[1] for line in f if line.startswith('Uid:'))
        self.assertEqual(int(uid), __import__('pwd').getpwnam('dbtest-in').pw_uid)
        with open(f'/proc/{app.pid}/environ', 'rb') as f:
            env = dict(item.split(b'=', 1) for item in f.read().split(b'\0') if b'=' in item)
        for key, value in gui_stack.GUI_ENV.items():
            self.assertEqual(env[key.encode()], value.encode())
        self.assertEqual(env[b'DBUS_SYSTEM_BUS_ADDRESS'], self.stack.address.encode())
        self.assertTrue(env[b'HOME'].startswith(self.stack.tmp.encode()))
        shot = gui.screenshot(self.stack.path('shot.png'))
        self.assertEqual(png_size(shot), (1280, 800))

        pids = [app.pid, gui.xvfb.pid, gui.session_bus.pid]
        display = gui.display
        loop = gui.loop
        problems = gui.stop()
        self.assertEqual(problems, [])
        for pid in pids:
            self.assertFalse(pid_alive(pid), f'process {pid} still runs')
        self.assertFalse(os.path.exists(f'/tmp/.X11-unix/X{display[1:]}'))
        self.assertFalse(os.path.exists(f'/tmp/.X{display[1:]}-lock'))
        # By backing file: once detached, the node is free for anyone's next
        # loop device (other tests on this machine attach theirs).
        self.assertNotEqual(loop_devices().get(loop.node), loop.backing)
        self.assertFalse(os.path.exists(STATE_PATH))
        self.assertFalse(os.path.exists(self.stack.tmp))

    @classmethod
    def tearDownClass(cls):
        if cls.stack.started:  # the test failed before stopping it
            super().tearDownClass()


if __name__ == '__main__':
    gui_stack.main()
