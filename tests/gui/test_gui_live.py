#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Live graphs keep moving while a job runs (issue: redraws >= 10 a second).

The real client under Xvfb against the real daemon (gui_stack.py), as the
test user, runs a surface map with few, slow buckets on a loop device over
a FUSE file of our own (tests/integration/stalling-fuse). The app writes the
time of every frame it draws to DISKBENCH_TEST_DRAW_LOG (a test-only hook in
client-gtk/app/graph_area.cpp; unset for users). Measured:
  - while buckets fill (partial points, Progress changes): >= 10 frames/s;
  - while the disk does not answer, so the app gets no samples and no
    progress at all: still >= 10 frames/s. Redraws that only follow the data
    fall to 0 here, so this is what fails if redraws fall to the sample rate;
  - after the job ended: (almost) no frames, nothing runs.
A screenshot shows the surface map with its bucket being filled.

Run (as root): meson test -C BUILD --print-errorlogs gui-live; by hand, with the
arguments every GUI test file takes (tests/gui/README.md), with
DISKBENCH_STALLING_FUSE=BUILD/tests/integration/stalling-fuse.
"""

import os
import sys
import time

import gui_stack
from harness import DEVICE_IFACE, JOB_IFACE, wait_until

MIN_FRAMES_PER_S = 10
WINDOW_S = 2.0


class LiveGraphGuiTest(gui_stack.GuiTestCase):
    # No plain loop device: the stalling disk is the one this test reads.
    gui_options = {'loop_size': 0}

    @classmethod
    def prepare(cls):
        cls.disk = cls.gui.stack.attach_stalling_disk(size=256 * 1024 * 1024)
        cls.draw_log = os.path.join(cls.gui.home, 'draws.log')
        cls.gui.start_app(extra_env={'DISKBENCH_TEST_DRAW_LOG': cls.draw_log})

    def tearDown(self):
        if os.path.exists(self.disk.flag):
            self.disk.resume()

    def frames_per_second(self, seconds=WINDOW_S):
        """Frames the app drew in the next SECONDS, per second (from its draw log)."""
        def count():
            with open(self.draw_log, encoding='ascii') as f:
                return sum(1 for _ in f)
        before = count()
        time.sleep(seconds)
        return (count() - before) / seconds

    def test_surface_map_redraws_while_running_also_without_data(self):
        gui = self.gui
        # The app lists devices from an asynchronous call after it starts;
        # a selection it cannot make yet would leave another device selected
        # (caught below: the job must run on the stalling disk).
        time.sleep(2)
        gui.activate('select-device', self.disk.loop.node)
        gui.activate('show-page', 'surface')
        time.sleep(1)
        # Two buckets of 128 MiB read 512 bytes at a time through FUSE: each
        # takes seconds, so the daemon sends partial points of the bucket.
        gui.activate_action('set-parameter', "('buckets', <uint64 2>)")
        gui.activate_action('set-parameter', "('block_size', <uint64 512>)")
        gui.activate('run-benchmark', 'surface')
        gui.wait_status('surface', states=('running',), min_points=1, timeout=60)
        job = self.stack.get_property(self.disk.loop.object_path, DEVICE_IFACE, 'Job')
        self.assertNotEqual(job, '/', 'the surface map does not run on the stalling disk')

        streaming = self.frames_per_second()
        self.assertEqual(gui.status()[1], 'running', 'the run ended inside the window: buckets too fast')
        shot = self.screenshot_path('live-surface-filling.png')
        gui.screenshot(shot)

        # No answers from the disk: no samples, no progress reach the app.

        def progress():
            return self.stack.get_property(job, JOB_IFACE, 'Progress')
        self.disk.stall()

        def stopped():
            before = progress()
            time.sleep(0.6)  # the daemon publishes 20 times a second
            return progress() == before
        wait_until(stopped, 20, what='the surface map to stop getting answers')
        before = (progress(), self.stack.get_property(job, JOB_IFACE, 'SampleCount'))
        stalled = self.frames_per_second()
        self.assertEqual((progress(), self.stack.get_property(job, JOB_IFACE, 'SampleCount')), before,
                         'data came while the disk was stalled')
        self.assertEqual(gui.status()[:2], ('surface', 'running'))
        self.disk.resume()

        gui.activate('stop')
        gui.wait_status('surface', states=('cancelled', 'finished'), min_points=0, timeout=60)
        time.sleep(0.5)
        idle = self.frames_per_second(2.0)
        print(f'\nframes a second: {streaming:.1f} while buckets fill, {stalled:.1f} while no data comes, '
              f'{idle:.1f} after the run; screenshot {shot}', file=sys.stderr)
        self.assertGreaterEqual(streaming, MIN_FRAMES_PER_S)
        self.assertGreaterEqual(stalled, MIN_FRAMES_PER_S)
        self.assertLess(idle, 2.0, 'the graph keeps redrawing with nothing running')


if __name__ == '__main__':
    gui_stack.main()
