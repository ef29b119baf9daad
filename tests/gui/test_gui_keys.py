#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The keyboard shortcuts of the real client under Xvfb (see gui_stack.py).

Keys are pressed with xdotool (XTEST, as a user's keyboard would) in the
app's window; their effect is read from the app's "status" action and the
daemon, never from the code that binds them:

  * F5 starts the shown page's benchmark (status KIND:running), Escape
    stops it (KIND:cancelled, and the daemon's job is cancelled);
    Ctrl+Return starts it too;
  * focus: after F5 Space presses Stop, after Stop Space presses Start; a
    page reached with Alt+1 has its Start focused; closing the Compare
    popover puts the keyboard back where it was;
  * Ctrl+Page Down / Ctrl+Page Up go to the next / previous page, Alt+3 to
    the fourth (the order of the list of pages: Overview, Seek,
    Random, Cont, ...);
  * Ctrl+? opens the shortcuts window (a toplevel named "Keyboard Shortcuts"; a
    screenshot is kept), Escape closes it; Ctrl+E opens the Export dialog;
    Ctrl+R opens the Compare popover (screenshots before/after).

Run (as root): meson test -C BUILD --print-errorlogs gui-keys; by hand, with the
arguments every GUI test file takes (tests/gui/README.md).
"""

import os
import subprocess
import time

import gui_stack


class KeysGuiTest(gui_stack.GuiTestCase):
    """Steps in order: each needs the app state the one before left."""

    def seek_jobs(self):
        return self.daemon_jobs('seek')

    def wait_page(self, kind):
        return self.gui.wait_for(lambda: (lambda s: s if s and s[0] == kind else None)(self.gui.status()),
                                 10, what=f'the {kind} page shown (status {self.gui.status()})')

    def visible(self, name):
        """Whether a mapped window is named NAME (xwininfo also lists hidden ones)."""
        res = subprocess.run(['xdotool', 'search', '--onlyvisible', '--name', f'^{name}$'],
                             env=dict(os.environ, DISPLAY=self.gui.display), stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True, timeout=30)
        return bool(res.stdout.split())

    def wait_window(self, name, present=True):
        return self.gui.wait_for(lambda: self.visible(name) == present, 10,
                                 what=f'a window "{name}" {"shown" if present else "gone"} '
                                      f'(windows: {self.gui.window_names()})')

    def press(self, keys):
        """KEYS in the app's window: focused first, then a moment for GTK to
        take the focus-in before the key arrives (no window manager here)."""
        self.gui.focus_app_window()
        time.sleep(0.3)
        self.gui.send_keys(keys)

    def press_in(self, window_name, keys):
        """KEYS in the window named WINDOW_NAME (a regular expression)."""
        windows = self.gui._xdotool('search', '--onlyvisible', '--name', window_name).split()
        self.assertTrue(windows, f'no visible window {window_name}')
        self.gui._xdotool('windowfocus', '--sync', windows[0])
        time.sleep(0.3)
        self.gui._xdotool('key', keys)

    def test_00_actions_exported(self):
        for name in ('start', 'stop', 'compare', 'next-page', 'previous-page', 'shortcuts'):
            self.assertEqual(self.gui.describe_action(name)[1], '', name)
        self.assertEqual(self.gui.describe_action('go-to-page')[1], 'i')

    def test_01_f5_starts_and_escape_stops(self):
        self.gui.activate('select-device', self.gui.loop.node)
        self.gui.activate('show-page', 'seek')
        self.gui.wait_status('seek', states=('idle',), min_points=0, timeout=30)
        # Stop takes Escape only while something runs.
        self.assertFalse(self.gui.describe_action('stop')[0])
        # Long enough to be stopped by hand: a million reads.
        self.gui.activate_action('set-parameter', "('count', <uint64 1000000>)")
        before = set(self.seek_jobs())
        self.press('F5')
        self.gui.wait_status('seek', states=('running',), min_points=0, timeout=30)
        [job] = set(self.seek_jobs()) - before
        self.gui.wait_for(lambda: self.gui.describe_action('stop')[0], 10, what='stop enabled')
        self.press('Escape')
        self.gui.wait_status('seek', states=('cancelled',), min_points=0, timeout=30)
        self.gui.wait_for(lambda: self.daemon_property(job, 'Job', 'State') == 'cancelled', 20,
                          what=f'{job} cancelled on the daemon')
        self.assertFalse(self.gui.describe_action('stop')[0])

    def test_01b_focus_follows_start_and_stop(self):
        # Focus is seen by what Space does: it presses the focused button.
        # After F5 that is Stop (the same button, relabelled), after Stop Start.
        before = set(self.seek_jobs())
        self.press('F5')
        self.gui.wait_status('seek', states=('running',), min_points=0, timeout=30)
        [job] = set(self.seek_jobs()) - before
        self.gui.wait_for(lambda: self.gui.describe_action('stop')[0], 10, what='stop enabled')
        gui_stack.settle(0.5)
        self.press('space')
        self.gui.wait_status('seek', states=('cancelled',), min_points=0, timeout=30)
        self.gui.wait_for(lambda: self.daemon_property(job, 'Job', 'State') == 'cancelled', 20,
                          what=f'{job} cancelled by Space on Stop')
        before = set(self.seek_jobs())
        gui_stack.settle(0.5)
        self.press('space')
        self.gui.wait_status('seek', states=('running',), min_points=0, timeout=30)
        self.assertEqual(len(set(self.seek_jobs()) - before), 1, 'Space on Start started no (or two) runs')
        self.gui.wait_for(lambda: self.gui.describe_action('stop')[0], 10, what='stop enabled')
        self.press('Escape')
        self.gui.wait_status('seek', states=('cancelled',), min_points=0, timeout=30)

    def test_02_ctrl_return_starts(self):
        self.gui.activate_action('set-parameter', "('count', <uint64 300>)")
        before = set(self.seek_jobs())
        self.press('ctrl+Return')
        self.gui.wait_status('seek', states=('finished',), min_points=1, timeout=60)
        self.assertEqual(len(set(self.seek_jobs()) - before), 1, 'Ctrl+Return started no (or two) runs')

    def test_03_pages_by_keyboard(self):
        self.wait_page('seek')
        self.press('ctrl+Next')  # Page Down
        self.wait_page('random')
        self.press('ctrl+Next')
        self.wait_page('sequential')
        self.press('ctrl+Prior')  # Page Up
        self.wait_page('random')
        # Alt+1 is the first page, the overview; Seek is the second.
        self.press('alt+1')
        self.wait_page('overview')
        # Before the first page there is none: it stays.
        self.press('ctrl+Prior')
        gui_stack.settle(0.5)
        self.wait_page('overview')
        self.press('alt+4')
        self.wait_page('sequential')
        self.press('alt+2')
        self.wait_page('seek')
        # A page reached by keyboard has the keyboard on its Start: Space runs it.
        self.gui.activate_action('set-parameter', "('count', <uint64 1000000>)")
        self.press('space')
        self.gui.wait_status('seek', states=('running',), min_points=0, timeout=30)
        self.gui.wait_for(lambda: self.gui.describe_action('stop')[0], 10, what='stop enabled')
        self.press('Escape')
        self.gui.wait_status('seek', states=('cancelled',), min_points=0, timeout=30)

    def test_04_shortcuts_window(self):
        self.press('ctrl+question')
        self.wait_window('Keyboard Shortcuts')
        time.sleep(1)  # drawn
        path = self.screenshot_path('shortcuts-window.png')
        self.gui.screenshot(path)
        print(f'screenshot {path}', flush=True)
        # Escape closes it (Stop is disabled, so the key is not taken).
        self.press_in('^Keyboard Shortcuts$', 'Escape')
        self.wait_window('Keyboard Shortcuts', present=False)

    def test_05_ctrl_e_opens_export(self):
        self.press('ctrl+e')
        self.wait_window('Export the Graph')
        self.press_in('^Export the Graph$', 'Escape')
        self.wait_window('Export the Graph', present=False)
        self.gui.check_app_alive()

    def differing_pixels(self, a, b):
        """Pixels that differ in the right half of the screen, where the
        page and its popovers are: the device sidebar on the left changes
        whenever another test's loop device comes or goes (CI saw two
        appear between two screenshots)."""
        width, _h, one = gui_stack.read_png(a)
        _w, _h, two = gui_stack.read_png(b)
        return sum(1 for i in range(0, min(len(one), len(two)), 3)
                   if (i // 3) % width >= width // 2 and one[i:i + 3] != two[i:i + 3])

    def wait_screen(self, path, against, condition, what):
        """Screenshots into `path` until the difference from `against` meets `condition`."""
        def met():
            self.gui.screenshot(path)
            return condition(self.differing_pixels(against, path))
        self.gui.wait_for(met, 10, interval=0.3, what=what)

    def test_06_ctrl_r_opens_compare(self):
        # The Compare picker is a popover (an unnamed override-redirect
        # window under X11): seen as the screen changing where it opens, and
        # going again with Escape (Stop is disabled, so Escape reaches it).
        self.gui.activate('show-page', 'seek')
        self.wait_page('seek')
        self.press('alt+2')  # Seek again, the keyboard on Start
        gui_stack.settle(0.5)
        before = self.screenshot_path('compare-before.png')
        shown = self.screenshot_path('compare-shown.png')
        after = self.screenshot_path('compare-after.png')
        self.gui.screenshot(before)
        self.press('ctrl+r')
        self.wait_screen(shown, before, lambda d: d > 5000, f'the popover: {before} vs {shown}')
        self.press('Escape')
        self.wait_screen(after, before, lambda d: d < 2000, f'the popover gone: {before} vs {after}')
        # Closed, the keyboard is back on Start (on the Compare button,
        # Space would open the popover again instead).
        self.press('space')
        self.gui.wait_status('seek', states=('running',), min_points=0, timeout=30)
        self.gui.wait_for(lambda: self.gui.describe_action('stop')[0], 10, what='stop enabled')
        self.press('Escape')
        self.gui.wait_status('seek', states=('cancelled',), min_points=0, timeout=30)


if __name__ == '__main__':
    gui_stack.main()
