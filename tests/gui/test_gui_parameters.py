#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The settings form of the real client under Xvfb (see gui_stack.py).

The form is read through the app's "parameter-form" action (each row's
key, widget and shown text) after "show-settings" opened it, and typed in
with xdotool as a user would:

  * rows of the Profiles page (kind "profile"): the test area (region_size)
    is a size field showing "1 GiB", the test set (preset) and the I/O
    method (backend) are drop-downs showing translated words;
  * typing garbage (xdotool, after "show-settings" put the keyboard in the
    field) into the size field shows an inline error (the app
    lives on), so does 0 (a size, but outside the range the daemon
    publishes), "128 MiB" is taken, and a run started then asks the daemon
    for region_size=134217728 (read back from the daemon's Job.Parameters);
  * a screenshot of the form is kept (parameters-form.png).

Run (as root): meson test -C BUILD --print-errorlogs gui-parameters; by hand, with the
arguments every GUI test file takes (tests/gui/README.md).
"""

import time

import gui_stack


class ParametersGuiTest(gui_stack.GuiTestCase):
    """Steps in order: each needs the app state the one before left."""

    def form(self):
        """The "parameter-form" state as {key: (widget, text)}."""
        _enabled, _ptype, state = self.gui.describe_action('parameter-form')
        rows = {}
        for row in (state[0].split('|') if state and state[0] else []):
            key, _, rest = row.partition('=')
            widget, _, text = rest.partition(':')
            rows[key] = (widget, text)
        return rows

    def wait_row(self, key, widget, text):
        return self.gui.wait_for(lambda: self.form().get(key) == (widget, text), 10,
                                 what=f'{key} a {widget} showing {text!r} (form: {self.form()})')

    def test_01_sizes_and_choices_read_as_words(self):
        self.gui.activate('select-device', self.gui.loop.node)
        type(self).selected_at = time.monotonic()
        self.gui.activate('show-page', 'profile')
        self.gui.wait_status('profile', states=('idle',), min_points=0, timeout=30)
        self.gui.activate('show-settings', '')
        self.wait_row('region_size', 'size', '1 GiB')
        form = self.form()
        self.assertEqual(form.get('preset'), ('drop-down', 'Standard'), form)
        self.assertEqual(form.get('backend'), ('drop-down', 'Automatic'), form)
        self.assertEqual(form.get('duration_s', ('',))[0], 'spin', form)
        # Drawn, and the toast a select-device sent before the app had its
        # device list shows ("No such device.", 6 s) gone from the picture.
        time.sleep(max(1.0, 7.0 - (time.monotonic() - self.selected_at)))
        path = self.screenshot_path('parameters-form.png')
        self.gui.screenshot(path)
        print(f'screenshot {path}', flush=True)

    def test_02_garbage_gets_an_inline_error(self):
        # The keyboard in the test area's field, its text selected: typing replaces it.
        self.gui.activate('show-settings', 'region_size')
        self.gui.type_text('lots')
        self.wait_row('region_size', 'size-error', 'lots')
        path = self.screenshot_path('parameters-error.png')
        self.gui.screenshot(path)
        print(f'screenshot {path}', flush=True)
        self.gui.check_app_alive()
        # A size, but below the daemon's range (ListParameterRanges: at least 1 B).
        self.gui.send_keys('ctrl+a')
        self.gui.type_text('0')
        self.wait_row('region_size', 'size-error', '0')
        self.gui.send_keys('ctrl+a')
        self.gui.type_text('128 MiB')
        self.wait_row('region_size', 'size', '128 MiB')

    def test_03_the_typed_size_reaches_the_daemon(self):
        self.gui.send_keys('Escape')  # closes the popover
        # A short run: one short test.
        self.gui.activate_action('set-parameter', "('tests', <'RND4K Q1T1'>)")
        self.gui.activate_action('set-parameter', "('duration_s', <0.5>)")
        self.gui.activate_action('set-parameter', "('warmup_s', <0.0>)")
        before = set(self.daemon_jobs())
        self.gui.activate('run-benchmark', 'profile')
        self.gui.wait_status('profile', states=('finished',), min_points=0, timeout=120)
        [job] = set(self.daemon_jobs()) - before
        parameters = self.daemon_property(job, 'Job', 'Parameters')
        self.assertEqual(parameters['region_size']['data'], 128 * 1024 * 1024, parameters)


if __name__ == '__main__':
    gui_stack.main()
