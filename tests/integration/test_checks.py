#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The block-layer cross-check, the link and the stack over D-Bus (issue 13):
a clean run's keys, a page-cache-backed loop device's warning, a second
reader's foreign I/O with its phase, and Device.Link/LinkLimit/Stack."""

import os
import subprocess
import sys
import threading

import harness
from harness import DEVICE_IFACE


def show(what, props):
    """The figures, for whoever reads the test's output."""
    keys = ('checked_device', 'issued_read_bytes', 'device_read_bytes', 'foreign_read_bytes', 'backing_device',
            'backing_read_bytes', 'backing_cached_percent', 'link', 'stack')
    summary = props['Summary']
    print(f'\n{what}: ' + ', '.join(f'{k}={summary[k]}' for k in keys if k in summary), file=sys.stderr)
    for warning in props['Warnings']:
        print(f'  warning: {warning}', file=sys.stderr)


def check_messages(case, props):
    """Job.WarningMessages/NoteMessages (API 0.5) say what Warnings/Notes say,
    entry by entry: (id, the same English text, arguments). Returns the
    warnings' ids with their arguments."""
    for texts, messages in (('Warnings', 'WarningMessages'), ('Notes', 'NoteMessages')):
        entries = props[messages]
        case.assertEqual([text for _id, text, _args in entries], props[texts], entries)
        for message_id, _text, args in entries:
            case.assertRegex(message_id, r'^[a-z0-9-]+$')
            case.assertIsInstance(args, dict)
    return {message_id: args for message_id, _text, args in props['WarningMessages']}


def run_job(case, options, kind='seek'):
    with case.stack.client('dbtest-in', (case.loop.object_path, kind, options)) as c:
        case.assertIsNone(c.error)
        done = c.wait_completed(120)
        case.assertEqual(done['completed'], 'finished', done)
        return case.job_props(c.job)


class ChecksTest(harness.LoopDeviceTestCase):

    def set_direct_io(self, on):
        subprocess.run(['losetup', f'--direct-io={"on" if on else "off"}', self.loop.node], check=True)
        with open(f'/sys/block/{self.loop.name}/loop/dio') as f:
            self.assertEqual(f.read().strip(), '1' if on else '0')

    def tearDown(self):
        super().tearDown()
        self.set_direct_io(True)

    def test_device_has_link_and_stack(self):
        get = lambda name: self.stack.get_property(self.loop.object_path, DEVICE_IFACE, name)
        self.assertEqual(get('Link'), 'virtual (loop)')
        self.assertEqual(get('LinkLimit'), 0.0)
        stack = get('Stack')
        # The backing file's filesystem comes from the loop driver's own
        # record of the file; its path, text a user may have chosen, is in
        # no public property.
        fs_type = subprocess.run(['findmnt', '-n', '-o', 'FSTYPE', '--target', self.loop.backing],
                                 capture_output=True, text=True, check=True).stdout.strip()
        self.assertTrue(stack[0].startswith(f'{self.loop.name} (file on {fs_type}'), stack)
        self.assertFalse([layer for layer in stack if os.path.basename(self.loop.backing) in layer], stack)

    def test_clean_run_device_served_what_was_read(self):
        props = run_job(self, {'count': ('t', 2000)})
        show('clean seek', props)
        summary = props['Summary']
        self.assertEqual(summary['checked_device'], self.loop.name)
        issued, served = summary['issued_read_bytes'], summary['device_read_bytes']
        self.assertEqual(issued, 2000 * 512)
        self.assertLessEqual(abs(served - issued), issued / 100, summary)
        self.assertNotIn('foreign_read_bytes', summary)
        self.assertEqual(props['Warnings'], [])
        check_messages(self, props)
        # A loop device has no temperature sensor: a note, with its id.
        self.assertIn(['no-temperature', 'this device reports no temperature', {}], props['NoteMessages'])
        self.assertEqual(summary['link'], 'virtual (loop)')
        self.assertTrue(summary['stack'].startswith(self.loop.name), summary['stack'])
        self.assertEqual(props['DeviceInfo']['link'], 'virtual (loop)')

    def test_loop_without_direct_io_is_flagged_every_time(self):
        self.set_direct_io(False)
        # seek, as the "done" names it: the loop device is named page-cache-backed.
        props = run_job(self, {'count': ('t', 2000)})
        show('seek without direct I/O', props)
        self.assertEqual(len([w for w in props['Warnings']
                              if w.startswith(f'{self.loop.name} is page-cache-backed')]), 1, props['Warnings'])
        # The same warning as id and arguments, for a client to translate.
        ids = check_messages(self, props)
        self.assertEqual(ids['loop-page-cache-backed'],
                         {'device': self.loop.name, 'backing_file': self.loop.backing})
        for attempt in range(3):
            with self.subTest(attempt=attempt):
                # The planted cache hit: the whole backing file in the page
                # cache, then all of it read through the loop device.
                with open(self.loop.backing, 'rb') as f:
                    while f.read(1 << 20):
                        pass
                props = run_job(self, {'size': ('t', 64 * 1024 * 1024), 'block_size': ('t', 1024 * 1024)},
                                kind='sequential')
                show(f'sequential without direct I/O, attempt {attempt}', props)
                warnings = props['Warnings']
                self.assertEqual(len([w for w in warnings
                                      if w.startswith(f'{self.loop.name} is page-cache-backed')]), 1, warnings)
                self.assertEqual(len([w for w in warnings if w.startswith(
                    f'a cache answered reads under {self.loop.name}: the page cache held ')]), 1, warnings)
                self.assertGreater(props['Summary']['backing_cached_percent'], 90, props['Summary'])

    def test_second_reader_is_foreign_io_with_its_phase(self):
        options = {'tests': ('s', 'SEQ1M Q1T1, RND4K Q1T1'), 'duration_s': ('d', 1.5),
                   'warmup_s': ('d', 0.0), 'region_size': ('t', 32 * 1024 * 1024)}
        stop = threading.Event()

        def reader():
            # Another program reading the same device.
            while not stop.is_set():
                subprocess.run(['dd', f'if={self.loop.node}', 'of=/dev/null', 'bs=1M', 'count=16',
                                'iflag=direct', 'status=none'], check=False)

        thread = threading.Thread(target=reader)
        with self.stack.client('dbtest-in', (self.loop.object_path, 'profile', options)) as c:
            self.assertIsNone(c.error)
            try:
                # From the second test on: past half the progress (no warm-ups).
                harness.wait_until(lambda: self.stack.get_property(c.job, harness.JOB_IFACE, 'Progress') > 0.55,
                                   30, what='the second test')
                thread.start()
                done = c.wait_completed(120)
            finally:
                stop.set()
                if thread.is_alive():
                    thread.join()
            self.assertEqual(done['completed'], 'finished', done)
            props = self.job_props(c.job)
        show('profile with a second reader', props)
        summary = props['Summary']
        self.assertGreater(summary.get('foreign_read_bytes', 0), 1 << 20, summary)
        foreign = [w for w in props['Warnings'] if w.startswith(f'other I/O on {self.loop.name}')]
        self.assertEqual(len(foreign), 1, props['Warnings'])
        self.assertIn('during RND4K Q1T1: ', foreign[0])
        self.assertNotIn('SEQ1M Q1T1', foreign[0])


if __name__ == '__main__':
    harness.main()
