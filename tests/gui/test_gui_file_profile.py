#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The folder Profiles page (file-profile) in the real client under Xvfb.

As the unprivileged test user dbtest-in: a folder of that user on an ext4
filesystem on the test's own loop device; select it ("select-folder"),
show the file-profile page, make the run short ("set-parameter"), Start
("run-benchmark"), and watch the grid ("profile-grid": its MB/s cells,
Read then Write per test) fill in while the run goes, then hold every
figure the daemon reports; the unit menu ("profile-unit": MB/s, GB/s, IOPS,
µs) changes the large figures. Ctrl+C (xdotool) puts the text in
CrystalDiskMark's layout on the clipboard; the test reads it back (GTK 4
through PyGObject, on the same X display) and checks its blocks, lines and
figures, on the folder page and on the device Profiles page. Screenshots of
the page are kept.

Run (as root): meson test -C BUILD --print-errorlogs gui-file-profile; by hand, with the
arguments every GUI test file takes (tests/gui/README.md).
"""

import os
import pwd
import re
import subprocess
import time

import gui_stack
from gui_stack import MiB

TESTS = ['SEQ1M Q8T1', 'SEQ1M Q1T1', 'RND4K Q32T1', 'RND4K Q1T1', 'MIX RND4K Q1T1']
KEYS = ['seq1m_q8t1', 'seq1m_q1t1', 'rnd4k_q32t1', 'rnd4k_q1t1', 'mix']

# Reads the X clipboard's text with GTK 4 (what a user's paste gets).
READ_CLIPBOARD = r'''
import gi
gi.require_version('Gtk', '4.0')
gi.require_version('Gdk', '4.0')
from gi.repository import Gdk, GLib, Gtk
Gtk.init()
clipboard = Gdk.Display.get_default().get_clipboard()
loop = GLib.MainLoop()
got = {}
def done(source, result):
    try:
        got['text'] = source.read_text_finish(result)
    except GLib.Error as e:
        got['error'] = e.message
    loop.quit()
clipboard.read_text_async(None, done)
GLib.timeout_add_seconds(15, loop.quit)
loop.run()
if 'text' not in got:
    raise SystemExit('no text on the clipboard: ' + got.get('error', 'timed out'))
print(got['text'] or '', end='')
'''


def number_in(cell):
    m = re.search(r'[\d.,]+', cell)
    return float(m.group(0).replace(',', '')) if m else None


# The kinds of ListBenchmarks' target "directory".
FOLDER_KINDS = ('file-rw', 'write-sweep', 'mixed-load', 'structure', 'small-files', 'file-profile', 'file-qd-sweep')


class FileProfileGuiTest(gui_stack.GuiTestCase):
    """Steps in order: each needs the app state the one before left."""

    @classmethod
    def prepare(cls):
        cls.folder = cls.user_folder_on_new_filesystem('profile folder')
        cls.gui.start_app()

    def grid(self):
        _enabled, _ptype, state = self.gui.describe_action('profile-grid')
        return state[0].split('|') if state and state[0] else []

    def clipboard(self):
        env = dict(os.environ, DISPLAY=self.gui.display, GDK_BACKEND='x11', GTK_A11Y='none', GSK_RENDERER='cairo')
        res = subprocess.run(['/usr/bin/python3', '-c', READ_CLIPBOARD], env=env, capture_output=True, text=True,
                             timeout=60)
        self.assertEqual(res.returncode, 0, res.stderr)
        return res.stdout

    def test_01_folder_profiles_page_shows_an_empty_grid(self):
        self.gui.activate('select-folder', self.folder)
        # A folder kind's page shown: the daemon's list has come and the
        # folder pages are there (before it, show-page has no such page).
        self.gui.wait_for(lambda: (s := self.gui.status()) and s[0] in FOLDER_KINDS, 30, what='a folder page')
        self.gui.activate('show-page', 'file-profile')
        self.gui.wait_status('file-profile', states=('idle',), min_points=0, timeout=20)
        # A row per test of the default preset and the mix, nothing measured yet.
        cells = self.gui.wait_for(lambda: (g := self.grid()) and len(g) == 10 and g, 20, what='an empty grid')
        self.assertTrue(all(c == '–' for c in cells), cells)

    def test_02_start_fills_the_cells_as_each_test_ends(self):
        for key, value in (('file_size', f'<uint64 {16 * MiB}>'), ('duration_s', '<0.6>'), ('warmup_s', '<0.1>'),
                           ('interval_s', '<0.0>')):
            self.gui.activate_action('set-parameter', f"('{key}', {value})")
        self.gui.activate('run-benchmark', 'file-profile')
        # While it runs: some cells filled, later ones still empty.
        partial = []

        def some_filled():
            cells = self.grid()
            filled = [c != '–' for c in cells]
            if len(cells) == 10 and any(filled) and not all(filled):
                partial.append(cells)
                return True
            return None
        self.gui.wait_for(some_filled, 120, interval=0.1, what='a partly filled grid')
        self.assertEqual(partial[0][0] != '–', True, partial[0])  # the first test's read comes first
        kind, state, _points = self.gui.wait_status('file-profile', min_points=1, timeout=180)
        self.assertEqual((kind, state), ('file-profile', 'finished'))

        jobs = self.daemon_jobs('file-profile')
        self.assertTrue(jobs)
        job = jobs[-1]
        self.assertEqual(self.daemon_property(job, 'Job', 'Owner'), pwd.getpwnam(self.gui.user).pw_uid)
        summary = {k: v['data'] for k, v in self.daemon_property(job, 'Job', 'Summary').items()}
        self.__class__.summary = summary
        self.assertEqual(summary['file_size_bytes'], 16 * MiB)
        cells = self.gui.wait_for(lambda: (g := self.grid()) and all(c != '–' for c in g) and g, 20,
                                  what='a full grid')
        self.assertEqual(len(cells), 10)
        for i, key in enumerate(KEYS):
            for j, direction in enumerate(('read', 'write')):
                cell = cells[2 * i + j]
                expected = summary[f'{key}.{direction}_mb_s']
                self.assertIn('MB/s', cell)
                shown = number_in(cell)
                self.assertIsNotNone(shown, cell)
                # The cell shows two or three digits ("21 MB/s" for 20.53, "1.3" for 1.25).
                self.assertAlmostEqual(shown, expected, delta=max(0.006, expected * 0.051), msg=f'{key} {direction}')
        self.gui.wait_for(lambda: os.listdir(self.folder) == [], 20,
                          what=f'{self.folder} empty again (it has {os.listdir(self.folder)})')
        shot = self.screenshot_path('folder-profiles.png')
        time.sleep(0.5)
        self.gui.screenshot(shot)
        print(f'screenshot {shot}', flush=True)

    def test_02b_the_unit_menu_changes_the_large_figures(self):
        summary = self.summary
        key = KEYS[0]
        for unit, pattern, expected in (
                ('gb-s', r'GB/s', summary[f'{key}.read_mb_s'] / 1000),
                ('iops', r'IOPS', summary[f'{key}.read_iops']),
                ('us', r'µs', summary[f'{key}.read_latency_mean_us']),
                ('mb-s', r'MB/s', summary[f'{key}.read_mb_s'])):
            with self.subTest(unit=unit):
                self.gui.activate('profile-unit', unit)
                cells = self.gui.wait_for(lambda: (g := self.grid()) and re.search(pattern, g[0]) and g, 10,
                                          what=f'the grid in {pattern} (now {self.grid()[:1]})')
                self.assertTrue(all(re.search(pattern, c) for c in cells if c != '–'), cells)
                shown = number_in(cells[0])
                self.assertAlmostEqual(shown, expected, delta=max(0.006, expected * 0.01), msg=unit)
        self.gui.activate('profile-unit', 'gb-s')
        gui_stack.settle(0.5)
        self.gui.screenshot(self.screenshot_path('folder-profiles-gb-s.png'))
        self.gui.activate('profile-unit', 'mb-s')

    def copied_lines(self, what):
        self.gui.send_keys('ctrl+c')
        text = self.gui.wait_for(lambda: (t := self.clipboard()) and what in t and t, 20,
                                 what=f'the report on the clipboard ({what})')
        print(text, flush=True)
        return text, text.splitlines()

    def test_03_ctrl_c_copies_crystaldiskmarks_text(self):
        text, lines = self.copied_lines('[Write]')
        self.assertIn("Profiles (CrystalDiskMark's layout)", text)
        self.assertIn(f'[folder {self.folder}]', text)
        self.assertIn('   Test: 16 MiB (x1)', text)
        self.assertIn('   Mode: random data, direct I/O', text)
        self.assertIn('   Time: Measure 0.6 sec / Interval 0 sec', text)
        self.assertIn('[Mix] Read 70%/Write 30%', text)
        summary = self.summary
        # A line per test and direction in CrystalDiskMark's notation,
        # with the daemon's MB/s, IOPS and mean latency.
        for direction in ('read', 'write'):
            start = lines.index('[Read]' if direction == 'read' else '[Write]')
            block = lines[start + 1:start + 5]
            for test, key, line in zip(TESTS, KEYS, block):
                self.assertTrue(line.startswith('  ' + ('SEQ    1MiB' if test.startswith('SEQ') else 'RND    4KiB')),
                                line)
                self.assertIn(f"{summary[f'{key}.{direction}_mb_s']:.3f} MB/s", line)
                self.assertIn(f"{summary[f'{key}.{direction}_iops']:.1f} IOPS", line)
                self.assertIn(f"{summary[f'{key}.{direction}_latency_mean_us']:.2f} us>", line)
        # The device it ran on, after the checks.
        self.assertIn(self.fs_loop.node, text)

    def test_04_ctrl_c_on_the_device_profiles_gives_crystaldiskmarks_text(self):
        self.gui.activate('select-device', self.gui.loop.node)
        self.gui.activate('show-page', 'profile')
        self.gui.wait_status('profile', states=('idle',), min_points=0, timeout=20)
        for key, value in (('duration_s', '<0.3>'), ('warmup_s', '<0.0>'), ('region_size', f'<uint64 {32 * MiB}>'),
                           ('preset', "<'real-world'>")):
            self.gui.activate_action('set-parameter', f"('{key}', {value})")
        self.gui.activate('run-benchmark', 'profile')
        self.gui.wait_status('profile', min_points=1, timeout=120)
        [job] = self.daemon_jobs('profile')[-1:]
        summary = {k: v['data'] for k, v in self.daemon_property(job, 'Job', 'Summary').items()}
        text, lines = self.copied_lines('[Read]')
        self.assertNotIn('[Write]', text)  # a device's Profiles only read
        start = lines.index('[Read]')
        for line, test, key in zip(lines[start + 1:start + 3], ('SEQ    1MiB (Q=  1, T= 1)', 'RND    4KiB (Q=  1, T= 1)'),
                                   ('seq1m_q1t1', 'rnd4k_q1t1')):
            self.assertTrue(line.startswith(f'  {test}: '), line)
            self.assertIn(f"{summary[f'{key}.throughput_mb_s']:.3f} MB/s", line)
            self.assertIn(f"{summary[f'{key}.iops']:.1f} IOPS", line)
            self.assertIn(f"{summary[f'{key}.latency_mean_us']:.2f} us>", line)
        self.assertIn('Profile: Real-world performance', text)
        self.assertIn(f'   Test: 32 MiB (x1) [{self.gui.loop.node}]', text)
        # The checks and the device line CrystalDiskMark has not: the block layer saw the reads.
        self.assertRegex(text, r'\n[✓⚠] ')
        self.assertIn(f'Device: {self.gui.loop.node}', text)

if __name__ == '__main__':
    gui_stack.main()
