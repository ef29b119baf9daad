#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The test stack itself, without diskbenchd: the private system bus, real
polkitd answering for our rules and policy, udisksd showing our loop device,
and a teardown that leaves nothing behind. When these fail, the daemon
scenarios cannot mean anything."""

import grp
import os
import pwd
import unittest

import harness
from harness import POLKIT_NAME, UDISKS_NAME

AUTHORITY_PATH = '/org/freedesktop/PolicyKit1/Authority'
AUTHORITY_IFACE = 'org.freedesktop.PolicyKit1.Authority'


class StackTest(harness.IntegrationTestCase):
    stack_options = {'daemon': False}

    def check_authorization(self, unique_name, action, flags=0):
        """CheckAuthorization as the daemon asks it: subject = the caller's bus name."""
        reply = self.stack.call(
            AUTHORITY_PATH, AUTHORITY_IFACE, 'CheckAuthorization', '(sa{sv})sa{ss}us',
            ('system-bus-name', {'name': ('s', unique_name)}), action, {}, flags, '',
            dest=POLKIT_NAME)
        is_authorized, is_challenge, _details = reply[0]
        return is_authorized, is_challenge

    def test_bus_is_private_and_of_type_system(self):
        self.assertTrue(self.stack.address.startswith('unix:path=' + self.stack.tmp))
        # The default-deny policy is in force: a test user may not own names.
        res = self.stack.busctl('call', 'org.freedesktop.DBus', '/org/freedesktop/DBus',
                                'org.freedesktop.DBus', 'RequestName', 'su',
                                'org.diskbench.DiskBench1', '0', user='dbtest-in')
        self.assertNotEqual(res.returncode, 0)
        self.assertIn('Access denied', res.stderr)

    def test_policy_actions_registered(self):
        actions = self.stack.call(AUTHORITY_PATH, AUTHORITY_IFACE, 'EnumerateActions', 's', '',
                                  dest=POLKIT_NAME)[0]
        ids = {a[0] for a in actions}
        for action in ['org.diskbench.read-device', 'org.diskbench.write-device',
                       'org.diskbench.benchmark-filesystem', 'org.diskbench.manage-jobs']:
            self.assertIn(action, ids)

    def test_polkit_answers_for_rules(self):
        expected = {
            'dbtest-in': (True, False),    # benchtest: YES
            'dbtest-out': (False, False),  # NO
            'dbtest-ask': (False, True),   # AUTH_ADMIN: a challenge
        }
        for user, answer in expected.items():
            with self.subTest(user=user), self.stack.client(user=user) as client:
                for action in ['org.diskbench.read-device', 'org.diskbench.manage-jobs']:
                    self.assertEqual(self.check_authorization(client.unique_name, action),
                                     answer, f'{user} {action}')

    def test_groups_and_users(self):
        self.assertIn('dbtest-in', grp.getgrnam('benchtest').gr_mem)
        self.assertIn('dbtest-ask', grp.getgrnam('benchadmin-challenge').gr_mem)
        pwd.getpwnam('dbtest-out')

    def test_udisks_shows_loop_device(self):
        loop = self.stack.attach_loop()
        try:
            block = self.stack.get_all(loop.udisks_path, 'org.freedesktop.UDisks2.Block',
                                       dest=UDISKS_NAME)
            device = bytes(block['Device']).rstrip(b'\0').decode()
            self.assertEqual(device, loop.node)
            self.assertEqual(block['Size'], 64 * 1024 * 1024)
            backing = self.stack.get_property(loop.udisks_path, 'org.freedesktop.UDisks2.Loop',
                                              'BackingFile', dest=UDISKS_NAME)
            self.assertEqual(bytes(backing).rstrip(b'\0').decode(), loop.backing)
        finally:
            self.stack.detach_loop(loop)
        # And gone again once detached (udisks drops the object or empties it).
        harness.wait_until(lambda: (self.stack._udisks_size(loop) or 0) == 0, 20,
                           what=f'udisks to forget {loop.node}')


class TeardownTest(unittest.TestCase):
    """Runs after StackTest (classes run in name order) with a stack of its own."""

    def test_teardown_leaves_nothing(self):
        users_before = {u: _exists_user(u) for u in harness.TEST_USERS}
        groups_before = {g: _exists_group(g) for g in harness.TEST_GROUPS}
        policy = os.path.join(harness.ACTIONS_DIR, harness.POLICY_NAME)
        policy_before = os.path.exists(policy)
        stack = harness.Stack(daemon=False)
        try:
            stack.start()
            loop = stack.attach_loop()
            client = stack.client(user='dbtest-in')
            # Includes systemd-udevd when the stack started it (none ran before).
            pids = [s.popen.pid for s in stack.services.values()] + [client.pid]
            tmp = stack.tmp
        except BaseException:
            stack.failed = True
            stack.dump_logs()
            raise
        finally:
            problems = stack.stop()
        self.assertEqual(problems, [])
        # By backing file: a detached node is free for anyone's next loop device.
        self.assertNotEqual(harness.loop_devices().get(loop.node), loop.backing)
        for pid in pids:
            self.assertFalse(harness.pid_alive(pid), f'process {pid} still runs')
        self.assertFalse(os.path.exists(tmp))
        self.assertFalse(os.path.exists(harness.RULES_PATH))
        self.assertEqual(os.path.exists(policy), policy_before)
        self.assertFalse(os.path.exists(harness.STATE_PATH))
        self.assertEqual({u: _exists_user(u) for u in harness.TEST_USERS}, users_before)
        self.assertEqual({g: _exists_group(g) for g in harness.TEST_GROUPS}, groups_before)


def _exists_user(name):
    try:
        pwd.getpwnam(name)
        return True
    except KeyError:
        return False


def _exists_group(name):
    try:
        grp.getgrnam(name)
        return True
    except KeyError:
        return False


if __name__ == '__main__':
    harness.main()
