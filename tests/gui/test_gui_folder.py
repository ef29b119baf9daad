#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Folder benchmarks in the real client under Xvfb (see gui_stack.py).

As the unprivileged test user dbtest-in: a folder of that user on an ext4
filesystem the test makes on its own loop device; select it with the
"select-folder" action (the app opens it and passes the descriptor), run
"file-rw" with 8 MiB ("set-parameter"), wait for "file-rw:finished:N",
check with the daemon that the job finished there, that the folder is empty
again (the scratch files went), that the run was kept as a folder result,
and that the graph is drawn (screenshot, pixel count). Then select the
device again: the folder pages go, the read pages come back; the Write
page in its default mode (keep data) leaves the device byte-identical, and
in erase mode starts only once the device's node is typed (keyboard input
through xdotool).

Run (as root): meson test -C BUILD --print-errorlogs gui-folder; by hand, with the
arguments every GUI test file takes (tests/gui/README.md).
"""

import json
import os
import pwd
import time

import gui_stack
from loop_devices import sha256_of
from bus_names import BUS_NAME
from gui_stack import MIN_SERIES_PIXELS, MiB, count_colour, series_pixels



class FolderGuiTest(gui_stack.GuiTestCase):
    """Steps in order: each needs the app state the one before left."""

    @classmethod
    def prepare(cls):
        cls.folder = cls.user_folder_on_new_filesystem('bench folder')
        cls.gui.start_app()

    def job_target(self, job):
        # Root may read any job's folder (Target is "" for folder jobs).
        res = self.stack.busctl('--json=short', 'call', BUS_NAME, job, 'org.diskbench.DiskBench1.Job',
                                'GetTarget', check=True)
        return json.loads(res.stdout)['data'][0]

    def test_00_actions(self):
        for name in ('select-folder', 'show-page'):
            self.assertEqual(self.gui.describe_action(name)[1], 's', name)

    def test_01_folder_selected_shows_folder_pages(self):
        self.gui.activate('select-device', self.gui.loop.node)
        # The first page, GNOME Disks' benchmark.
        self.gui.wait_status('overview', states=('idle',), min_points=0, timeout=30)
        self.gui.activate('select-folder', self.folder)
        # The shown page was a read page: hidden now, a folder page shows.
        status = self.gui.wait_for(
            lambda: (lambda s: s if s and s[0] in ('file-rw', 'write-sweep') else None)(self.gui.status()),
            20, what='a folder page shown')
        self.assertEqual(status[1], 'idle')
        self.gui.activate('show-page', 'file-rw')
        self.gui.wait_status('file-rw', states=('idle',), min_points=0, timeout=20)
        empty = self.screenshot_path('folder-before.png')
        time.sleep(1)
        self.gui.screenshot(empty)
        self.assertLessEqual(series_pixels(empty), MIN_SERIES_PIXELS // 2,
                             f'{empty} shows the series colours before any run')

    def test_02_file_rw_runs_in_the_folder(self):
        self.gui.activate_action('set-parameter', f"('size', <uint64 {8 * MiB}>)")
        self.gui.activate('run-benchmark', 'file-rw')
        kind, state, points = self.gui.wait_status('file-rw', timeout=180)
        self.assertEqual((kind, state), ('file-rw', 'finished'))
        self.assertGreater(points, 0)
        # The daemon's view: a finished file-rw job in our folder, 8 MiB, ours.
        jobs = self.daemon_jobs()
        ours = [j for j in jobs
                if self.daemon_property(j, 'Job', 'Kind') == 'file-rw'
                and self.job_target(j) == self.folder]
        self.assertTrue(ours, f'no file-rw job in {self.folder} among {jobs}')
        job = ours[-1]
        self.assertEqual(self.daemon_property(job, 'Job', 'State'), 'finished')
        self.assertEqual(self.daemon_property(job, 'Job', 'Owner'), pwd.getpwnam(self.gui.user).pw_uid)
        params = self.daemon_property(job, 'Job', 'Parameters')
        self.assertEqual(params['size']['data'], 8 * MiB)
        # Nothing left behind in the folder.
        self.gui.wait_for(lambda: os.listdir(self.folder) == [], 20,
                          what=f'{self.folder} empty again (it has {os.listdir(self.folder)})')
        self.wait_series_drawn('folder-file-rw.png')

    def test_03_kept_as_a_folder_result(self):
        kept_dir = self.gui.user_path('.local', 'share', 'diskbench', 'results')
        kept = [f for f in self.gui.wait_for(lambda: [f for f in os.listdir(kept_dir) if '-file-rw-' in f],
                                             20, what='a kept file-rw result')]
        with open(os.path.join(kept_dir, kept[-1])) as f:
            result = json.load(f)
        self.assertEqual(result['target_kind'], 'directory')
        self.assertEqual(result['target'], self.folder)
        self.assertEqual([s['name'] for s in result['series']], ['write', 'read'])
        self.assertTrue(kept[-1].endswith('-file-rw-folder-bench_folder.json'), kept[-1])

    def test_04_device_again_shows_read_pages(self):
        self.gui.activate('select-device', self.gui.loop.node)
        status = self.gui.wait_for(
            lambda: (lambda s: s if s and s[0] not in ('file-rw', 'write-sweep') else None)(self.gui.status()),
            20, what='a device page shown')
        self.assertNotEqual(status[0], 'file-rw')

    def test_05_write_page_keeps_the_data(self):
        # The raw write test in its default mode (keep data) from the app:
        # the device must be byte-identical afterwards.
        before = sha256_of(self.gui.loop.backing)
        self.gui.activate('show-page', 'device-write')
        self.gui.wait_status('device-write', states=('idle',), min_points=0, timeout=20)
        for key, value in (('size', f'<uint64 {4 * MiB}>'), ('region_size', f'<uint64 {4 * MiB}>'),
                           ('duration_s', '<0.2>')):
            self.gui.activate_action('set-parameter', f"('{key}', {value})")
        self.gui.activate('run-benchmark', 'device-write')
        kind, state, points = self.gui.wait_status('device-write', timeout=180)
        self.assertEqual((kind, state), ('device-write', 'finished'))
        self.assertGreater(points, 0)
        jobs = self.daemon_jobs('device-write')
        self.assertTrue(jobs)
        params = self.daemon_property(jobs[-1], 'Job', 'Parameters')
        self.assertEqual(params['mode']['data'], 'preserve')
        self.assertEqual(params['size']['data'], 4 * MiB)
        self.wait_series_drawn('device-write.png')
        self.assertEqual(sha256_of(self.gui.loop.backing), before, 'the device was changed')

    def test_06_erasing_needs_the_device_named_by_the_user(self):
        # Erase mode from the keyboard, as a user would: Alt+E picks "Erase
        # data", which puts the cursor in the entry, and the node is typed
        # (xdotool through XTEST). Until it is typed, Start does nothing.
        loop = self.gui.loop
        before = sha256_of(loop.backing)
        self.gui.activate('select-device', loop.node)
        self.gui.activate('show-page', 'device-write')
        self.gui.wait_status('device-write', states=('idle', 'finished'), min_points=0, timeout=20)
        for key, value in (('size', f'<uint64 {4 * MiB}>'), ('region_size', f'<uint64 {4 * MiB}>'),
                           ('duration_s', '<0.2>')):
            self.gui.activate_action('set-parameter', f"('{key}', {value})")
        jobs_before = set(self.daemon_jobs())
        self.gui.send_keys('alt+e')
        self.gui.activate('run-benchmark', 'device-write')
        time.sleep(2)
        self.assertEqual(set(self.daemon_jobs()), jobs_before,
                         'erasing started without the device named')
        self.gui.screenshot(self.screenshot_path('device-write-erase-unconfirmed.png'))
        self.gui.type_text(loop.node)
        self.gui.screenshot(self.screenshot_path('device-write-erase-confirmed.png'))
        self.gui.activate('run-benchmark', 'device-write')
        # The page may still say "finished" from the last step: follow the
        # new job on the daemon instead.
        [job] = self.gui.wait_for(lambda: set(self.daemon_jobs()) - jobs_before,
                                  30, what='the erasing job')
        self.gui.wait_for(lambda: self.daemon_property(job, 'Job', 'State') == 'finished', 180,
                          what=f'{job} to finish')
        params = self.daemon_property(job, 'Job', 'Parameters')
        self.assertEqual(params['mode']['data'], 'destroy')
        self.assertEqual(params['confirm']['data'], loop.node)
        self.assertNotEqual(sha256_of(loop.backing), before, 'erasing wrote nothing')

    def test_06b_the_profiles_write_column_erases_only_once_confirmed(self):
        # Issue 43: the device Profiles' "Write rate too" brings the write
        # consent card; erase mode, confirmed with the node, writes every
        # test and the mixed test, and the grid shows Read beside Write.
        loop = self.gui.loop
        before = sha256_of(loop.backing)
        self.gui.activate('show-page', 'profile')
        self.gui.wait_status('profile', states=('idle', 'finished'), min_points=0, timeout=20)
        for key, value in (('tests', "<'SEQ1M Q2T1, RND4K Q4T1'>"), ('region_size', f'<uint64 {8 * MiB}>'),
                           ('duration_s', '<30.0>'), ('warmup_s', '<0.0>'), ('max_bytes', f'<uint64 {2 * MiB}>'),
                           ('write', '<true>')):
            self.gui.activate_action('set-parameter', f"('{key}', {value})")
        jobs_before = set(self.daemon_jobs())
        self.gui.send_keys('alt+e')
        self.gui.activate('run-benchmark', 'profile')
        time.sleep(2)
        self.assertEqual(set(self.daemon_jobs()), jobs_before, 'erasing started without the device named')
        self.gui.type_text(loop.node)
        self.gui.activate('run-benchmark', 'profile')
        [job] = self.gui.wait_for(lambda: set(self.daemon_jobs()) - jobs_before, 30, what='the erasing job')
        self.gui.wait_for(lambda: self.daemon_property(job, 'Job', 'State') == 'finished', 180,
                          what=f'{job} to finish')
        params = self.daemon_property(job, 'Job', 'Parameters')
        self.assertEqual(params['mode']['data'], 'destroy')
        self.assertEqual(params['confirm']['data'], loop.node)
        self.assertTrue(params['write']['data'])
        summary = self.daemon_property(job, 'Job', 'Summary')
        self.assertEqual(summary['written_tests']['data'], 'SEQ1M Q2T1,RND4K Q4T1')
        # The app has the end too (its first Profiles run here: no older "finished").
        self.gui.wait_status('profile', states=('finished',), min_points=0, timeout=60)
        # SEQ, RND and the mixed test, each its read and its write figure.
        def grid():
            _enabled, _ptype, state = self.gui.describe_action('profile-grid')
            cells = state[0].split('|') if state and state[0] else []
            return cells if len(cells) == 6 and all(c != '–' for c in cells) else None
        cells = self.gui.wait_for(grid, 20, what='the grid with its write column filled')
        self.assertTrue(all('MB/s' in c for c in cells), cells)
        shot = self.screenshot_path('profile-write-column.png')
        self.gui.screenshot(shot)
        print(f'{shot}: the Profiles with the write column', flush=True)
        self.assertNotEqual(sha256_of(loop.backing), before, 'erasing wrote nothing')
        # No steady-state test of this disk kept yet: no line under the grid.
        self.assertEqual(self.gui.describe_action('profile-steady')[2], [''])
        self.gui.activate_action('set-parameter', "('write', <false>)")

    def test_06c_the_steady_state_rounds_with_their_window(self):
        # Issue 43 part 3: the Steady page erases once the device is named,
        # draws IOPS per round with SNIA's window as a band, and its line
        # says the steady figure beside the fresh one.
        loop = self.gui.loop
        self.gui.activate('show-page', 'steady-state')
        self.gui.wait_status('steady-state', states=('idle', 'finished'), min_points=0, timeout=20)
        for key, value in (('size', f'<uint64 {8 * MiB}>'), ('round_s', '<0.2>'), ('max_rounds', '<uint64 12>')):
            self.gui.activate_action('set-parameter', f"('{key}', {value})")
        jobs_before = set(self.daemon_jobs())
        self.gui.send_keys('alt+e')
        self.gui.type_text(loop.node)
        self.gui.activate('run-benchmark', 'steady-state')
        [job] = self.gui.wait_for(lambda: set(self.daemon_jobs()) - jobs_before, 30, what='the steady-state job')
        self.gui.wait_for(lambda: self.daemon_property(job, 'Job', 'State') == 'finished', 120,
                          what=f'{job} to finish')
        summary = self.daemon_property(job, 'Job', 'Summary')
        rounds = summary['rounds']['data']
        _kind, _state, points = self.gui.wait_status('steady-state', states=('finished',), min_points=rounds,
                                                     timeout=60)
        shot = self.screenshot_path('steady-state-rounds.png')
        self.gui.wait_for(lambda: self.gui.screenshot(shot) or series_pixels(shot) >= MIN_SERIES_PIXELS, 20,
                          what='the rounds drawn')
        print(f'{shot}: the steady-state rounds ({rounds} rounds, {points} points): '
              f'{ {k: v["data"] for k, v in summary.items() if k.startswith(("steady", "fresh"))} }', flush=True)
        # The device Profiles now say it under their grid, from the result
        # the app kept: the rounds' workload and the kind's own words.
        self.gui.activate('show-page', 'profile')
        self.gui.wait_status('profile', states=('idle', 'finished'), min_points=0, timeout=20)
        def steady_line():
            _enabled, _ptype, state = self.gui.describe_action('profile-steady')
            return state[0] if state and state[0] else None
        line = self.gui.wait_for(steady_line, 20, what='the steady-state line under the Profiles grid')
        self.assertTrue(line.startswith('Steady state, 4 KiB random writes at QD32 ('), line)
        self.assertIn('(fresh ', line)
        self.assertIn('steady ' if summary['steady_state']['data'] else 'not steady in ', line)
        shot = self.screenshot_path('profile-steady-beside-fresh.png')
        self.gui.screenshot(shot)
        print(f'{shot}: the Profiles with the steady-state line: {line}', flush=True)

    def test_07_the_other_folder_pages_draw_their_series(self):
        # structure, small-files and mixed-load have no tailored page: drawn
        # from the series the job declares (bars in seconds; lines over
        # time); write-sweep's median MB/s per block size is a line in its
        # min..max band.
        self.gui.activate('select-folder', self.folder)
        # Bars are solid blocks, which series_pixels() leaves out as
        # widgets: for them, many series-coloured pixels in all (the Start
        # button and the progress bar are about 10000). The tallest bar
        # spans the plot's height whatever the timings, some 40000 pixels
        # with small-files' four bars; the others may be slivers (a slow
        # read phase on a loaded machine left 49126 in all, under the
        # 50000 this asked before).
        bar_pixels = 30000
        # The queue-depth sweep's writes on a test file: its curves per
        # thread count, as on the device's page.
        qd_sweep = (('file_size', 16 * MiB), ('max_queue_depth', 4), ('max_threads', 2), ('duration_s', '<0.1>'),
                    ('warmup_s', '<0.0>'), ('writes', '<true>'))
        for kind, params, drawn in (
                ('structure', (('directories', 100), ('files', 100)), 'bars'),
                ('small-files', (('directories', 100), ('files', 100)), 'bars'),
                ('write-sweep', (('amount_per_size', MiB), ('min_block', 64 * 1024), ('max_block', MiB)), 'lines'),
                ('mixed-load', (('threads', 1), ('file_size', 160 * MiB)), 'lines'),
                ('file-qd-sweep', qd_sweep, 'lines')):
            with self.subTest(kind=kind):
                self.gui.activate('show-page', kind)
                self.gui.wait_status(kind, states=('idle',), min_points=0, timeout=20)
                for key, value in params:
                    # Numbers are sizes and counts (uint64) unless given as a variant's text.
                    variant = value if isinstance(value, str) else f'<uint64 {value}>'
                    self.gui.activate_action('set-parameter', f"('{key}', {variant})")
                self.gui.activate('run-benchmark', kind)
                got_kind, state, points = self.gui.wait_status(kind, timeout=180)
                self.assertEqual((got_kind, state), (kind, 'finished'))
                self.assertGreater(points, 0)
                if drawn == 'bars':
                    path = self.screenshot_path(f'folder-{kind}.png')
                    self.gui.wait_for(lambda: (self.gui.screenshot(path), count_colour(path))[1] > bar_pixels,
                                      15, interval=0.5, what=f'the bars of {kind} drawn')
                else:
                    self.wait_series_drawn(f'folder-{kind}.png')
                self.gui.wait_for(lambda: os.listdir(self.folder) == [], 20,
                                  what=f'{self.folder} empty again')


if __name__ == '__main__':
    gui_stack.main()
