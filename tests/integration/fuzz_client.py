#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The caller side of test_fuzz.py: randomised, mostly wrong calls to
diskbenchd, made as an unprivileged user over one bus connection.

Usage: fuzz_client.py CONFIG_JSON   (test_fuzz.py writes it; see there)

Every call is drawn from random.Random(seed) alone, never from an answer,
so a seed gives the same calls again; what the daemon answers can differ
between runs where timing decides (whether a job still runs). The client
also cancels the jobs it managed to start (at most two run at a time, and
all at the end), which depends on the answers but draws nothing.

What counts as wrong (collected in "unexpected", which test_fuzz.py
requires to be empty):
  * no reply (NoReply: a crash or a hang), the connection or the daemon's
    name lost, or the daemon's unique name changing (a restart);
  * an error that is neither one of the API's named errors
    (org.diskbench.DiskBench1.Error.*, listed in NAMED_ERRORS) nor one of
    the protocol errors in PROTOCOL_ERRORS, which sd-bus in the daemon
    answers for calls that do not fit its objects (unknown object,
    interface, method or property, wrong signature, read-only property)
    and the bus answers for what its policy denies;
  * a protocol error for a call that fits the API exactly (right object,
    interface, member and signature): then only a named error will do;
    except InconsistentMessage for a call with a Unicode noncharacter
    (U+FDD0..U+FDEF, U+xFFFE, U+xFFFF) in a string: the D-Bus
    specification allows them and the bus passes them on, but sd-bus in
    the daemon refuses to read such a string, and answers so before any
    code of ours runs;
  * an error message that looks like a C++ exception escaping
    (std::, basic_string, stoul...);
  * a reply whose signature, or a property whose type, is not the one the
    introspection XML declares.

Invalid UTF-8 cannot be sent: the bus checks every string and disconnects
a sender of a bad one, and dbus-python refuses to build such a message.
Strings here are valid UTF-8 of the awkward kinds (controls, bidi
overrides, noncharacters, combining marks, huge); the one way invalid UTF-8
reaches the daemon is a folder name, and folders with such names are among
the descriptors passed.
"""

import json
import math
import os
import select
import socket
import sys
import time

import random

import dbus
import dbus.lowlevel

BUS_NAME = 'org.diskbench.DiskBench1'
MANAGER_PATH = '/org/diskbench/DiskBench1'
MANAGER_IFACE = 'org.diskbench.DiskBench1.Manager'
DEVICE_IFACE = 'org.diskbench.DiskBench1.Device'
JOB_IFACE = 'org.diskbench.DiskBench1.Job'
PROPERTIES_IFACE = 'org.freedesktop.DBus.Properties'
OBJECT_MANAGER_IFACE = 'org.freedesktop.DBus.ObjectManager'
INTROSPECTABLE_IFACE = 'org.freedesktop.DBus.Introspectable'
PEER_IFACE = 'org.freedesktop.DBus.Peer'
ERROR_PREFIX = 'org.diskbench.DiskBench1.Error.'

# The API's errors (the introspection XML lists them).
NAMED_ERRORS = {ERROR_PREFIX + n for n in (
    'NotAuthorized', 'NotAuthorizedCanObtain', 'NotAuthorizedDismissed', 'InvalidArgument',
    'NotFound', 'DeviceBusy', 'PermissionDenied', 'NoSpace', 'LimitsExceeded', 'Cancelled',
    'Failed')}
# Errors of the protocol layer: sd-bus in the daemon answers these for calls
# its object table does not have or whose signature does not fit, before any
# code of ours runs; the bus answers AccessDenied for what its policy
# refuses. Acceptable only where the call does not fit the API.
PROTOCOL_ERRORS = {'org.freedesktop.DBus.Error.' + n for n in (
    'UnknownObject', 'UnknownInterface', 'UnknownMethod', 'UnknownProperty', 'InvalidArgs',
    'PropertyReadOnly', 'AccessDenied')}
# sd-bus refuses strings with noncharacters, which the bus lets through.
INCONSISTENT_MESSAGE = 'org.freedesktop.DBus.Error.InconsistentMessage'


def is_noncharacter(c):
    code = ord(c)
    return 0xFDD0 <= code <= 0xFDEF or (code & 0xFFFE) == 0xFFFE


def has_noncharacter(value):
    if isinstance(value, str):
        # str(): a dbus.Signature iterates by complete types
        return any(is_noncharacter(c) for c in str(value))
    if isinstance(value, dict):
        return any(has_noncharacter(k) or has_noncharacter(v) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return any(has_noncharacter(v) for v in value)
    return False


# Text of a C++ exception that escaped into a reply.
INTERNALS = ('std::', 'basic_string', 'stoul', 'stoull', 'vector::', 'map::at', 'bad_alloc',
             'bad_variant', 'out_of_range', 'invalid_argument', 'terminate', 'what():')

STANDARD_METHODS = {
    (PROPERTIES_IFACE, 'Get'): ('ss', 'v'),
    (PROPERTIES_IFACE, 'GetAll'): ('s', 'a{sv}'),
    (PROPERTIES_IFACE, 'Set'): ('ssv', ''),
    (OBJECT_MANAGER_IFACE, 'GetManagedObjects'): ('', 'a{oa{sa{sv}}}'),
    (INTROSPECTABLE_IFACE, 'Introspect'): ('', 's'),
    (PEER_IFACE, 'Ping'): ('', ''),
    (PEER_IFACE, 'GetMachineId'): ('', 's'),
}

UNSIGNED_EXTREMES = [0, 1, 2, 3, 7, 511, 512, 513, 4095, 4096, 2**31 - 1, 2**31, 2**32 - 1, 2**32,
                     2**53, 2**53 + 1, 2**63 - 1, 2**63, 2**64 - 2, 2**64 - 1]
SIGNED_EXTREMES = [-1, -2, -512, -2**31, -2**31 - 1, -2**63, 2**63 - 1]
DOUBLE_EXTREMES = [math.nan, -math.nan, math.inf, -math.inf, -0.0, 0.0, 5e-324, 2.2e-308, 1e-9,
                   0.001, 0.5, 1.0, 1e15, 2.0**64, 1.7976931348623157e308, -1.0, -1e308]
INTEGER_CODES = 'ynqiuxt'
RANGES = {'y': (0, 2**8 - 1), 'n': (-2**15, 2**15 - 1), 'q': (0, 2**16 - 1),
          'i': (-2**31, 2**31 - 1), 'u': (0, 2**32 - 1), 'x': (-2**63, 2**63 - 1),
          't': (0, 2**64 - 1)}
INTEGER_TYPES = {'y': dbus.Byte, 'n': dbus.Int16, 'q': dbus.UInt16, 'i': dbus.Int32,
                 'u': dbus.UInt32, 'x': dbus.Int64, 't': dbus.UInt64}
# Variant contents tried for wrong types.
VARIANT_SIGNATURES = ['b', 'y', 'n', 'q', 'i', 'u', 'x', 't', 'd', 's', 'o', 'g', 'h', 'as', 'ay',
                      'a{sv}', 'a{ss}', '(ii)', '(st)', 'v', 'av', 'aas', 'a(udd)']
# Signatures for calls that do not fit.
WRONG_SIGNATURES = ['', 's', 'ss', 'sss', 't', 'u', 'tt', 'ut', 'tu', 'o', 'h', 'b', 'd', 'x', 'v',
                    'ay', 'as', 'a{sv}', 'a{ss}', 'osa{sv}', 'hsa{sv}', 'sa{sv}', 'osa{ss}',
                    'osav', 'ssa{sv}', 'hsa{ss}', 'osa{sv}s', 'hsa{sv}h', '(osa{sv})', 'aa{sv}',
                    'ssv', 'sss', 'ssvv', 'tuu', 'tut', 'a{sv}a{sv}', 'g', 'hh']
KNOWN_STRING_VALUES = ['auto', 'psync', 'io_uring', 'libaio', 'preserve', 'destroy', 'default',
                       'nvme', 'real-world', 'RND4K Q32T1', 'SEQ1M Q8T1', 'RND4K Q1T1',
                       'SEQ1M Q1T1, RND4K Q32T1', 'RND4K Q0T0', 'SEQ0K Q1T1', 'RND4K Q99999999999T1']


def awkward_strings():
    """Valid UTF-8 of the kinds that break code which assumes plain text."""
    return [
        '', ' ', '  \t', '\n', '\r\n', '.', '..', '/', '//', '\\', '%s%s%n%x', '{}{}{0}', '{:>99999}',
        '"', "'", '`', '$(id)', '; rm -rf /', '\x01\x02\x03\x1b[31m', '\x7f', '\u0085',
        '\u200b', '\u202e\u202dreversed', '\ufeffbom', '\ufffd', '\ufdd0', '\uffff', '\ufffe',
        '\U0010ffff', '\U0001f4be', 'e\u0301' * 1000, '\u0301' * 300, 'é', 'ß', '日本語',
        'A' * 255, 'A' * 256, 'A' * 4095, 'A' * 4096, 'x' * 65536,
        '/dev/null', '/dev/zero', '/dev/sda', '/dev/nvme0n1', '/dev/mem', '/dev/loop-control',
        '/dev/../etc/passwd', '/etc/passwd', '/etc/shadow', '../../../../etc/shadow',
        '/proc/self/fd/0', '/proc/1/root', '/sys/block', '/dev/disk/by-id/x', 'loop0', 'sda',
        '/dev/loop', '/dev/loop99999', '/dev/loop0p1', '-1', '0', '1e309', 'nan', 'inf',
        '18446744073709551616', '0x10', 'true', 'null',
        'org.diskbench.DiskBench1.Manager', 'org.freedesktop.DBus.Properties',
        'org.diskbench.DiskBench1.Error.NotFound',
    ]


class Call:
    def __init__(self, path, iface, member, sig, args, fits=False, reply_sig=None, what=None,
                 prop_type=None, props=None):
        self.path, self.iface, self.member, self.sig, self.args = path, iface, member, sig, args
        self.fits = fits            # fits the API exactly: only named errors will do
        self.reply_sig = reply_sig  # the reply's signature when it succeeds, if known
        self.what = what            # coverage label
        self.prop_type = prop_type  # Properties.Get: the property's declared type
        self.props = props          # Properties.GetAll: {name: type}

    def describe(self):
        args = repr(self.args)
        if len(args) > 300:
            args = args[:300] + f'... ({len(args)} chars)'
        return f'{self.path} {self.iface}.{self.member}({self.sig}) {args}'


def signature_of(value):
    """The D-Bus signature dbus-python received a value as."""
    simple = [(dbus.Boolean, 'b'), (dbus.Byte, 'y'), (dbus.Int16, 'n'), (dbus.UInt16, 'q'),
              (dbus.Int32, 'i'), (dbus.UInt32, 'u'), (dbus.Int64, 'x'), (dbus.UInt64, 't'),
              (dbus.Double, 'd'), (dbus.ObjectPath, 'o'), (dbus.Signature, 'g'),
              (dbus.String, 's')]
    for cls, code in simple:
        if isinstance(value, cls):
            return code
    if isinstance(value, dbus.Dictionary):
        return 'a{' + (value.signature or '') + '}'
    if isinstance(value, dbus.Array):
        return 'a' + (value.signature or '')
    if isinstance(value, dbus.Struct):
        return '(' + ''.join(signature_of(v) for v in value) + ')'
    return '?'


def split_signature(sig):
    out, i = [], 0
    while i < len(sig):
        j = _type_end(sig, i)
        out.append(sig[i:j])
        i = j
    return out


def _type_end(sig, i):
    c = sig[i]
    if c == 'a':
        return _type_end(sig, i + 1)
    if c in '({':
        close = ')' if c == '(' else '}'
        i += 1
        while sig[i] != close:
            i = _type_end(sig, i)
        return i + 1
    return i + 1


class Fuzzer:
    def __init__(self, config):
        self.config = config
        self.seed = config['seed']
        self.rng = random.Random(f'{config["seed"]}:{config["stream"]}')
        self.spec = config['spec']  # {iface: {"methods": {name: [in_sig, out_sig]}, "properties": {name: type}}}
        self.forbidden = {s.strip() for s in config['forbidden_strings']}
        self.bus = dbus.bus.BusConnection(os.environ['DBUS_SYSTEM_BUS_ADDRESS'])
        self.unexpected = []
        self.errors = {}
        self.replies = 0
        self.coverage = {}
        self.wrong_type_keys = set()
        self.fd_labels_used = {}
        self.own_jobs = []
        self.jobs_started = 0
        self.failed_messages = {}
        self.slow = []
        self.strings = awkward_strings() + list(config['nodes']) + list(config['strings'])
        self.fds = self.open_fds()
        self.benchmarks = {}
        self.key_cycle = []
        self.owner = self.daemon_owner()

    # ---- descriptors ----------------------------------------------------

    def open_fds(self):
        """(label, fd) of every kind of descriptor the daemon might be handed."""
        fds = []

        def add(label, opener):
            try:
                fds.append((label, opener()))
            except OSError as e:
                self.note_setup(f'could not open {label}: {e}')

        for label, (path, how) in self.config['fd_paths'].items():
            flags = {'dir': os.O_RDONLY | os.O_DIRECTORY, 'path': os.O_PATH,
                     'path-nofollow': os.O_PATH | os.O_NOFOLLOW, 'read': os.O_RDONLY,
                     'write': os.O_WRONLY}[how]
            add(label, lambda p=path, f=flags: os.open(os.fsencode(p) if isinstance(p, str)
                                                       else bytes(p), f | os.O_CLOEXEC))
        # A folder with a name that is not UTF-8, and one deeper than PATH_MAX,
        # opened by parts (the daemon reads the name back from /proc).
        for label, parts in self.config['fd_chains'].items():
            def chain(parts=parts):
                fd = os.open('/', os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
                for part in parts:
                    part = bytes.fromhex(part)
                    nxt = os.open(part, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC, dir_fd=fd)
                    os.close(fd)
                    fd = nxt
                return fd
            add(label, chain)
        r, w = os.pipe2(os.O_CLOEXEC)
        fds += [('pipe-read', r), ('pipe-write', w)]
        a, b = socket.socketpair()
        fds += [('socketpair', a.detach()), ('socketpair-peer', b.detach())]
        add('udp-socket', lambda: socket.socket(socket.AF_INET, socket.SOCK_DGRAM).detach())
        add('eventfd', lambda: os.eventfd(0, os.EFD_CLOEXEC))
        add('memfd', lambda: os.memfd_create('fuzz', os.MFD_CLOEXEC))
        epoll = select.epoll()
        add('epoll', lambda: os.dup(epoll.fileno()))
        epoll.close()
        add('bus-socket', lambda: os.dup(self.bus.get_unix_fd()))
        # A folder of ours, removed while we hold it open.
        doomed = os.path.join(self.config['own_dir'], f'doomed-{self.config["stream"]}')
        os.mkdir(doomed)
        add('deleted-folder', lambda: os.open(doomed, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC))
        os.rmdir(doomed)
        return fds

    def note_setup(self, text):
        print(json.dumps({'setup': text}), flush=True)

    # ---- values ---------------------------------------------------------

    def string(self):
        r = self.rng.random()
        if r < 0.6:
            s = self.rng.choice(self.strings)
        elif r < 0.8:
            s = ''.join(chr(self.rng.choice([self.rng.randrange(0x20, 0x7f), self.rng.randrange(1, 0x20),
                                             self.rng.randrange(0xa0, 0xd7ff),
                                             self.rng.randrange(0xe000, 0x10ffff)]))
                        for _ in range(self.rng.randrange(1, 40)))
        elif r < 0.995:
            s = self.rng.choice(KNOWN_STRING_VALUES)
        else:
            s = 'Z' * self.rng.choice([100_000, 1 << 20])  # rare: replies and logs echo it
        if s.strip() in self.forbidden:
            s = 'not ' + s  # see forbidden_strings in test_fuzz.py
        return s

    def object_path(self):
        r = self.rng.random()
        pool = self.config['devices'] + self.config['jobs']
        if r < 0.5:
            return self.rng.choice(pool)
        if r < 0.8:
            return f'{MANAGER_PATH}/jobs/{self.rng.randrange(0, self.config["max_job_number"] + 64)}'
        return self.rng.choice([
            '/', MANAGER_PATH, MANAGER_PATH + '/devices', MANAGER_PATH + '/jobs',
            MANAGER_PATH + '/devices/sda', MANAGER_PATH + '/devices/loop99999',
            MANAGER_PATH + '/jobs/0', MANAGER_PATH + '/jobs/18446744073709551615',
            MANAGER_PATH + '/jobs/18446744073709551616', MANAGER_PATH + '/jobs/x',
            MANAGER_PATH + '/jobs/_31', MANAGER_PATH + '/devices/loop0/x',
            '/org/freedesktop/UDisks2', '/org/freedesktop/UDisks2/block_devices/loop0',
            '/org/freedesktop/DBus', '/a' * 200, MANAGER_PATH + '/' + 'x' * 1000])

    def integer(self, code, value):
        lo, hi = RANGES[code]
        if not lo <= value <= hi:
            value = lo + (value - lo) % (hi - lo + 1)
        return INTEGER_TYPES[code](value)

    def fd(self, variant_level=0):
        label, fd = self.rng.choice(self.fds)
        self.fd_labels_used[label] = self.fd_labels_used.get(label, 0) + 1
        return dbus.types.UnixFd(fd, variant_level=variant_level)  # a copy of ours

    def value(self, sig, depth=0):
        """A random value of D-Bus type `sig` (one complete type)."""
        c = sig[0]
        if c in INTEGER_CODES:
            pool = UNSIGNED_EXTREMES + SIGNED_EXTREMES + [self.rng.getrandbits(64)]
            return self.integer(c, self.rng.choice(pool))
        if c == 'b':
            return dbus.Boolean(self.rng.random() < 0.5)
        if c == 'd':
            return dbus.Double(self.rng.choice(DOUBLE_EXTREMES + [self.rng.uniform(-10, 10)]))
        if c == 's':
            return dbus.String(self.string())
        if c == 'o':
            return dbus.ObjectPath(self.object_path())
        if c == 'g':
            return dbus.Signature(self.rng.choice(['', 's', 'a{sv}', 'v', '(udd)']))
        if c == 'h':
            return self.fd()
        if c == 'v':
            inner = self.rng.choice(VARIANT_SIGNATURES if depth < 2 else 'bustd')
            return self.variant(inner, depth + 1)
        if c == 'a' and sig.startswith('a{'):
            kt, vt = split_signature(sig[2:-1])
            n = self.rng.choice([0, 1, 2, 5]) if depth < 2 else 0
            items = {}
            for _ in range(n):
                items[self.value(kt, depth + 1)] = self.value(vt, depth + 1)
            return dbus.Dictionary(items, signature=kt + vt)
        if c == 'a':
            if sig == 'ay':
                return dbus.ByteArray(bytes(self.rng.getrandbits(8) for _ in range(self.rng.choice([0, 3, 64]))))
            n = self.rng.choice([0, 1, 3]) if depth < 2 else 0
            return dbus.Array([self.value(sig[1:], depth + 1) for _ in range(n)], signature=sig[1:])
        if c == '(':
            return dbus.Struct([self.value(t, depth + 1) for t in split_signature(sig[1:-1])],
                               signature=sig[1:-1])
        raise ValueError(sig)

    def variant(self, sig, depth=0):
        """A value of type `sig` wrapped in a variant (variant_level 1; 'v': nested)."""
        if sig == 'v':
            return self.tag(self.value('s' if depth > 2 else self.rng.choice('bust'), depth + 1), 2)
        if sig == 'h':
            return self.fd(variant_level=1)
        return self.tag(self.value(sig, depth))

    # ---- options --------------------------------------------------------

    def option_value(self, kind, key, ptype, wrong=False):
        """A value for a parameter: mostly sensible (to get past the first
        check), often extreme, sometimes of a wrong type."""
        r = self.rng.random()
        if r < 0.2 or wrong:  # a wrong type
            wrong = {'unsigned': 'bdsogasay(ii)a{sv}v', 'number': 'bsoasa{sv}v',
                     'boolean': 'ynqiuxtdsoasv', 'string': 'bynqiuxtdoasayv'}.get(ptype, 'bs')
            choices = [s for s in VARIANT_SIGNATURES if s[0] in wrong or s in wrong]
            self.wrong_type_keys.add(f'{kind}:{key}')
            return self.variant(self.rng.choice(choices))
        if ptype == 'unsigned':
            code = self.rng.choice('tttuuqyxin')
            if r < 0.6:
                value = self.rng.choice([1, 2, 4, 8, 16, 64, 200, 512, 4096, 65536, 1 << 20, 4 << 20])
            else:
                value = self.rng.choice(UNSIGNED_EXTREMES + SIGNED_EXTREMES)
            return self.tag(self.integer(code, value))
        if ptype == 'number':
            if r < 0.6:
                return self.tag(dbus.Double(self.rng.choice([0.05, 0.1, 0.2, 0.3])))
            if r < 0.7:
                return self.tag(self.integer(self.rng.choice('tuix'), self.rng.choice(UNSIGNED_EXTREMES)))
            return self.tag(dbus.Double(self.rng.choice(DOUBLE_EXTREMES)))
        if ptype == 'boolean':
            return self.tag(dbus.Boolean(self.rng.random() < 0.5))
        if ptype == 'string':
            if key in ('backend', 'mode', 'preset', 'tests') and r < 0.6:
                return self.tag(dbus.String(self.rng.choice(KNOWN_STRING_VALUES)))
            return self.tag(dbus.String(self.string()))
        return self.variant(self.rng.choice(VARIANT_SIGNATURES))

    @staticmethod
    def tag(value, level=1):
        """The same value, to be sent in `level` variants (dbus-python's
        values are immutable: made again)."""
        if isinstance(value, (dbus.Array, dbus.Dictionary)):
            return type(value)(value, signature=value.signature, variant_level=level)
        if isinstance(value, dbus.Struct):
            return dbus.Struct(value, signature=value.signature, variant_level=level)
        return type(value)(value, variant_level=level)

    def options(self, kind, wrong_key=None):
        info = self.benchmarks.get(kind)
        params = list(info['params'].items()) if info else []
        chosen = [p for p in params if self.rng.random() < 0.5 and p[0] != wrong_key]
        # Keys of another kind, unknown keys, and the common ones.
        others = [(k, t) for other, i in self.benchmarks.items() if other != kind
                  for k, t in i['params'].items()]
        if others and self.rng.random() < 0.25:
            chosen.append(self.rng.choice(others))
        if self.rng.random() < 0.1:
            chosen.append((self.string(), 'string'))
        if self.rng.random() < 0.7:
            chosen.append(('auth.no_user_interaction', 'boolean'))
        if self.rng.random() < 0.2:
            chosen.append(('detach', 'boolean'))
        items = {}
        for key, ptype in chosen:
            items[key] = self.option_value(kind, key, ptype)
        if wrong_key:
            items[wrong_key] = self.option_value(kind, wrong_key, info['params'][wrong_key], wrong=True)
        return dbus.Dictionary(items, signature='sv')

    def next_wrong_key(self, target_kinds):
        """The next (kind, key) of a kind started this way, in a shuffled
        round: so that every key is sent with a wrong type early on."""
        if not self.key_cycle:
            self.key_cycle = [(kind, key) for kind, info in sorted(self.benchmarks.items())
                              for key in sorted(info['params'])]
            self.rng.shuffle(self.key_cycle)
        for i, (kind, key) in enumerate(self.key_cycle):
            if self.benchmarks[kind]['target'] in target_kinds:
                del self.key_cycle[i]
                return kind, key
        self.key_cycle = []
        return None, None

    # ---- calls ----------------------------------------------------------

    def kind(self):
        r = self.rng.random()
        if r < 0.85 and self.benchmarks:
            return self.rng.choice(sorted(self.benchmarks))
        return self.string()

    def existing_object(self):
        """(path, iface) of an object that exists for the whole run."""
        return self.rng.choice([(MANAGER_PATH, MANAGER_IFACE)]
                               + [(p, DEVICE_IFACE) for p in self.config['devices']]
                               + [(p, JOB_IFACE) for p in self.config['jobs']])

    def manager_call(self):
        # The start methods most: they take the most input.
        methods = sorted(self.spec[MANAGER_IFACE]['methods'])
        weights = [4 if m == 'StartBenchmark' else 3 if m == 'StartFilesystemBenchmark' else 1
                   for m in methods]
        member = self.rng.choices(methods, weights)[0]
        in_sig, out_sig = self.spec[MANAGER_IFACE]['methods'][member]
        kind, wrong_key = None, None
        if member in ('StartBenchmark', 'StartFilesystemBenchmark') and self.rng.random() < 0.5:
            targets = ('directory',) if member == 'StartFilesystemBenchmark' else ('device', 'device-write')
            kind, wrong_key = self.next_wrong_key(targets)
        if not kind:
            kind = self.kind()
        if member == 'StartBenchmark':
            target = self.rng.choice(self.config['devices']) if self.rng.random() < 0.7 else self.object_path()
            args = [dbus.ObjectPath(target), dbus.String(kind), self.options(kind, wrong_key)]
        elif member == 'StartFilesystemBenchmark':
            args = [self.fd(), dbus.String(kind), self.options(kind, wrong_key)]
        elif member == 'FindDevice':
            args = [dbus.String(self.string())]
        else:
            args = [self.value(t) for t in split_signature(in_sig)]
        return Call(MANAGER_PATH, MANAGER_IFACE, member, in_sig, args, fits=True, reply_sig=out_sig,
                    what=f'{MANAGER_IFACE}.{member}')

    def job_call(self):
        member = self.rng.choice(sorted(self.spec[JOB_IFACE]['methods']))
        in_sig, out_sig = self.spec[JOB_IFACE]['methods'][member]
        fixture = self.rng.random() < 0.6
        path = self.rng.choice(self.config['jobs']) if fixture else self.object_path()
        if member == 'Cancel':
            items = {}
            if self.rng.random() < 0.8:
                items['auth.no_user_interaction'] = self.tag(dbus.Boolean(True))
            if self.rng.random() < 0.3:
                items[self.string()] = self.variant(self.rng.choice(VARIANT_SIGNATURES))
            args = [dbus.Dictionary(items, signature='sv')]
        elif member in ('GetSamples', 'GetSampleRange'):
            args = [self.integer('t', self.rng.choice([0, 0, 1, 100, 199, 200, 201] + UNSIGNED_EXTREMES))]
            if member == 'GetSampleRange':
                args.append(self.integer('u', self.rng.choice([0, 1, 10, 262144, 262145] + UNSIGNED_EXTREMES)))
        else:
            args = [self.value(t) for t in split_signature(in_sig)]
        return Call(path, JOB_IFACE, member, in_sig, args, fits=fixture, reply_sig=out_sig,
                    what=f'{JOB_IFACE}.{member}')

    def property_call(self):
        path, iface = self.existing_object()
        props = self.spec[iface]['properties']
        r = self.rng.random()
        if r < 0.45:
            prop = self.rng.choice(sorted(props))
            return Call(path, PROPERTIES_IFACE, 'Get', 'ss', [iface, prop], fits=True, reply_sig='v',
                        what=f'{iface}.{prop}', prop_type=props[prop])
        if r < 0.6:
            return Call(path, PROPERTIES_IFACE, 'GetAll', 's', [iface], fits=True, reply_sig='a{sv}',
                        what=f'{iface}:GetAll', props=props)
        if r < 0.75:
            prop = self.rng.choice(sorted(props))
            value = self.variant(self.rng.choice(VARIANT_SIGNATURES[:12]))
            return Call(path, PROPERTIES_IFACE, 'Set', 'ssv', [iface, prop, value],
                        what=f'{iface}.{prop}:Set')
        # Wrong interface or property names, other objects.
        iface_name = self.rng.choice([iface, '', self.string(), MANAGER_IFACE, DEVICE_IFACE, JOB_IFACE,
                                      PROPERTIES_IFACE, 'org.freedesktop.UDisks2.Block'])
        if self.rng.random() < 0.5:
            return Call(self.object_path(), PROPERTIES_IFACE, 'GetAll', 's', [iface_name])
        return Call(self.object_path(), PROPERTIES_IFACE, 'Get', 'ss',
                    [iface_name, self.rng.choice(sorted(props) + [self.string()])])

    def standard_call(self):
        (iface, member), (in_sig, out_sig) = self.rng.choice(sorted(STANDARD_METHODS.items()))
        if iface == PROPERTIES_IFACE:
            return self.property_call()
        path, _ = self.existing_object()
        fits = iface != OBJECT_MANAGER_IFACE or path == MANAGER_PATH
        if self.rng.random() < 0.3:
            path, fits = self.object_path(), False
        return Call(path, iface, member, in_sig, [], fits=fits, reply_sig=out_sig if fits else None,
                    what=f'{iface}.{member}' if fits else None)

    def wrong_signature_call(self):
        iface = self.rng.choice([MANAGER_IFACE, JOB_IFACE, PROPERTIES_IFACE])
        if iface == PROPERTIES_IFACE:
            member = self.rng.choice(['Get', 'GetAll', 'Set'])
        else:
            member = self.rng.choice(sorted(self.spec[iface]['methods']))
        path = MANAGER_PATH if iface != JOB_IFACE else self.rng.choice(self.config['jobs'])
        sig = self.rng.choice(WRONG_SIGNATURES)
        return Call(path, iface, member, sig, [self.value(t) for t in split_signature(sig)])

    def wrong_target_call(self):
        r = self.rng.random()
        if r < 0.4:  # an API method on an object that does not have it
            iface = self.rng.choice([MANAGER_IFACE, JOB_IFACE])
            member = self.rng.choice(sorted(self.spec[iface]['methods']))
            in_sig = self.spec[iface]['methods'][member][0]
            return Call(self.object_path(), iface, member, in_sig,
                        [self.value(t) for t in split_signature(in_sig)])
        if r < 0.6:  # no interface at all: sd-bus looks the member up by name
            iface = self.rng.choice([MANAGER_IFACE, JOB_IFACE])
            member = self.rng.choice(sorted(self.spec[iface]['methods']))
            in_sig = self.spec[iface]['methods'][member][0]
            path = MANAGER_PATH if iface == MANAGER_IFACE else self.rng.choice(self.config['jobs'])
            return Call(path, None, member, in_sig, [self.value(t) for t in split_signature(in_sig)])
        # Members and interfaces that do not exist (valid names only: the
        # library refuses to send others).
        iface = self.rng.choice([MANAGER_IFACE, DEVICE_IFACE, JOB_IFACE, 'org.diskbench.DiskBench1',
                                 'org.diskbench.DiskBench1.Nope', 'org.freedesktop.DBus.Debug.Stats'])
        member = self.rng.choice(['Nope', 'Start', 'StartBenchmarks', 'cancel', 'Get', 'Delete',
                                  'Samples', 'Completed', 'A' * 255])
        sig = self.rng.choice(['', 's', 'a{sv}'])
        return Call(self.object_path(), iface, member, sig, [self.value(t) for t in split_signature(sig)])

    CATEGORIES = [(0.34, 'manager_call'), (0.16, 'job_call'), (0.22, 'property_call'),
                  (0.08, 'standard_call'), (0.10, 'wrong_signature_call'), (0.10, 'wrong_target_call')]

    def next_call(self):
        r = self.rng.random()
        for weight, name in self.CATEGORIES:
            if r < weight:
                return getattr(self, name)()
            r -= weight
        return self.manager_call()

    # ---- sending and judging ----------------------------------------------

    def message(self, call):
        msg = dbus.lowlevel.MethodCallMessage(BUS_NAME, call.path, call.iface, call.member)
        if call.sig:
            msg.append(*call.args, signature=call.sig)
        return msg

    def send(self, call, index):
        try:
            msg = self.message(call)
        except (TypeError, ValueError, OverflowError, dbus.exceptions.DBusException) as e:
            # Refused by dbus-python before sending: no call was made.
            self.errors['(not sent: ' + type(e).__name__ + ')'] = \
                self.errors.get('(not sent: ' + type(e).__name__ + ')', 0) + 1
            return
        start = time.monotonic()
        try:
            reply = self.bus.send_message_with_reply_and_block(msg, 60.0)
        except dbus.exceptions.DBusException as e:
            self.judge_error(call, index, e.get_dbus_name(), e.get_dbus_message() or '')
        else:
            self.judge_reply(call, index, reply)
        took = time.monotonic() - start
        if took > 10:
            self.slow.append(f'#{index} took {took:.1f} s: {call.describe()}')
        if call.what:
            self.coverage[call.what] = self.coverage.get(call.what, 0) + 1

    def flag(self, index, call, text):
        if len(self.unexpected) < 50:
            self.unexpected.append(f'call #{index}: {text}; call: {call.describe()}')
        else:
            self.unexpected.append('...')
            del self.unexpected[50:-1]

    def judge_error(self, call, index, name, message):
        self.errors[name] = self.errors.get(name, 0) + 1
        if name in NAMED_ERRORS:
            pass
        elif name == INCONSISTENT_MESSAGE and has_noncharacter(call.args):
            pass
        elif name in PROTOCOL_ERRORS:
            if call.fits:
                self.flag(index, call, f'{name} for a call that fits the API ({message})')
        else:
            self.flag(index, call, f'error {name}: {message}')
        if any(marker in message for marker in INTERNALS):
            self.flag(index, call, f'{name} looks like an escaped C++ exception: {message}')
        if name == ERROR_PREFIX + 'Failed':
            key = message[:120]
            if len(self.failed_messages) < 40 or key in self.failed_messages:
                self.failed_messages[key] = self.failed_messages.get(key, 0) + 1

    def judge_reply(self, call, index, reply):
        self.replies += 1
        sig = reply.get_signature()
        if call.reply_sig is not None and sig != call.reply_sig:
            self.flag(index, call, f'reply signature {sig!r}, the API says {call.reply_sig!r}')
            return
        args = reply.get_args_list()
        if call.prop_type is not None:
            got = signature_of(args[0])
            if got != call.prop_type:
                self.flag(index, call, f'property of type {got}, the XML says {call.prop_type}')
        if call.props is not None:
            values = args[0]
            if set(values) != set(call.props):
                self.flag(index, call, f'GetAll gave {sorted(values)}, the XML says {sorted(call.props)}')
            for name, value in values.items():
                if name in call.props and signature_of(value) != call.props[name]:
                    self.flag(index, call, f'{name} of type {signature_of(value)}, the XML says '
                                           f'{call.props[name]}')
        if call.member in ('StartBenchmark', 'StartFilesystemBenchmark') and call.iface == MANAGER_IFACE:
            self.own_jobs.append(str(args[0]))
            self.jobs_started += 1
            self.cancel_extra_jobs()

    def cancel(self, job):
        msg = dbus.lowlevel.MethodCallMessage(BUS_NAME, job, JOB_IFACE, 'Cancel')
        msg.append(dbus.Dictionary({}, signature='sv'), signature='a{sv}')
        try:
            self.bus.send_message_with_reply_and_block(msg, 60.0)
        except dbus.exceptions.DBusException as e:
            # Failed: it has ended already; UnknownObject: and is gone.
            if e.get_dbus_name() not in (ERROR_PREFIX + 'Failed', 'org.freedesktop.DBus.Error.UnknownObject'):
                self.unexpected.append(f'cancelling own job {job}: {e.get_dbus_name()}: {e.get_dbus_message()}')

    def cancel_extra_jobs(self):
        """Keeps at most two of our jobs running: the fuzz is about the
        calls, not about benchmarks competing for two CPUs."""
        while len(self.own_jobs) > 2:
            self.cancel(self.own_jobs.pop(0))

    def daemon_owner(self):
        """The daemon's unique name, or what the bus said instead."""
        try:
            return str(self.bus.call_blocking('org.freedesktop.DBus', '/org/freedesktop/DBus',
                                              'org.freedesktop.DBus', 'GetNameOwner', 's', (BUS_NAME,)))
        except dbus.exceptions.DBusException as e:
            return f'(none: {e.get_dbus_name()})'

    def summary(self, count, seconds):
        return {
            'seed': self.seed, 'stream': self.config['stream'], 'calls': count,
            'seconds': round(seconds, 1), 'replies': self.replies, 'errors': self.errors,
            'jobs_started': self.jobs_started,
            'unexpected': self.unexpected, 'coverage': self.coverage,
            'wrong_type_keys': sorted(self.wrong_type_keys), 'fd_labels': self.fd_labels_used,
            'fd_opened': [label for label, _ in self.fds],
            'failed_messages': self.failed_messages, 'slow': self.slow,
            'benchmarks': {k: sorted(v['params']) for k, v in self.benchmarks.items()},
        }

    def vanishing_caller(self, index):
        """A start request from a connection that closes before the answer."""
        call = self.manager_call()
        try:
            msg = self.message(call)
        except (TypeError, ValueError, OverflowError, dbus.exceptions.DBusException):
            return
        conn = dbus.bus.BusConnection(os.environ['DBUS_SYSTEM_BUS_ADDRESS'])
        try:
            conn.send_message(msg)
            conn.flush()
        finally:
            conn.close()
        self.coverage['(caller gone before the reply)'] = self.coverage.get('(caller gone before the reply)', 0) + 1

    def load_benchmarks(self):
        reply = self.bus.call_blocking(BUS_NAME, MANAGER_PATH, MANAGER_IFACE, 'ListBenchmarks', '', ())
        self.benchmarks = {str(kind): {'target': str(target),
                                       'params': {str(p[0]): str(p[1]) for p in params}}
                           for kind, target, _title, _desc, params in reply}
        self.coverage[f'{MANAGER_IFACE}.ListBenchmarks'] = 1

    def run(self):
        count = self.config['calls']
        started = time.monotonic()
        if self.owner.startswith('(none'):
            self.unexpected.append(f'the daemon is not on the bus at the start: {self.owner}')
            return self.summary(0, 0)
        try:
            self.load_benchmarks()
        except dbus.exceptions.DBusException as e:
            self.unexpected.append(f'ListBenchmarks failed: {e.get_dbus_name()}: {e.get_dbus_message()}')
            return self.summary(0, 0)
        for index in range(count):
            if self.rng.random() < 0.005:
                self.vanishing_caller(index)
            else:
                self.send(self.next_call(), index)
            if index % 250 == 249 or index == count - 1:
                owner = self.daemon_owner()
                if owner != self.owner:
                    self.unexpected.append(f'after call #{index} the daemon is {owner}, was {self.owner}: '
                                           'it died or restarted')
                    break
            if index % 5000 == 4999:
                print(json.dumps({'progress': index + 1, 'seconds': round(time.monotonic() - started, 1),
                                  'unexpected': len(self.unexpected)}), flush=True)
        seconds = time.monotonic() - started
        for job in self.own_jobs:
            self.cancel(job)
        return self.summary(count, seconds)


def main():
    with open(sys.argv[1]) as f:
        config = json.load(f)
    fuzzer = Fuzzer(config)
    summary = fuzzer.run()
    print(json.dumps({'summary': summary}), flush=True)


if __name__ == '__main__':
    main()
