# SPDX-License-Identifier: GPL-3.0-or-later
"""A mock udisks drive with a SMART temperature over a real loop device, and
a real slowdown planted in a sustained write on it.

No drive here has a sensor (loop devices have none, and the VM's own disk
must not be touched), so python3-dbusmock plays org.freedesktop.UDisks2
(a Stack started with udisks='mock'): it exports Block objects for real
loop devices (so sysfs facts and the benchmark itself are real) pointing at
mock Drive objects, with a Drive.Ata SmartTemperature where the drive has a
sensor. Changing that value is the drive warming up.

The slowdown is real: 8 threads writing with O_DIRECT over the same device
(compete()), started when the write is half done, so the daemon sees the
speed fall and has to tell thermal throttling (drive hot before the drop)
from a cache cliff (drive cool).

Used by tests/integration/test_drive_temperature.py,
tests/integration/test_drive_properties.py and
tests/gui/test_gui_temperature.py.
"""

import contextlib
import mmap
import os
import threading
import time

from bus_names import DEVICE_IFACE, JOB_IFACE, UDISKS_NAME
from cleanup import wait_until

UDISKS_PATH = '/org/freedesktop/UDisks2'
MOCK_IFACE = 'org.freedesktop.DBus.Mock'
ATA_IFACE = 'org.freedesktop.UDisks2.Drive.Ata'
KELVIN = 273.15

# The planted slowdown's sustained write: 32 MiB over and over for 10 s,
# in windows of 0.25 s, so that the drop from the middle on shows clearly.
SUSTAINED_WRITE_SIZE = 32 * 1024 * 1024
COMPETING_WRITERS = 8


def nul_bytes(text):
    return list(text.encode()) + [0]


def drive_properties(name, props, size):
    """A complete udisks2 Drive interface, as udisksd 2.9 exports it."""
    base = {
        'Id': ('s', name), 'Configuration': ('a{sv}', {}), 'Media': ('s', ''),
        'MediaCompatibility': ('as', []), 'MediaAvailable': ('b', True),
        'MediaChangeDetected': ('b', True), 'Size': ('t', size), 'TimeDetected': ('t', 0),
        'TimeMediaDetected': ('t', 0), 'Optical': ('b', False), 'OpticalBlank': ('b', False),
        'OpticalNumTracks': ('u', 0), 'OpticalNumAudioTracks': ('u', 0),
        'OpticalNumDataTracks': ('u', 0), 'OpticalNumSessions': ('u', 0), 'Seat': ('s', 'seat0'),
        'Ejectable': ('b', False), 'SortKey': ('s', name), 'CanPowerOff': ('b', False),
        'SiblingId': ('s', ''),
    }
    base.update(props)
    return base


def block_properties(loop, drive_path, symlinks=()):
    """A udisks2 Block interface like udisksd's for a whole disk; SYMLINKS:
    the udev links to it ("/dev/disk/by-id/ata-…"), none by default."""
    return {
        'Device': ('ay', nul_bytes(loop.node)),
        'PreferredDevice': ('ay', nul_bytes(loop.node)),
        'Symlinks': ('aay', [nul_bytes(link) for link in symlinks]),
        'DeviceNumber': ('t', os.stat(loop.node).st_rdev),
        'Id': ('s', ''), 'Size': ('t', loop.size), 'ReadOnly': ('b', False),
        'Drive': ('o', drive_path), 'MDRaid': ('o', '/'), 'MDRaidMember': ('o', '/'),
        'IdUsage': ('s', ''), 'IdType': ('s', ''), 'IdVersion': ('s', ''), 'IdLabel': ('s', ''),
        'IdUUID': ('s', ''), 'Configuration': ('a(sa{sv})', []),
        'CryptoBackingDevice': ('o', '/'), 'HintPartitionable': ('b', True),
        'HintSystem': ('b', True), 'HintIgnore': ('b', False), 'HintAuto': ('b', False),
        'HintName': ('s', ''), 'HintIconName': ('s', ''), 'HintSymbolicIconName': ('s', ''),
        'UserspaceMountOptions': ('as', []),
    }


def ata_properties(celsius):
    """The Drive.Ata properties the daemon reads, as udisksd 2.9 names them."""
    return {
        'SmartSupported': ('b', True), 'SmartEnabled': ('b', True),
        'SmartUpdated': ('t', int(time.time())), 'SmartFailing': ('b', False),
        'SmartPowerOnSeconds': ('t', 3600), 'SmartTemperature': ('d', celsius + KELVIN),
        'SmartNumAttributesFailing': ('i', 0), 'SmartNumAttributesFailedInThePast': ('i', 0),
        'SmartNumBadSectors': ('x', 0), 'SmartSelftestStatus': ('s', 'success'),
        'SmartSelftestPercentRemaining': ('i', 0),
    }


def add_mock_object(stack, path, iface, props):
    """Exports PATH with IFACE's PROPS from the mock udisks of STACK."""
    stack.call(UDISKS_PATH, MOCK_IFACE, 'AddObject', 'ssa{sv}a(ssss)',
               path, iface, props, [], dest=UDISKS_NAME)


def add_mock_manager(stack):
    """The udisks Manager object, as udisksd 2.9.4 has it."""
    add_mock_object(stack, f'{UDISKS_PATH}/Manager', 'org.freedesktop.UDisks2.Manager',
                    {'Version': ('s', '2.9.4'), 'SupportedFilesystems': ('as', []),
                     'SupportedEncryptionTypes': ('as', []),
                     'DefaultEncryptionType': ('s', '')})


class MockDrive:
    """A mock Drive NAME holding the real LOOP (its Block object points at
    it), with a SMART temperature of CELSIUS (None: no sensor). The Model is
    NAME, the Serial its last 7 characters."""

    def __init__(self, stack, loop, name, celsius=None):
        self.stack = stack
        self.loop = loop
        self.path = f'{UDISKS_PATH}/drives/{name}'
        add_mock_object(stack, self.path, 'org.freedesktop.UDisks2.Drive',
                        drive_properties(name, {'Model': ('s', name), 'Serial': ('s', name[-7:])},
                                         loop.size))
        if celsius is not None:
            stack.call(self.path, MOCK_IFACE, 'AddProperties', 'sa{sv}', ATA_IFACE,
                       ata_properties(celsius), dest=UDISKS_NAME)
        add_mock_object(stack, loop.udisks_path, 'org.freedesktop.UDisks2.Block',
                        block_properties(loop, self.path))

    def set_smart_attributes(self, counts, updated):
        """Drive.Ata.SmartGetAttributes answers with COUNTS ({id: raw
        count}) from now on, as udisksd 2.9 does (libatasmart's pretty value
        is the count for these), and SmartUpdated becomes UPDATED: udisks
        read the drive again."""
        rows = [(i, f'attribute-{i}', 0x33, 100, 100, 10, count, 1, {}) for i, count in sorted(counts.items())]
        code = 'ret = ' + repr([(dbus_row) for dbus_row in rows])
        self.stack.call(self.path, MOCK_IFACE, 'AddMethod', 'sssss', ATA_IFACE, 'SmartGetAttributes', 'a{sv}',
                        'a(ysqiiixia{sv})', code, dest=UDISKS_NAME)
        self.stack.call(self.path, MOCK_IFACE, 'UpdateProperties', 'sa{sv}', ATA_IFACE,
                        {'SmartUpdated': ('t', updated)}, dest=UDISKS_NAME)

    def device_temperature(self):
        """The daemon's Device.Temperature of the loop device."""
        return self.stack.get_property(self.loop.object_path, DEVICE_IFACE, 'Temperature')

    def set_temperature(self, celsius, wait=True):
        """The drive's SMART temperature becomes CELSIUS; with WAIT, returns
        once the daemon has followed (its Device.Temperature says so)."""
        self.stack.call(self.path, MOCK_IFACE, 'UpdateProperties', 'sa{sv}', ATA_IFACE,
                        {'SmartTemperature': ('d', celsius + KELVIN)}, dest=UDISKS_NAME)
        if wait:
            wait_until(lambda: abs(self.device_temperature() - celsius) < 1e-6, 10,
                       what=f'Temperature at {celsius} °C')


def compete(node, n, stop):
    """Writes 1 MiB blocks with O_DIRECT over the first 32 MiB of NODE until
    STOP: another program's load on the device (the GIL is released in
    pwrite, so 8 of these are 8 writers)."""
    fd = os.open(node, os.O_WRONLY | os.O_DIRECT)
    buffer = mmap.mmap(-1, 1 << 20)  # page-aligned, as O_DIRECT needs
    try:
        offset = n * (4 << 20)
        while not stop.is_set():
            os.pwrite(fd, buffer, offset)
            offset = (offset + (7 << 20)) % (31 << 20)
    finally:
        buffer.close()
        os.close(fd)


@contextlib.contextmanager
def competing_writers(node, count=COMPETING_WRITERS):
    """COUNT threads of compete() on NODE for the duration of the block."""
    stop = threading.Event()
    writers = [threading.Thread(target=compete, args=(node, n, stop)) for n in range(count)]
    for writer in writers:
        writer.start()
    try:
        yield
    finally:
        stop.set()
        for writer in writers:
            writer.join(30)


def wait_job_state(stack, job, states=('finished', 'cancelled', 'failed'), timeout=60):
    return wait_until(lambda: (s := stack.get_property(job, JOB_IFACE, 'State')) in states and s,
                      timeout, what=f'{job} to reach {states}')


def job_has_read(stack, job, celsius):
    """Whether JOB's temperature series has a reading of CELSIUS or more."""
    names = [series[0] for series in stack.get_property(job, JOB_IFACE, 'Series')]
    if 'temperature' not in names:
        return False
    index = names.index('temperature')
    _next, samples = stack.call(job, JOB_IFACE, 'GetSamples', 't', 0)
    return any(series == index and y >= celsius for series, _x, y in samples)


def sustained_write_with_planted_drop(drive, hot_at_drop, serial, on_started=None):
    """A sustained write (as root) on DRIVE (a MockDrive with a sensor) at
    45 °C, with real competing writes from the middle on: the same real
    slowdown either way; with HOT_AT_DROP the drive is at 76 °C before the
    slowdown starts. SERIAL confirms the destructive write. ON_STARTED(job)
    is called as soon as the job exists (to follow it). Returns (job, its
    final state)."""
    stack = drive.stack
    drive.set_temperature(45.0)
    job = stack.start_benchmark(drive.loop, 'sustained-write', {
        'mode': ('s', 'destroy'), 'confirm': ('s', serial), 'size': ('t', SUSTAINED_WRITE_SIZE),
        'block_size': ('t', 1024 * 1024), 'queue_depth': ('t', 2), 'duration_s': ('d', 10.0),
        'window_s': ('d', 0.25), 'detach': ('b', True)}, user='root')
    if on_started:
        on_started(job)
    wait_until(lambda: stack.get_property(job, JOB_IFACE, 'Progress') >= 0.5, 30,
               what='the write half done')
    if hot_at_drop:
        # The drive is hot before the slowdown starts: wait until the
        # job has read 76 °C (its temperature series says so), or on a
        # slow, sanitized build the drop can begin while its last reading
        # still says 45 °C (a second's sleep here was not enough in CI).
        drive.set_temperature(76.0)
        wait_until(lambda: job_has_read(stack, job, 76.0), 30, what=f'{job} to read 76 °C')
    with competing_writers(drive.loop.node):
        state = wait_job_state(stack, job)
    return job, state
