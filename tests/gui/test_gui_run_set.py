#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Run a Set (issue 31, item 3) in the real client under Xvfb (see
gui_stack.py): the app's "run-set" action (what the popover's Run does)
runs seek then random on the loop device, each on its page as its Start
button would, with a rest between them ("set-status" goes
running:1/2:seek, resting:2/2:random, running:2/2:random, ended), and
keeps them as one result file (kind "run-set", two members), which History
lists once and which opens each run on its page. "stop-set" during the
overview of a Quick set stops it: the run cancelled keeps what it measured,
the Profiles run never starts, and the Overview page's "Write rate too"
stayed off in the set's run (a set only reads). Ctrl+Shift+Return opens the "Run a Set" popover, Escape closes it.
Screenshots: the popover, the set running, resting.

Run (as root): meson test -C BUILD --print-errorlogs gui-run-set; by hand,
with the arguments every GUI test file takes (tests/gui/README.md).
"""

import json
import os

import gui_stack
from gui_stack import count_colour

# libadwaita 1.2's accent (a suggested-action button's background).
ACCENT = ((0x35, 0x84, 0xe4),)


class RunSetGuiTest(gui_stack.GuiTestCase):
    """Steps in order: each needs the app state the one before left."""

    @classmethod
    def prepare(cls):
        # Two devices, and the set's is the one the app would not pick by
        # itself, asked for as the window maps, often before the daemon's
        # devices are listed: the app selects it once they are (not the
        # first device, with "No such device.").
        other = cls.gui.stack.attach_loop(size=cls.gui.loop.size)
        cls.device = max((cls.gui.loop, other), key=lambda loop: loop.object_path)
        cls.gui.start_app()
        cls.results = cls.gui.user_path('.local', 'share', 'diskbench', 'results')
        cls.gui.activate('select-device', cls.device.node)

    def kept(self):
        if not os.path.isdir(self.results):
            return []
        return sorted(os.path.join(self.results, n) for n in os.listdir(self.results) if n.endswith('.json'))

    def set_status(self):
        _enabled, _ptype, state = self.gui.describe_action('set-status')
        return state[0]

    def wait_set(self, prefix, timeout=120):
        seen = []

        def reached():
            status = self.set_status()
            if not seen or seen[-1] != status:
                seen.append(status)
            return status if status.startswith(prefix) else None
        try:
            return self.gui.wait_for(reached, timeout, interval=0.1, what=f'set-status {prefix}…')
        except AssertionError as error:
            raise AssertionError(f'{error}; set-status went {seen}') from None

    def run_set(self, name, pause):
        self.gui.activate_action('run-set', f'({gui_stack.gvariant_string(name)}, uint32 {pause})')

    def test_00_ctrl_shift_return_opens_the_popover(self):
        # Its Run button is the window's only accent-blue (suggested
        # action) before anything ran.
        self.gui.focus_app_window()
        gui_stack.settle(0.5)
        before = self.screenshot_path('run-set-closed.png')
        self.gui.screenshot(before)
        self.gui.send_keys('ctrl+shift+Return')
        shot = self.screenshot_path('run-set-popover.png')

        def opened():
            self.gui.screenshot(shot)
            return count_colour(shot, ACCENT) - count_colour(before, ACCENT) > 800
        self.gui.wait_for(opened, 10, interval=0.5, what=f'the Run a Set popover in {shot}')
        print(f'screenshot {shot}', flush=True)
        self.gui.send_keys('Escape')
        closed = self.screenshot_path('run-set-closed-again.png')

        def gone():
            self.gui.screenshot(closed)
            return count_colour(closed, ACCENT) - count_colour(before, ACCENT) < 200
        self.gui.wait_for(gone, 10, interval=0.5, what=f'the popover closed by Escape in {closed}')
        self.assertEqual(self.set_status(), 'idle', 'opening it runs nothing')

    def test_01_seek_then_random_kept_as_one_file(self):
        before = self.kept()
        self.assertEqual(self.set_status(), 'idle')
        self.run_set('seek,random', 3)
        self.wait_set('running:1/2:seek', 30)
        # Its page shows and draws live, as the Start button's run does.
        self.gui.wait_status('seek', states=('running', 'finished'), min_points=1, timeout=60)
        shot = self.screenshot_path('run-set-running.png')
        self.gui.screenshot(shot)
        self.wait_set('resting:2/2:random', 120)
        # The set's file exists from its first run's end on.
        self.assertEqual(len(self.kept()), len(before) + 1)
        gui_stack.settle(0.5)
        shot = self.screenshot_path('run-set-resting.png')
        self.gui.screenshot(shot)
        print(f'screenshot {shot}', flush=True)
        self.wait_set('running:2/2:random', 30)
        ended = self.wait_set('ended:', 180)
        state, runs, path = ended.split(':', 3)[1:]
        self.assertEqual((state, runs), ('finished', '2'), ended)
        self.assertEqual(self.kept(), sorted(before + [path]), 'one file for the set, none per run')
        with open(path) as f:
            result = json.load(f)
        self.assertEqual(result['kind'], 'run-set')
        self.assertEqual(result['state'], 'finished')
        self.assertEqual(result['parameters'], {'set': 'seek,random', 'kinds': 'seek,random', 'pause_s': 3})
        members = result['members']
        self.assertEqual([m['kind'] for m in members], ['seek', 'random'])
        self.assertGreaterEqual(members[1]['started_at_us'] - members[0]['finished_at_us'], 3_000_000)
        for member in members:
            self.assertEqual(member['state'], 'finished')
            self.assertEqual(member['device_info']['node'], self.device.node)
        type(self).set_path = path
        self.gui.check_app_alive()

    def test_02_history_lists_the_set_once_and_opens_each_run(self):
        self.gui.activate('show-page', 'history')
        self.gui.wait_for(lambda: self.gui.status() == ('history', 'idle', 1), 15,
                          what=f'history:idle:1 (status {self.gui.status()})')
        self.gui.activate('show-page', 'overview')
        self.gui.activate('open-result', self.set_path)
        # No overview run in it: the first run's page shows, with the run.
        with open(self.set_path) as f:
            members = json.load(f)['members']
        for kind, member in zip(('seek', 'random'), members):
            points = sum(len(s['points']) for s in member['series'])
            if kind != 'seek':
                self.gui.activate('show-page', kind)
            self.gui.wait_for(lambda: self.gui.status() == (kind, 'finished', points), 15,
                              what=f'{kind}:finished:{points} (status {self.gui.status()})')

    def test_03_stop_set_keeps_what_the_cancelled_run_measured(self):
        before = self.kept()
        # A set only reads: the Overview page's "Write rate too" stays off
        # in a set's run, whatever the page says.
        self.gui.activate('show-page', 'overview')
        self.gui.activate_action('set-parameter', "('write', <true>)")
        self.run_set('quick', 0)
        self.wait_set('running:1/2:overview', 30)
        self.gui.wait_status('overview', states=('running',), min_points=5, timeout=60)
        self.gui.activate('stop-set')
        ended = self.wait_set('ended:', 60)
        state, runs, path = ended.split(':', 3)[1:]
        self.assertEqual((state, runs), ('cancelled', '1'), ended)
        self.assertEqual(self.kept(), sorted(before + [path]))
        with open(path) as f:
            result = json.load(f)
        self.assertEqual(result['summary'], {'benchmarks': 2, 'finished': 0})
        self.assertEqual([m['kind'] for m in result['members']], ['overview'])
        self.assertEqual(result['members'][0]['state'], 'cancelled')
        self.assertIs(result['members'][0]['parameters']['write'], False)
        self.assertNotIn('write', [s['name'] for s in result['members'][0]['series']])
        self.assertTrue(result['members'][0]['series'][0]['points'])
        self.gui.check_app_alive()


if __name__ == '__main__':
    gui_stack.main()
