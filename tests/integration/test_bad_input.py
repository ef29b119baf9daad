#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Bad input gets its named error, and the daemon keeps serving (the same
process answers before and after every refusal)."""

import os

from gi.repository import Gio, GLib

import harness
from harness import (BUS_NAME, DEVICE_IFACE, DEVICES_PATH, ERROR_PREFIX, FINAL_STATES, JOB_IFACE,
                     MANAGER_IFACE, MANAGER_PATH, SEEK_QUICK)



class BadInputTest(harness.IntegrationTestCase):

    @classmethod
    def prepare(cls):
        cls.loop = cls.stack.attach_loop()
        cls.pid = cls.stack.ensure_daemon()
        cls.fds = cls.open_fds()

    @classmethod
    def open_fds(cls):
        return sorted(os.listdir(f'/proc/{cls.pid}/fd'))

    def tearDown(self):
        # Still the same daemon process, still answering, holding no more
        # file descriptors than before (a refused request must not leak one).
        self.assertEqual(self.stack.daemon_pid(), self.pid, 'diskbenchd restarted or died')
        self.assertTrue(self.stack.get_property(MANAGER_PATH, MANAGER_IFACE, 'Version'))
        self.assertLessEqual(len(self.open_fds()), len(self.fds), 'diskbenchd holds more file descriptors')

    def start_error(self, options, kind='seek', device=None, user='dbtest-in'):
        return self.stack.call_error(MANAGER_PATH, MANAGER_IFACE, 'StartBenchmark', 'osa{sv}',
                                     device or self.loop.object_path, kind, options, user=user)

    def assertInvalid(self, options, key, kind='seek'):
        self.assertDBusError(self.start_error(options, kind), 'InvalidArgument', key)

    def refused_body(self, path, iface, method, signature, *args):
        """A refused call as a client of API 0.16 reads it: the error's name
        and its whole body. busctl and gdbus show the message only, and
        dbus-python's blocking calls keep only that; a GDBus message sent
        by hand comes back as the error message itself."""
        bus = Gio.DBusConnection.new_for_address_sync(
            self.stack.address,
            Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION, None, None)
        try:
            call = Gio.DBusMessage.new_method_call(BUS_NAME, path, iface, method)
            call.set_body(GLib.Variant(f'({signature})', args))
            reply, _ = bus.send_message_with_reply_sync(call, Gio.DBusSendMessageFlags.NONE, 60000, None)
            self.assertEqual(reply.get_message_type(), Gio.DBusMessageType.ERROR, f'{method} was not refused')
            return reply.get_error_name(), reply.get_body().unpack()
        finally:
            bus.close_sync(None)

    def refused_start(self, kind, options, device=None, failure_data=True):
        if failure_data:
            options = {**options, 'failure_data': GLib.Variant('b', True)}
        return self.refused_body(MANAGER_PATH, MANAGER_IFACE, 'StartBenchmark', 'osa{sv}',
                                 device or self.loop.object_path, kind, options)

    def test_refusals_carry_their_failure_as_data(self):
        self.assertEqual(self.stack.get_property(MANAGER_PATH, MANAGER_IFACE, 'Features'), ['failure-data'])
        # Not asked for: the message alone, as GDBus needs (the other tests
        # here read every refusal's message with gdbus).
        name, body = self.refused_start('seek', {'count': GLib.Variant('t', 0)}, failure_data=False)
        self.assertEqual((name, len(body)), (ERROR_PREFIX + 'InvalidArgument', 1))
        # Out of range: the message as before, then the same failure as data.
        name, body = self.refused_start('seek', {'count': GLib.Variant('t', 0)})
        self.assertEqual(name, ERROR_PREFIX + 'InvalidArgument')
        self.assertEqual(len(body), 2, body)
        message, failure = body
        self.assertRegex(message, r'^count: 0 is out of range \[1, \d+\]$')
        self.assertEqual(failure['id'], 'error-out-of-range')
        self.assertEqual(failure['parameter'], 'count')
        self.assertEqual(failure['arguments']['value'], 0)  # a count: 'x'
        # A wrong type: the type names are failures too, nested as data.
        name, (message, failure) = self.refused_start('seek', {'count': GLib.Variant('s', '200')})
        self.assertEqual((failure['id'], failure['parameter']), ('error-wrong-type', 'count'))
        self.assertEqual(failure['arguments']['got'], {'id': 'error-type-text', 'arguments': {}})
        self.assertEqual(failure['arguments']['expected'], {'id': 'error-type-unsigned', 'arguments': {}})
        self.assertEqual(message, 'count: expected an unsigned integer, got a string')
        # The service's own refusals: a device it does not have, a kind it does not know.
        name, (message, failure) = self.refused_start('seek', {}, device=f'{DEVICES_PATH}/nosuchdevice')
        self.assertEqual(name, ERROR_PREFIX + 'NotFound')
        self.assertEqual(failure, {'id': 'error-no-device', 'arguments': {'device': f'{DEVICES_PATH}/nosuchdevice'}})
        name, (message, failure) = self.refused_start('no-such-kind', {})
        self.assertEqual(failure, {'id': 'error-no-device-kind', 'arguments': {'kind': 'no-such-kind'}})
        # Job.Cancel's refusal too: an option it does not take.
        with self.stack.client('dbtest-in', (self.loop.object_path, 'seek', SEEK_QUICK)) as c:
            self.assertEqual(c.wait_completed(60)['completed'], 'finished')
            options = {'bogus': GLib.Variant('u', 1), 'failure_data': GLib.Variant('b', True)}
            name, (message, failure) = self.refused_body(c.job, JOB_IFACE, 'Cancel', 'a{sv}', options)
            self.assertEqual(name, ERROR_PREFIX + 'InvalidArgument')
            self.assertEqual(failure, {'id': 'error-unknown-option', 'arguments': {}, 'parameter': 'bogus'})
            self.assertEqual(message, 'bogus: unknown option or wrong type')
            # A job that did not fail has no failure.
            self.assertEqual(self.stack.get_property(c.job, JOB_IFACE, 'Failure'), {})

    def test_unknown_device_path(self):
        err = self.start_error(SEEK_QUICK, device=f'{DEVICES_PATH}/nosuchdevice')
        self.assertDBusError(err, 'NotFound')
        err = self.start_error(SEEK_QUICK, device='/')
        self.assertDBusError(err, 'NotFound')

    def test_unknown_kind(self):
        self.assertDBusError(self.start_error({}, kind='no-such-kind'), 'NotFound')
        self.assertDBusError(self.start_error({}, kind=''), 'NotFound')

    def test_unknown_option_key(self):
        self.assertInvalid({**SEEK_QUICK, 'bogus_key': ('t', 1)}, 'bogus_key')
        # A key of another kind is unknown to this one.
        self.assertInvalid({**SEEK_QUICK, 'queue_depth': ('t', 1)}, 'queue_depth')

    def test_wrong_variant_type(self):
        self.assertInvalid({'count': ('s', '200')}, 'count')
        self.assertInvalid({'count': ('d', 200.0)}, 'count')
        self.assertInvalid({'count': ('b', True)}, 'count')
        self.assertInvalid({**SEEK_QUICK, 'backend': ('t', 1)}, 'backend')
        self.assertInvalid({**SEEK_QUICK, 'auth.no_user_interaction': ('s', 'yes')},
                           'auth.no_user_interaction')
        self.assertInvalid({**SEEK_QUICK, 'detach': ('t', 1)}, 'detach')
        self.assertInvalid({'tests': ('t', 4), 'duration_s': ('d', 0.5)}, 'tests', kind='profile')

    def test_negative_integer(self):
        self.assertInvalid({'count': ('i', -5)}, 'count')

    def test_out_of_range(self):
        self.assertInvalid({'count': ('t', 0)}, 'count')
        self.assertInvalid({'count': ('t', 2**64 - 1)}, 'count')
        self.assertInvalid({**SEEK_QUICK, 'block_size': ('t', 3)}, 'block_size')
        self.assertInvalid({**SEEK_QUICK, 'backend': ('s', 'nonsense')}, 'backend')
        # Bigger than the 64 MiB device.
        self.assertInvalid({'size': ('t', 1 << 40), 'offset': ('t', 1 << 40)}, 'offset',
                           kind='sequential')

    def test_published_ranges_are_the_ones_enforced(self):
        # ListParameterRanges (0.5): every number parameter of ListBenchmarks,
        # typed as it; the edges it names are where StartBenchmark refuses.
        [ranges] = self.stack.call(MANAGER_PATH, MANAGER_IFACE, 'ListParameterRanges')
        by_key = {(r[0], r[1]): (r[2], r[3]) for r in ranges}
        [kinds] = self.stack.call(MANAGER_PATH, MANAGER_IFACE, 'ListBenchmarks')
        numbers = {(k[0], p[0]): p for k in kinds for p in k[4] if p[1] in ('unsigned', 'number')}
        self.assertEqual(set(by_key), set(numbers))
        for (kind, key), (minimum, maximum) in by_key.items():
            self.assertLessEqual(minimum, maximum, (kind, key))
            self.assertTrue(minimum <= numbers[(kind, key)][3] <= maximum, (kind, key))
            wanted = int if numbers[(kind, key)][1] == 'unsigned' else float
            self.assertIsInstance(minimum, wanted, (kind, key))
        low, high = by_key[('seek', 'count')]
        self.assertGreater(low, 0)
        self.assertInvalid({'count': ('t', low - 1)}, 'count')
        self.assertInvalid({'count': ('t', high + 1)}, 'count')
        # The lowest published value is taken.
        job = self.stack.start_benchmark(self.loop, 'seek', {'count': ('t', low), 'detach': ('b', True)})
        self.assertEqual(self.wait_job_state(job, FINAL_STATES, 60), 'finished')

    def test_other_integer_types_accepted(self):
        # "integers may be sent as any D-Bus integer type"
        options = {'count': ('u', 200), 'detach': ('b', True)}
        job = self.stack.start_benchmark(self.loop, 'seek', options)
        self.assertEqual(self.wait_job_state(job, FINAL_STATES, 60), 'finished')
        self.assertEqual(self.stack.get_property(job, JOB_IFACE, 'Parameters')['count'], 200)

    def test_find_device_refuses_what_is_not_ours(self):
        # An attached loop device we do not use would be "ours" too; an empty
        # one (size 0) never is, nor is anything that is not a block device.
        empty_loop = harness.run(['losetup', '--find']).stdout.strip()
        nodes = ['/etc/passwd', '/dev/null', '/dev/loop-control', '', 'loop0',
                 '/dev/nonexistent', '/dev/../etc/passwd', empty_loop]
        for node in nodes:
            with self.subTest(node=node):
                err = self.stack.call_error(MANAGER_PATH, MANAGER_IFACE, 'FindDevice', 's', node,
                                            user='dbtest-out')
                self.assertDBusError(err, 'NotFound')

    def test_find_device_does_not_follow_symlinks(self):
        link = self.stack.path('link-to-loop')
        os.symlink(self.loop.node, link)
        try:
            err = self.stack.call_error(MANAGER_PATH, MANAGER_IFACE, 'FindDevice', 's', link)
            self.assertDBusError(err, 'NotFound')
        finally:
            os.unlink(link)

    def test_finished_job(self):
        with self.stack.client('dbtest-in', (self.loop.object_path, 'seek', SEEK_QUICK)) as c:
            self.assertEqual(c.wait_completed(60)['completed'], 'finished')
            # Cancelling what has ended succeeds and changes nothing, for the
            # owner and for others (no polkit question for what has ended).
            before = self.job_props(c.job)
            self.stack.call(c.job, JOB_IFACE, 'Cancel', 'a{sv}', {}, user='dbtest-in')
            self.stack.call(c.job, JOB_IFACE, 'Cancel', 'a{sv}', {}, user='dbtest-out')
            self.assertEqual(self.job_props(c.job), before)
            self.assertEqual(before['State'], 'finished')
            # GetSamples works after the end, for anyone.
            # The 200 reads and the 19 points of their latency distribution ("cdf").
            total = 200 + 19
            next_index, samples = self.stack.call(c.job, JOB_IFACE, 'GetSamples', 't', 0,
                                                  user='dbtest-out')
            self.assertEqual((next_index, len(samples)), (total, total))
            next_index, samples = self.stack.call(c.job, JOB_IFACE, 'GetSamples', 't', total)
            self.assertEqual((next_index, samples), (total, []))
            for bad in (total + 1, 2**64 - 1):
                err = self.stack.call_error(c.job, JOB_IFACE, 'GetSamples', 't', bad)
                self.assertDBusError(err, 'InvalidArgument')

    def test_unknown_job_path(self):
        err = self.stack.call_error(MANAGER_PATH + '/jobs/999999', JOB_IFACE, 'GetSamples', 't', 0)
        self.assertIsNotNone(err.name)
        self.assertRegex(err.name, r'UnknownObject|UnknownMethod|NotFound')

    def test_bad_input_leaves_device_idle(self):
        self.start_error({'count': ('t', 0)})
        self.assertEqual(self.stack.get_property(self.loop.object_path, DEVICE_IFACE, 'Job'), '/')
        jobs = self.stack.get_property(MANAGER_PATH, MANAGER_IFACE, 'Jobs')
        for job in jobs:
            self.assertIn(self.stack.get_property(job, JOB_IFACE, 'State'), FINAL_STATES)


if __name__ == '__main__':
    harness.main()
