# SPDX-License-Identifier: GPL-3.0-or-later
"""The real client under Xvfb against the real daemon: a GUI test stack.

Builds on the Stack of devtools/stack (stack.py: private
system bus, real polkitd with test rules, udevd + udisksd, diskbenchd
activated from the build tree, test users, loop devices) and adds, each
recorded in the Stack's undo log so that teardown (also after SIGTERM, and
after a SIGKILL by the next run) ends exactly what was started here:

  * Xvfb on a free display :N (-ac, so the non-root app may connect without
    an Xauthority file; -nolisten tcp), run as root;
  * a session dbus-daemon run as the app's user (dbtest-in), with no service
    directories (nothing is activated behind the test's back);
  * the app as that user, with GDK_BACKEND=x11 GSK_RENDERER=cairo
    GTK_A11Y=none, DISPLAY, DBUS_SYSTEM_BUS_ADDRESS (the private system bus),
    DBUS_SESSION_BUS_ADDRESS (the session bus above) and HOME/XDG_* under a
    directory owned by that user (results it saves go there); its stdout and
    stderr go to a log that is printed when a test fails.

The app is driven through its application actions, which GtkApplication
exports on the session bus (org.gtk.Actions at /org/diskbench/DiskBench):
activate_action(), describe_action(), status(). screenshot() captures the
screen with ImageMagick's import; read_png() and count_colour() decode a PNG
with zlib alone.

Used by tests/gui/test_gui.py (GuiTestCase, main()). The session helpers
(start_xvfb, start_session_bus, spawn, run_as) live in
devtools/stack/gui_session.py, which the demo uses too.

Standard library only, except describe_action(), which parses GVariant text
with python3-gi (a prerequisite of the integration tests anyway).
"""

import json
import os
import pwd
import re
import shlex
import struct
import subprocess
import sys
import time
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
# The stack code (devtools/stack) and the integration tests' harness.
for _path in (os.path.join(os.path.dirname(os.path.dirname(HERE)), 'devtools', 'stack'),
              os.path.join(os.path.dirname(HERE), 'integration')):
    if _path not in sys.path:
        sys.path.insert(0, _path)

from bus_names import BUS_NAME, MANAGER_PATH  # noqa: E402
from cleanup import (PHASE_CLIENTS, PHASE_SERVICES, kill_pid, log,  # noqa: E402
                     proc_starttime, wait_until)
from stack import CONFIG, PrerequisiteMissing, Stack  # noqa: E402
from daemon_checks import SANITIZER_VARIABLES  # noqa: E402
from gui_session import (ACTIONS_IFACE, APP_ACTIONS, APP_ID, APP_OBJECT, DEFAULT_SCREEN,  # noqa: E402
                         GUI_ENV, GUI_TOOLS, SAFE_PATH, STATUS_STATES, Process, _read,
                         check_gui_prerequisites, gvariant_string, parse_gvariant, run_as,
                         screenshot, spawn, start_session_bus, start_xvfb, stop_process,
                         user_dir, user_kwargs, x_window_names)

# The accessibility tests: the tree reader run as the app's user, the name
# the app has on the accessibility bus (its program name), and what the app
# needs to speak AT-SPI (GUI_ENV turns it off for every other test).
ATSPI_TREE = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'atspi_tree.py')
APP_NAME = 'diskbench'
ACCESSIBLE_APP_ENV = {'GTK_A11Y': 'atspi'}

# The colours of the current series in the app's graphs (GNOME blue 4 and 3).
SERIES_COLOURS = ((0x1c, 0x71, 0xd8), (0x35, 0x84, 0xe4))
# A graph is drawn when more series pixels than this show outside solid blocks.
MIN_SERIES_PIXELS = 50
MiB = 1024 * 1024

# ---- PNG without modules ------------------------------------------------------

def settle(seconds):
    """Waits for the app to finish what a key started where it has no state
    to wait on (where the keyboard focus went), longer under the sanitizers'
    slowdown (DISKBENCH_TEST_TIMEOUT_MULTIPLIER, 3 in the sanitize setup)."""
    time.sleep(seconds * float(os.environ.get('DISKBENCH_TEST_TIMEOUT_MULTIPLIER', '1')))


def png_size(path):
    """(width, height) from a PNG's IHDR; raises ValueError if it is no PNG."""
    with open(path, 'rb') as f:
        head = f.read(33)
    if head[:8] != b'\x89PNG\r\n\x1a\n' or head[12:16] != b'IHDR':
        raise ValueError(f'{path} is not a PNG file')
    return struct.unpack('>II', head[16:24])


def read_png(path):
    """Decodes a non-interlaced PNG; returns (width, height, rgb bytes, 3 per pixel)."""
    with open(path, 'rb') as f:
        data = f.read()
    if data[:8] != b'\x89PNG\r\n\x1a\n':
        raise ValueError(f'{path} is not a PNG file')
    pos, idat, palette, ihdr = 8, [], None, None
    while pos < len(data):
        length, ctype = struct.unpack('>I4s', data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if ctype == b'IHDR':
            ihdr = struct.unpack('>IIBBBBB', chunk)
        elif ctype == b'PLTE':
            palette = chunk
        elif ctype == b'IDAT':
            idat.append(chunk)
        elif ctype == b'IEND':
            break
    width, height, depth, colour, _comp, _filt, interlace = ihdr
    if interlace:
        raise ValueError('interlaced PNG not supported')
    channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[colour]
    bits = depth * channels
    bpp = max(1, bits // 8)           # filter unit in bytes
    stride = (width * bits + 7) // 8
    raw = zlib.decompress(b''.join(idat))
    rows, prev = [], bytearray(stride)
    for y in range(height):
        ftype = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        _unfilter(ftype, line, prev, bpp)
        rows.append(line)
        prev = line
    rgb = bytearray()
    for line in rows:
        rgb += _to_rgb(line, width, depth, colour, palette)
    return width, height, bytes(rgb)


def _unfilter(ftype, line, prev, bpp):
    n = len(line)
    if ftype == 0:
        return
    if ftype == 1:
        for i in range(bpp, n):
            line[i] = (line[i] + line[i - bpp]) & 0xff
    elif ftype == 2:
        line[:] = bytes((a + b) & 0xff for a, b in zip(line, prev))
    elif ftype == 3:
        for i in range(n):
            left = line[i - bpp] if i >= bpp else 0
            line[i] = (line[i] + ((left + prev[i]) >> 1)) & 0xff
    elif ftype == 4:
        for i in range(n):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
            line[i] = (line[i] + pred) & 0xff
    else:
        raise ValueError(f'bad PNG filter type {ftype}')


def _to_rgb(line, width, depth, colour, palette):
    if depth == 16:  # keep the high bytes
        line = line[0::2]
        depth = 8
    if depth < 8:    # unpack 1/2/4-bit samples (grey or palette)
        per = 8 // depth
        mask = (1 << depth) - 1
        samples = bytearray()
        for byte in line:
            for k in range(per):
                samples.append((byte >> (8 - depth * (k + 1))) & mask)
        line = samples[:width]
        if colour == 0:
            scale = 255 // mask
            line = bytearray(v * scale for v in line)
    if colour == 2:
        return bytes(line[:width * 3])
    if colour == 6:
        out = bytearray(width * 3)
        out[0::3], out[1::3], out[2::3] = line[0::4], line[1::4], line[2::4]
        return out
    if colour == 3:
        return b''.join(palette[3 * i:3 * i + 3] for i in line[:width])
    if colour == 0:
        return bytes(v for v in line[:width] for _ in range(3))
    if colour == 4:
        grey = line[0::2]
        return bytes(v for v in grey[:width] for _ in range(3))
    raise ValueError(f'PNG colour type {colour} not supported')


def count_colour(path, colours=SERIES_COLOURS, tolerance=12):
    """Pixels of PATH (a PNG) within TOLERANCE per channel of one of COLOURS."""
    _w, _h, rgb = read_png(path)
    counts = {}
    for px in zip(rgb[0::3], rgb[1::3], rgb[2::3]):
        counts[px] = counts.get(px, 0) + 1
    return sum(n for px, n in counts.items()
               if any(all(abs(a - b) <= tolerance for a, b in zip(px, c)) for c in colours))


def series_pixels(path, colours=SERIES_COLOURS, tolerance=12, solid_area=40, solid_fill=0.85):
    """Like count_colour, but without solid blocks: connected areas of the colours
    (8-neighbours) of at least SOLID_AREA pixels that fill at least SOLID_FILL of
    their bounding box are widgets (a suggested button, a progress bar, a legend
    swatch, a selection), not a graph. Dots, lines and scattered clouds remain."""
    width, _h, rgb = read_png(path)
    match = {}
    for px in set(zip(rgb[0::3], rgb[1::3], rgb[2::3])):
        match[px] = any(all(abs(a - b) <= tolerance for a, b in zip(px, c)) for c in colours)
    pixels = set()
    for i, px in enumerate(zip(rgb[0::3], rgb[1::3], rgb[2::3])):
        if match[px]:
            pixels.add(divmod(i, width))
    total = 0
    while pixels:
        seed = pixels.pop()
        stack, area = [seed], 0
        y0 = y1 = seed[0]
        x0 = x1 = seed[1]
        while stack:
            y, x = stack.pop()
            area += 1
            y0, y1, x0, x1 = min(y0, y), max(y1, y), min(x0, x), max(x1, x)
            for dy in (-1, 0, 1):
                for dx in (-1, 0, 1):
                    n = (y + dy, x + dx)
                    if n in pixels:
                        pixels.remove(n)
                        stack.append(n)
        box = (y1 - y0 + 1) * (x1 - x0 + 1)
        if not (area >= solid_area and area >= solid_fill * box):
            total += area
    return total


# ---- the warnings card ----------------------------------------------------------

# libadwaita's warning colour (light): the card's dialog-warning icon.
# GLib's own lines for g_warning() and g_critical(), of the app, GTK or GLib.
GLIB_COMPLAINT = re.compile(r'^(?:\*\* )?\(diskbench:\d+\): (?:[\w-]+-)?(?:CRITICAL|WARNING) \*\*')


# GTK 4.8's word on the display rather than on the app: under Xvfb with no
# window manager, xdotool moving the keyboard focus away from a window
# whose entry has it sends no FocusOut, and GtkText says so (gtktext.c,
# "did not receive a focus-out event"). A desktop's window manager always
# sends one.
NOT_THE_APPS = ('GtkText - did not receive a focus-out event.',)


def glib_complaints(output, expected=()):
    """The lines of OUTPUT that are GLib warnings or criticals, but those
    an EXPECTED regular expression matches (a test's own doing)."""
    return [line for line in output.splitlines()
            if GLIB_COMPLAINT.match(line) and not any(line.endswith(text) for text in NOT_THE_APPS)
            and not any(pattern.search(line) for pattern in expected)]


WARNING_ICON_COLOURS = ((0x9c, 0x6e, 0x03),)
CARD_WHITE = (0xff, 0xff, 0xff)
PAGE_BACKGROUND = (0xfa, 0xfa, 0xfa)
# The device sidebar and the page list end here on the 1280-pixel screen;
# the page is right of them.
PAGE_LEFT = 500


class CardNotFound(AssertionError):
    pass


def read_pixels(path):
    """(width, height, pixel) of the PNG at PATH; pixel(x, y) is an RGB tuple."""
    width, height, rgb = read_png(path)

    def pixel(x, y):
        i = (y * width + x) * 3
        return tuple(rgb[i:i + 3])
    return width, height, pixel


def warnings_card(path, tolerance=12, max_icon=24):
    """The warnings card of the benchmark page in the screenshot PATH: its
    topmost warning icon (the warnings card comes before the consent card)
    and the run of pure white (#ffffff: the card fully faded in) in the
    column just left of that icon, which is the card's inside from its top
    edge to its bottom edge.

    Returns a dict: icon (x0, y0, x1, y1), top and bottom (the first and last
    white row), above and below (the 3 rows beyond the white in that column,
    as RGB tuples), header_bottom (the page header's last row with ink). Raises CardNotFound when there is no icon or no white
    around it (not drawn yet, or still fading in)."""
    width, height, pixel = read_pixels(path)

    def is_icon(px):
        return any(all(abs(a - b) <= tolerance for a, b in zip(px, c)) for c in WARNING_ICON_COLOURS)

    first = None
    for y in range(height):
        for x in range(PAGE_LEFT, width):
            if is_icon(pixel(x, y)):
                first = (x, y)
                break
        if first:
            break
    if first is None:
        raise CardNotFound(f'no warning icon in {path}')
    # The triangle's apex is its topmost pixel, in the middle of the icon.
    icon = [(x, y) for y in range(first[1], min(height, first[1] + max_icon))
            for x in range(max(0, first[0] - max_icon // 2), min(width, first[0] + max_icon // 2 + 1))
            if is_icon(pixel(x, y))]
    x0, x1 = min(x for x, _ in icon), max(x for x, _ in icon)
    y0, y1 = min(y for _, y in icon), max(y for _, y in icon)
    # Left of the icon, inside the card's padding, clear of its rounded corners.
    column = x0 - 3
    centre = (y0 + y1) // 2
    if pixel(column, centre) != CARD_WHITE:
        raise CardNotFound(f'{path}: ({column}, {centre}) left of the warning icon at {(x0, y0, x1, y1)} '
                           f'is {pixel(column, centre)}, not the card\'s white')
    top = centre
    while top > 0 and pixel(column, top - 1) == CARD_WHITE:
        top -= 1
    bottom = centre
    while bottom < height - 1 and pixel(column, bottom + 1) == CARD_WHITE:
        bottom += 1
    # The page header above: its subtitle is the lowest dark text above the
    # card (looked for only near the card's left edge: right of the window
    # the screen is black).
    header_bottom = next((y for y in range(top - 1, -1, -1)
                          if any(max(pixel(x, y)) < 0xb0 for x in range(PAGE_LEFT, column + 300))), -1)
    return {'icon': (x0, y0, x1, y1), 'column': column, 'top': top, 'bottom': bottom,
            'header_bottom': header_bottom,
            'above': [pixel(column, y) for y in range(max(0, top - 3), top)],
            'below': [pixel(column, y) for y in range(bottom + 1, min(height, bottom + 4))]}


def warnings_card_problems(card, centre_tolerance=3):
    """What is wrong with CARD (warnings_card()) as drawn; [] when it is whole:
    the icon (valign-centred in the card) in the middle of the white, an edge
    (outline or shadow, darker than the page) right above and below the
    white, and all of it below the page header.
    A card cut at the top by its revealer has its icon high in what is left
    of it, and white running straight into the page background."""
    x0, y0, x1, y1 = card['icon']
    problems = []
    icon_centre = (y0 + y1) / 2
    white_centre = (card['top'] + card['bottom']) / 2
    if abs(icon_centre - white_centre) > centre_tolerance:
        problems.append(f'the icon (rows {y0}-{y1}, centre {icon_centre}) is not centred in the card\'s '
                        f'white (rows {card["top"]}-{card["bottom"]}, centre {white_centre})')

    def edge(pixels):
        return any(px != CARD_WHITE and max(px) < min(PAGE_BACKGROUND) for px in pixels)
    if not edge(card['above']):
        problems.append(f'no border above the card: the rows above its white are {card["above"]}')
    if not edge(card['below']):
        problems.append(f'no border below the card: the rows below its white are {card["below"]}')
    if card['top'] - len(card['above']) <= card['header_bottom']:
        problems.append(f'the card (from row {card["top"]}) reaches into the page header '
                        f'(down to row {card["header_bottom"]})')
    return problems


def header_and_chart(path, left=PAGE_LEFT + 40, right=1100, top=60):
    """(header_bottom, frame_top) of the benchmark page in the screenshot
    PATH: the lowest row of the page header's text (dark ink) and the chart
    frame's top edge (the first row below the title bar that differs from
    the page background across nearly the whole page width; no text line
    does). On a page without messages nothing lies between the two but the
    page's margins."""
    width, height, pixel = read_pixels(path)
    span = range(left, min(right, width))
    frame_top = next((y for y in range(top, height)
                      if sum(pixel(x, y) != PAGE_BACKGROUND for x in span) >= 0.9 * len(span)), None)
    if frame_top is None:
        raise AssertionError(f'no chart frame in {path}')
    header_bottom = next((y for y in range(frame_top - 1, top, -1)
                          if any(max(pixel(x, y)) < 0xb0 for x in span)), None)
    if header_bottom is None:
        raise AssertionError(f'no page header above the chart frame (row {frame_top}) in {path}')
    return header_bottom, frame_top


# ---- the GUI stack -----------------------------------------------------------

class ActionError(Exception):
    pass


class GuiStack:
    """Stack + Xvfb + a session bus + the app as USER; see the module doc."""

    def __init__(self, app_argv, user='dbtest-in', loop_size=256 * 1024 * 1024,
                 screen=DEFAULT_SCREEN, stack_options=None):
        self.app_argv = list(app_argv)
        self.user = user
        self.loop_size = loop_size
        self.screen = screen
        self.stack = Stack(**(stack_options or {}))
        self.loop = None
        self.display = None
        self.xvfb = None
        self.session_address = None
        self.session_bus = None
        self.app = None
        self.home = None
        self.runtime_dir = None

    # ---- lifecycle ----

    def start(self):
        check_gui_prerequisites()
        self.stack.start()
        if self.loop_size:
            self.loop = self.stack.attach_loop(size=self.loop_size)
        gui = self.stack.path('gui')
        os.mkdir(gui)
        os.chmod(gui, 0o755)
        self.home = user_dir(os.path.join(gui, 'home'), self.user)
        self.runtime_dir = user_dir(os.path.join(gui, 'runtime'), self.user)
        self.display, self.xvfb = start_xvfb(self.stack, self.screen)
        self.session_address, self.session_bus = start_session_bus(
            self.stack, self.user, self.runtime_dir)
        return self

    def stop(self):
        """Ends the app, Xvfb, the session bus and the Stack; returns the problems."""
        if self.app:
            stop_process(self.stack, self.app)
        return self.stack.stop()

    def user_env(self):
        """The environment of everything run as the app's user."""
        pw = pwd.getpwnam(self.user)
        return {
            'PATH': SAFE_PATH,
            'HOME': self.home,
            'USER': self.user,
            'LOGNAME': self.user,
            'SHELL': pw.pw_shell,
            'LANG': 'C.UTF-8',
            'XDG_DATA_HOME': os.path.join(self.home, '.local', 'share'),
            'XDG_CONFIG_HOME': os.path.join(self.home, '.config'),
            'XDG_CACHE_HOME': os.path.join(self.home, '.cache'),
            'XDG_STATE_HOME': os.path.join(self.home, '.local', 'state'),
            'XDG_RUNTIME_DIR': self.runtime_dir,
            'DISPLAY': self.display,
            'DBUS_SYSTEM_BUS_ADDRESS': self.stack.address,
            'DBUS_SESSION_BUS_ADDRESS': self.session_address,
            **GUI_ENV,
            **self.sanitizer_env(),
        }

    @staticmethod
    def sanitizer_env():
        """The sanitizer options of a sanitizer run (meson test --setup
        sanitize), so that a finding in the app ends it and the test fails
        (check_app_alive). Without leak checks: the app is ended by a
        signal, and GTK keeps its type system and caches for the life of
        the process anyway."""
        env = {var: os.environ[var] for var in SANITIZER_VARIABLES if os.environ.get(var)}
        if 'ASAN_OPTIONS' in env:
            env['ASAN_OPTIONS'] += ':detect_leaks=0'
        return env

    def start_app(self, extra_args=(), extra_env=None, wait=True, timeout=60):
        """Starts the app as the user; waits until it owns its name on the session bus
        and has mapped a window (the name comes first, the window a moment later)."""
        if self.app and self.app.running():
            raise RuntimeError('the app is already running')
        env = dict(self.user_env(), **(extra_env or {}))
        self.check_user_can_run(self.app_argv)
        self.app = spawn(self.stack, 'app', self.app_argv + list(extra_args), env=env,
                         user=self.user, phase=PHASE_CLIENTS, cwd=self.home)
        if wait:
            self.wait_for(lambda: self.name_has_owner(APP_ID), timeout,
                          what=f'the app to own {APP_ID} on the session bus')
            self.wait_for(lambda: self.window_names(), timeout, what='the app to map a window')
        return self.app

    def check_user_can_run(self, argv):
        """Fails with a message when the user cannot reach the app (a build tree in
        /root, say), instead of leaving a puzzling exit status."""
        env = self.user_env()
        for i, arg in enumerate(argv):
            if os.path.isabs(arg) and os.path.exists(arg):
                test = '-x' if i == 0 else '-r'
                if run_as(self.user, ['test', test, arg], env).returncode != 0:
                    raise PrerequisiteMissing(
                        f'{self.user} cannot {"run" if i == 0 else "read"} {arg}: every '
                        'directory above it must be searchable (o+x) by other users')

    def stop_app(self):
        if self.app:
            return stop_process(self.stack, self.app)
        return None

    def check_app_alive(self):
        if self.app is None or not self.app.running():
            code = None if self.app is None else self.app.popen.returncode
            raise AssertionError(f'the app is not running (exit status {code}); its output:\n'
                                 + self.app_log())

    def app_log(self):
        return _read(self.app.logpath if self.app else None) or '(no output)'

    def app_complaints(self, expected=()):
        """The GLib warnings and criticals in the app's output, of every run
        of it in this stack (its log is appended to): GTK's
        "(diskbench:42): Gtk-CRITICAL **: …" and the app's own
        "** (diskbench:42): WARNING **: …". Each is a defect of the app."""
        return glib_complaints(_read(self.app.logpath if self.app else None) or '', expected)

    # ---- accessibility (AT-SPI), as Orca reads the app ----

    def start_accessibility_bus(self):
        """at-spi-bus-launcher as the user on our session bus: it owns
        org.a11y.Bus and runs the accessibility bus (a dbus-daemon) that a
        screen reader and the app meet on. Start the app after it, with
        ACCESSIBLE_APP_ENV. Stopped with the stack (by PID; the launcher
        ends its bus, and the registry daemon the bus started goes with it)."""
        launcher = '/usr/libexec/at-spi-bus-launcher'
        if not os.access(launcher, os.X_OK):
            raise PrerequisiteMissing('at-spi-bus-launcher not found: apt-get install at-spi2-core')
        self.a11y_bus = spawn(self.stack, 'at-spi-bus-launcher', [launcher, '--launch-immediately'],
                              env=self.user_env(), user=self.user, cwd=self.home)
        self.wait_for(lambda: self.name_has_owner('org.a11y.Bus'), 20,
                      what='at-spi-bus-launcher to own org.a11y.Bus')

    def accessible_tree(self, everything=False, timeout=60):
        """The app's accessibility tree (atspi_tree.py's JSON), read as the user."""
        argv = ['/usr/bin/python3', ATSPI_TREE, APP_NAME] + (['--all'] if everything else [])
        last = []

        def read():
            res = run_as(self.user, argv, self.user_env(), timeout=timeout, cwd=self.home)
            last[:] = [res.stderr.strip()]
            # The registry lists the app a moment after it starts, and
            # now and then answers a first call with an empty desktop.
            return json.loads(res.stdout) if res.returncode == 0 else None
        try:
            return self.wait_for(read, timeout, what='the app on the accessibility bus', interval=0.5)
        except TimeoutError:
            raise AssertionError(f'reading the accessibility tree failed: {last[0] if last else "?"}') from None

    # ---- waiting ----

    def wait_for(self, predicate, timeout=30, what='condition', interval=0.2):
        """Polls PREDICATE until it is true (returns its value); fails at once if the app died."""
        def check():
            if self.app is not None:
                self.check_app_alive()
            return predicate()
        return wait_until(check, timeout, interval=interval, what=what)

    # ---- the session bus, as the user ----

    def session_call(self, dest, path, method, *args, timeout=30, check=True):
        argv = ['gdbus', 'call', '--session', '--dest', dest, '--object-path', path,
                '--method', method, '--timeout', str(timeout)] + list(args)
        res = run_as(self.user, argv, self.user_env(), timeout=timeout + 10, cwd=self.home)
        if check and res.returncode != 0:
            raise ActionError(f'{method} {" ".join(args)} failed: {res.stderr.strip()}')
        return res

    def name_has_owner(self, name):
        res = self.session_call('org.freedesktop.DBus', '/org/freedesktop/DBus',
                                'org.freedesktop.DBus.NameHasOwner', name, check=False)
        return res.returncode == 0 and res.stdout.strip() == '(true,)'

    def list_actions(self):
        res = self.session_call(APP_ID, APP_OBJECT, f'{ACTIONS_IFACE}.List')
        return parse_gvariant(res.stdout, '(as)')[0]

    def activate_action(self, name, param_gvariant_text=None, timeout=30):
        """org.gtk.Actions.Activate NAME '[<PARAM>]' '{}' as the user (PARAM is
        GVariant text, e.g. gvariant_string('/dev/loop0'); None: no parameter)."""
        param = '[]' if param_gvariant_text is None else f'[<{param_gvariant_text}>]'
        self.session_call(APP_ID, APP_OBJECT, f'{ACTIONS_IFACE}.Activate', name, param, '{}',
                          timeout=timeout)

    def activate(self, name, value=None, timeout=30):
        """activate_action with a Python str parameter (the app's actions take 's')."""
        self.activate_action(name, None if value is None else gvariant_string(value), timeout)

    def describe_action(self, name):
        """org.gtk.Actions.Describe: (enabled, parameter type, [state]) (state list empty
        for a stateless action)."""
        res = self.session_call(APP_ID, APP_OBJECT, f'{ACTIONS_IFACE}.Describe', name)
        enabled, ptype, state = parse_gvariant(res.stdout, '((bgav))')[0]
        return enabled, ptype, list(state)

    def status(self):
        """The "status" action's state "KIND:STATE:POINTS" as (kind, state, points);
        None while it is "" (no page shown yet)."""
        _enabled, _ptype, state = self.describe_action('status')
        if not state or not isinstance(state[0], str):
            raise AssertionError(f'the status action has no string state: {state!r}')
        if state[0] == '':
            return None
        kind, sep1, rest = state[0].partition(':')
        st, sep2, points = rest.partition(':')
        if not (sep1 and sep2) or not points.isdigit():
            raise AssertionError(f'status {state[0]!r} is not "KIND:STATE:POINTS"')
        return kind, st, int(points)

    def wait_status(self, kind, states=('finished',), min_points=1, timeout=120):
        """Waits until status() is KIND in STATES with at least MIN_POINTS points;
        fails at once if KIND ends in another final state."""
        final = {'finished', 'cancelled', 'failed'}

        def reached():
            status = self.status()
            if status is None:
                return None
            k, st, n = status
            if k == kind and st in states and n >= min_points:
                return k, st, n
            if k == kind and st in final - set(states):
                raise AssertionError(f'{kind} ended as {st} with {n} points')
            return None
        return self.wait_for(reached, timeout, interval=0.25,
                             what=f'status {kind}:{"|".join(states)}:>={min_points}')

    # ---- the screen ----

    def screenshot(self, path):
        return screenshot(self.display, path)

    def window_names(self):
        return x_window_names(self.display)

    # ---- the keyboard (XTEST through xdotool, as root on our Xvfb) ----

    def _xdotool(self, *args):
        res = subprocess.run(['xdotool', *args], env=dict(os.environ, DISPLAY=self.display),
                             stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, timeout=30)
        if res.returncode != 0:
            raise RuntimeError(f'xdotool {" ".join(args)} failed ({res.returncode}): {res.stderr.strip()}')
        return res.stdout

    def focus_app_window(self):
        """Gives the app's main window the keyboard focus (no WM here to do it)."""
        def found():
            res = subprocess.run(['xdotool', 'search', '--onlyvisible', '--name', 'Disk Benchmark'],
                                 env=dict(os.environ, DISPLAY=self.display), stdin=subprocess.DEVNULL,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=30)
            # xdotool walks every X window: one going away meanwhile (a
            # popover closing) fails the walk with BadWindow, which says
            # nothing of ours; nothing found (exit 1, no error) may be a
            # window not mapped yet. Both: look again.
            if res.returncode != 0 and res.stderr.strip() and 'BadWindow' not in res.stderr:
                raise RuntimeError(f'xdotool search failed ({res.returncode}): {res.stderr.strip()}')
            return res.stdout.split() if res.returncode == 0 else None
        windows = self.wait_for(found, 10, interval=0.1, what='a visible "Disk Benchmark" window')
        self._xdotool('windowfocus', '--sync', windows[0])

    def send_keys(self, *keys):
        """Presses KEYS (xdotool names: "alt+e", "Tab") in the app's window."""
        self.focus_app_window()
        self._xdotool('key', '--delay', '50', *keys)
        time.sleep(0.3)  # let GTK handle them before the next step looks

    def type_text(self, text):
        self.focus_app_window()
        self._xdotool('type', '--delay', '30', text)
        time.sleep(0.3)

    def user_path(self, *parts):
        """A path in the app user's home, where the app may write."""
        return os.path.join(self.home, *parts)


# ---- unittest glue -------------------------------------------------------------

def _app_from_argv(argv):
    """Takes --app / --app-command from ARGV (or DISKBENCH_APP); returns (app argv, rest)."""
    import argparse
    p = argparse.ArgumentParser(add_help=False)
    p.add_argument('--app', default=os.environ.get('DISKBENCH_APP'))
    p.add_argument('--app-command', default=os.environ.get('DISKBENCH_APP_COMMAND'))
    p.add_argument('--screenshot-dir', default=os.environ.get('DISKBENCH_GUI_SCREENSHOT_DIR'))
    args, rest = p.parse_known_args(argv)
    if args.app_command:
        app = shlex.split(args.app_command)
    elif args.app:
        app = [os.path.abspath(args.app)]
    else:
        app = None
    return app, args.screenshot_dir, rest


APP_ARGV = None
SCREENSHOT_DIR = None


def main():
    """Entry point of the GUI test files: python3 test_x.py --app BUILD/client-gtk/diskbench
    [--app-command 'CMD ARGS'] [--screenshot-dir DIR] [integration options] [unittest args]."""
    global APP_ARGV, SCREENSHOT_DIR
    APP_ARGV, SCREENSHOT_DIR, rest = _app_from_argv(sys.argv[1:])
    sys.argv = [sys.argv[0]] + rest
    import harness
    harness.main()


def _make_test_case():
    import harness

    class GuiTestCase(harness.IntegrationTestCase):
        """One GuiStack (and so one Stack, Xvfb, session bus) per class; the
        app is started by the class (prepare) or the tests. Logs, the app's
        output included, are printed when a test fails."""

        gui_options = {}
        gui = None

        @classmethod
        def create_stack(cls):
            if not APP_ARGV:
                raise PrerequisiteMissing('no app given: --app BUILD/client-gtk/diskbench '
                                          '(or --app-command, DISKBENCH_APP)')
            if len(APP_ARGV) == 1 and not os.access(APP_ARGV[0], os.X_OK):
                raise PrerequisiteMissing(f'the app is not built: {APP_ARGV[0]}')
            cls.gui = GuiStack(APP_ARGV, **cls.gui_options)
            cls.stack = cls.gui.stack

        @classmethod
        def start_stack(cls):
            cls.gui.start()

        @classmethod
        def stop_stack(cls):
            return cls.gui.stop()

        @classmethod
        def prepare(cls):
            """Per-class setup on the started GuiStack; by default, the app."""
            cls.gui.start_app()

        # Regular expressions of the GLib warnings a test class causes on
        # purpose (hostile result files the app skips, with a warning each).
        expected_complaints = ()

        @classmethod
        def tearDownClass(cls):
            # The app first (it may hold a folder of the mount open), then
            # the mount of user_folder_on_new_filesystem().
            complaints = []
            try:
                if cls.gui and cls.gui.app:
                    stop_process(cls.stack, cls.gui.app)
                    complaints = cls.gui.app_complaints(cls.expected_complaints)
                if getattr(cls, 'mount', None):
                    cls.stack.umount(cls.mount)
            finally:
                # Whatever failed above, the stack still ends all it started.
                super().tearDownClass()
            # A GLib critical or warning of the app fails its tests, even
            # when everything they asserted held.
            if complaints:
                raise AssertionError('the app complained (GLib warnings or criticals):\n' + '\n'.join(complaints))

        @classmethod
        def user_folder_on_new_filesystem(cls, name, size=256 * MiB):
            """A folder NAME (0700, the app user's) on a new ext4 loop mount
            (cls.fs_loop, cls.mount; unmounted by tearDownClass)."""
            cls.fs_loop = cls.stack.attach_loop(size=size)
            cls.mount = cls.stack.mount_new_filesystem(cls.fs_loop)
            user = pwd.getpwnam(cls.gui.user)
            folder = os.path.join(cls.mount[0], name)
            os.mkdir(folder)
            os.chown(folder, user.pw_uid, user.pw_gid)
            os.chmod(folder, 0o700)
            return folder

        def screenshot_path(self, name):
            parent = SCREENSHOT_DIR or self.stack.path('screenshots')
            return os.path.join(os.path.abspath(parent), name)

        def daemon_property(self, path, iface, name):
            """Property NAME of org.diskbench.DiskBench1.IFACE at PATH, read as root
            (busctl's JSON: variants stay {'type', 'data'})."""
            res = self.stack.busctl('--json=short', 'get-property', BUS_NAME, path,
                                    f'org.diskbench.DiskBench1.{iface}', name, check=True)
            return json.loads(res.stdout)['data']

        def daemon_jobs(self, kind=None):
            """The daemon's jobs (Manager.Jobs), only those of KIND if given."""
            jobs = self.daemon_property(MANAGER_PATH, 'Manager', 'Jobs')
            return [j for j in jobs if kind is None or self.daemon_property(j, 'Job', 'Kind') == kind]

        def wait_series_drawn(self, name, timeout=15):
            """Screenshots (NAME) until the series colour shows (GTK may draw a
            frame late); returns the screenshot's path.

            Counts with series_pixels(): the app's suggested button and progress bar
            have the accent colour too (#3584e4), but as solid blocks, which it
            leaves out; the tests check that an empty page counts (almost) nothing."""
            path = self.screenshot_path(name)
            last = [0, 0]

            def drawn():
                self.gui.screenshot(path)
                last[:] = [series_pixels(path), count_colour(path)]
                return last[0] > MIN_SERIES_PIXELS
            try:
                self.gui.wait_for(drawn, timeout, interval=0.5,
                                  what=f'more than {MIN_SERIES_PIXELS} series-coloured pixels')
            except TimeoutError:
                self.fail(f'only {last[0]} pixels of the series colours outside solid blocks '
                          f'({last[1]} in all) in {path} (windows: {self.gui.window_names()})')
            print(f'screenshot {path}: {last[0]} series pixels ({last[1]} of the colours in all)',
                  flush=True)
            return path

        def assert_warnings_card_whole(self, name, timeout=15):
            """Screenshots (NAME) until the page's warnings card is drawn whole
            (warnings_card_problems() finds nothing); fails with what was
            wrong in the last one. Each try first lets the revealer's
            cross-fade end (settle), as the card is only then pure white."""
            shot = self.screenshot_path(name)
            last = ['no screenshot taken']

            def whole():
                settle(0.5)
                self.gui.screenshot(shot)
                try:
                    card = warnings_card(shot)
                except CardNotFound as e:
                    last[0] = str(e)
                    return None
                problems = warnings_card_problems(card)
                last[0] = f'{card}: ' + '; '.join(problems)
                return None if problems else card
            try:
                card = self.gui.wait_for(whole, timeout, interval=0.2,
                                         what='the warnings card drawn whole')
            except TimeoutError:
                self.fail(f'the warnings card is not drawn whole in {shot}: {last[0]}')
            print(f'{shot}: warnings card whole, white rows {card["top"]}-{card["bottom"]}, '
                  f'icon {card["icon"]}', flush=True)
            return card

    return GuiTestCase


def __getattr__(name):
    # GuiTestCase needs harness (unittest glue), which run-demo.py does not.
    if name == 'GuiTestCase':
        cls = _make_test_case()
        globals()['GuiTestCase'] = cls
        return cls
    raise AttributeError(name)


__all__ = ['APP_ACTIONS', 'APP_ID', 'APP_OBJECT', 'CONFIG', 'GUI_ENV', 'MIN_SERIES_PIXELS', 'MiB', 'SERIES_COLOURS',
           'STATUS_STATES', 'ActionError', 'GuiStack', 'Process', 'check_gui_prerequisites',
           'count_colour', 'series_pixels', 'warnings_card', 'warnings_card_problems', 'header_and_chart', 'gvariant_string', 'log', 'main', 'parse_gvariant', 'png_size',
           'read_png', 'run_as', 'screenshot', 'spawn', 'start_session_bus', 'start_xvfb',
           'stop_process', 'user_dir', 'user_kwargs', 'x_window_names']
