#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The window's navigation and what a screen reader reads, through the
accessibility tree (AT-SPI, at-spi2-core, read with libatspi as Orca reads
it: atspi_tree.py), with the mouse and keyboard of xdotool (XTEST).

  * wide (1280 px): devices, the list of pages and the page side by side;
    the list's headings in the order Overview, Read, Write, Drive; every
    row clicked shows its page (the app's "status"), one page a row, and
    the pages are exactly the device kinds the daemon lists plus History
    and Info; Down in the list walks them in the same order, and Ctrl+Page
    Down too; screenshot navigation-wide.png;
  * narrow (360 px): one column at a time; Back ("Benchmarks") shows the
    list, a row clicked shows its page, Back twice the devices;
    screenshots navigation-narrow-*.png; no column is cut (every button
    on screen lies inside the window);
  * the seek's latency distribution (CDF view) chosen by mouse and drawn;
  * what Orca reads: every button has a name (icon-only ones: the tooltip
    too, never a class name); the graph is an image named after the page
    whose description is the run's headline figures once a run ends; the
    checks card is a group "Checks" whose text is the check lines.

Run (as root): meson test -C BUILD --print-errorlogs gui-navigation; by
hand, with the arguments every GUI test file takes (tests/gui/README.md).
"""

import re

import gui_stack
from bus_names import MANAGER_PATH

MANAGER_IFACE = 'org.diskbench.DiskBench1.Manager'
GROUP_ORDER = ['Overview', 'Read', 'Write', 'Drive']
BUTTON_ROLES = ('push button', 'toggle button')


def walk(node):
    yield node
    for child in node['children']:
        yield from walk(child)


def find(tree, role, name=None):
    return [n for n in walk(tree) if n['role'] == role and (name is None or n['name'] == name)]


def centre(node):
    x, y, width, height = node['extents']
    return x + width // 2, y + height // 2



def shown(node):
    """Not hidden (the folder pages' rows are, beside a device): visible and
    of some size, wherever it was scrolled to."""
    return 'visible' in node['states'] and all(n > 0 for n in node.get('extents', [0, 0, 1, 1])[2:])

class NavigationGuiTest(gui_stack.GuiTestCase):
    """Steps in order: each needs the app state the one before left."""

    @classmethod
    def prepare(cls):
        cls.gui.start_accessibility_bus()
        cls.gui.start_app(extra_env=gui_stack.ACCESSIBLE_APP_ENV)
        cls.gui.activate('select-device', cls.gui.loop.node)

    # ---- helpers ----

    def window(self):
        return self.gui._xdotool('search', '--onlyvisible', '--name', '^Disk Benchmark$').split()[0]

    def resize(self, width, height):
        self.gui._xdotool('windowsize', self.window(), str(width), str(height))
        self.gui.wait_for(lambda: self.frame()['extents'][2] <= width, 10,
                          what=f'the window {width} pixels wide')
        gui_stack.settle(1.0)  # the leaflet's fold animation

    def frame(self, tree=None):
        tree = tree or self.gui.accessible_tree()
        [frame] = [n for n in tree['children'] if n['role'] == 'frame' and n['name'] == 'Disk Benchmark']
        return frame

    def click(self, node):
        """A left click in the middle of NODE (its window coordinates plus the window's place)."""
        geometry = self.gui._xdotool('getwindowgeometry', self.window())
        left, top = map(int, re.search(r'Position: (\d+),(\d+)', geometry).groups())
        x, y = centre(node)
        self.gui._xdotool('mousemove', str(left + x), str(top + y), 'click', '1')

    def scrolled_into_view(self, name):
        """The page row NAME, the list first scrolled with the mouse wheel
        (over the list) until the row lies whole inside the list's scroll
        pane, as a user scrolls to a row below the window's edge (the list
        is taller than the window once it has enough pages)."""
        for _ in range(60):
            # Every row, those scrolled out of the window too.
            frame = self.frame(self.gui.accessible_tree(everything=True))
            page_list, rows = self.page_rows(frame)
            [row] = [r for r in rows if r['name'] == name]
            panes = [p for p in find(frame, 'scroll pane')
                     if any(n is page_list for n in walk(p))]
            _x, top, _w, height = (panes[-1] if panes else frame)['extents']
            _rx, row_top, _rw, row_height = row['extents']
            if row_top >= top and row_top + row_height <= top + height:
                return row
            geometry = self.gui._xdotool('getwindowgeometry', self.window())
            left, window_top = map(int, re.search(r'Position: (\d+),(\d+)', geometry).groups())
            x, _y = centre(row)
            # Wheel down (button 5) for a row below, up (4) for one above.
            button = '5' if row_top + row_height > top + height else '4'
            self.gui._xdotool('mousemove', str(left + x), str(window_top + top + height // 2), 'click', button)
        raise AssertionError(f'the page row {name!r} never came into view')

    def press(self, *keys):
        self.gui._xdotool('windowfocus', '--sync', self.window())
        self.gui._xdotool('key', '--delay', '80', *keys)

    def shown_kind(self):
        status = self.gui.status()
        return status[0] if status else None

    def wait_kind(self, kind):
        self.gui.wait_for(lambda: self.shown_kind() == kind, 10,
                          what=f'the {kind} page shown (status {self.gui.status()})')

    def page_rows(self, frame=None):
        """The list of pages and its rows: of FRAME, or by default every row,
        those scrolled out of the window too (the list is taller than the
        window at 800 pixels, Xvfb's screen)."""
        [page_list] = find(frame or self.frame(self.gui.accessible_tree(everything=True)), 'list', 'Benchmarks')
        return page_list, [n for n in page_list['children'] if n['role'] == 'list item' and shown(n)]

    def device_kinds(self):
        [kinds] = self.stack.call(MANAGER_PATH, MANAGER_IFACE, 'ListBenchmarks')
        return {k[0] for k in kinds if k[1] in ('device', 'device-write')}

    # ---- wide ----

    def test_01_wide_three_columns_in_groups(self):
        self.resize(1280, 800)
        tree = self.frame()
        self.gui.screenshot(self.screenshot_path('navigation-wide.png'))
        width = tree['extents'][2]
        # The devices, the list and the page's graph side by side.
        [devices] = find(tree, 'list', 'Devices')
        page_list, _shown = self.page_rows(tree)
        every_list, rows = self.page_rows()
        graphs = [n for n in find(tree, 'image') if n['name'].endswith(' graph') or ' graph: ' in n['name']]
        self.assertEqual(len(graphs), 1, [g['name'] for g in graphs])
        self.assertLess(devices['extents'][0], page_list['extents'][0])
        self.assertLess(page_list['extents'][0], graphs[0]['extents'][0])
        self.assertLessEqual(sum(graphs[0]['extents'][0::2]), width)
        # The headings, top to bottom, and the rows under them.
        headings = sorted((n for n in every_list['children'] if n['role'] == 'label' and shown(n)),
                          key=lambda n: n['extents'][1])
        self.assertEqual([h['name'] for h in headings], GROUP_ORDER)
        names = [r['name'] for r in sorted(rows, key=lambda n: n['extents'][1])]
        self.assertEqual(names[0], 'Overview')
        self.assertEqual(names[-2:], ['History', 'Info'])
        self.assertEqual(len(rows), len(self.device_kinds()) + 2, names)
        drive_top = headings[-1]['extents'][1]
        self.assertEqual({r['name'] for r in rows if r['extents'][1] > drive_top},
                         {'Surface', 'Capacity', 'Burn-in', 'History', 'Info'})

    def test_02_every_page_by_mouse(self):
        _list, rows = self.page_rows()
        reached = []
        for row in sorted(rows, key=lambda n: n['extents'][1]):
            self.click(self.scrolled_into_view(row['name']))
            self.gui.wait_for(lambda: self.shown_kind() not in reached, 10,
                              what=f'a new page after clicking {row["name"]!r} (status {self.gui.status()})')
            reached.append(self.shown_kind())
            # The clicked row is the selected one (what Orca announces).
            _list, now = self.page_rows()
            self.assertEqual([r['name'] for r in now if 'selected' in r['states']], [row['name']])
        self.assertEqual(len(reached), len(set(reached)), reached)
        self.assertEqual(set(reached), self.device_kinds() | {'history', 'info'})
        self.__class__.mouse_order = reached

    def test_03_every_page_by_keyboard(self):
        # Down in the list walks the pages in the list's order...
        _list, rows = self.page_rows()
        first = min(rows, key=lambda n: n['extents'][1])
        self.click(self.scrolled_into_view(first['name']))
        self.wait_kind('overview')
        walked = ['overview']
        for _ in range(len(rows) - 1):
            self.press('Down')
            self.gui.wait_for(lambda: self.shown_kind() != walked[-1], 10,
                              what=f'Down to move on from {walked[-1]}')
            walked.append(self.shown_kind())
        self.assertEqual(walked, self.mouse_order)
        # ... and so does Ctrl+Page Down, from the first (Alt+1).
        self.press('alt+1')
        self.wait_kind('overview')
        for kind in self.mouse_order[1:]:
            self.press('ctrl+Next')
            self.wait_kind(kind)

    # ---- narrow ----

    def test_04_narrow_one_column_at_a_time(self):
        self.resize(360, 720)
        # A page asked for by name shows, alone.
        self.gui.activate('show-page', 'seek')
        self.wait_kind('seek')
        gui_stack.settle(1.0)
        self.gui.screenshot(self.screenshot_path('navigation-narrow-page.png'))
        tree = self.frame()
        width = tree['extents'][2]
        self.assertLessEqual(width, 360)
        # Every button on screen lies inside the window, on the widest pages
        # too (Profiles: four views and the unit; the write consent): nothing cut off.
        for page in ('seek', 'profile', 'device-write', 'overview', 'seek'):
            self.gui.activate('show-page', page)
            self.wait_kind(page)
            gui_stack.settle(0.5)
            tree = self.frame()
            for button in (n for n in walk(tree) if n['role'] in BUTTON_ROLES):
                x, _y, w, _h = button['extents']
                self.assertTrue(0 <= x and x + w <= width, f'{page}: {button["name"]!r} at {button["extents"]}')
            if page == 'profile':
                self.gui.screenshot(self.screenshot_path('navigation-narrow-profiles.png'))
        self.assertFalse(find(tree, 'list', 'Benchmarks'), 'the list shows beside the page at 360 px')
        [back] = find(tree, 'push button', 'Benchmarks')
        self.click(back)
        self.gui.wait_for(lambda: find(self.frame(), 'list', 'Benchmarks'), 10, what='the list after Back')
        tree = self.frame()
        self.assertFalse([n for n in find(tree, 'image') if ' graph' in n['name']], 'the page shows beside the list')
        self.gui.screenshot(self.screenshot_path('navigation-narrow-list.png'))
        _list, rows = self.page_rows(tree)
        [random_row] = [r for r in rows if r['name'] == 'Random']
        self.click(random_row)
        self.wait_kind('random')
        self.gui.wait_for(lambda: not find(self.frame(), 'list', 'Benchmarks'), 10, what='the page after a row')
        # Back twice: the devices.
        for _ in range(2):
            [back] = [b for b in find(self.frame(), 'push button') if b['name'] in ('Benchmarks', 'Devices')]
            self.click(back)
            gui_stack.settle(0.6)
        self.gui.wait_for(lambda: find(self.frame(), 'list', 'Devices'), 10, what='the devices after Back twice')
        self.resize(1280, 800)

    # ---- what Orca reads ----

    def test_05_buttons_have_names(self):
        for page in ('overview', 'profile', 'device-write', 'history'):
            self.gui.activate('show-page', page)
            self.wait_kind(page)
            gui_stack.settle(0.3)
            for button in (n for n in walk(self.frame()) if n['role'] in BUTTON_ROLES):
                self.assertTrue(button['name'], f'a nameless button on {page}: {button}')
                self.assertFalse(button['name'].startswith('Gtk'), f'a class for a name on {page}: {button}')

    def test_06_graph_and_checks_read_as_text(self):
        self.gui.activate('run-benchmark', 'seek')
        self.gui.wait_status('seek', states=('finished',), min_points=1, timeout=90)

        def described():
            graphs = [n for n in find(self.frame(), 'image') if n['name'].startswith('Seek graph')]
            return graphs and re.search(r'\d', graphs[0]['description']) and graphs[0]
        graph = self.gui.wait_for(described, 20, what='the seek graph described by its figures')
        # The headline figures, as the page shows them under the graph.
        labels = [n.get('text', '') for n in walk(self.frame()) if n['role'] == 'label']
        self.assertIn(graph['description'], labels)
        [checks] = find(self.frame(), 'panel', 'Checks') or find(self.frame(), 'grouping', 'Checks')
        text = '\n'.join(n.get('text', '') for n in walk(checks) if n['role'] == 'label')
        self.assertRegex(text, r'[✓⚠]')

    def test_07_the_latency_distribution_by_mouse(self):
        # The seek run of test_06: its CDF view, chosen with the mouse.
        # The seek page's views: Latency and CDF. (A page the stack showed
        # earlier keeps its last place in the tree: found by its views, not
        # by where it is.)
        groups = [n for n in walk(self.frame()) if n['name'] == 'Graph shows'
                  and [c['name'] for c in n['children']] == ['Latency', 'CDF']]
        self.assertEqual(len(groups), 1, groups)
        toggle = groups[0]['children'][1]
        self.click(toggle)
        self.gui.wait_for(lambda: [n for n in find(self.frame(), 'image') if n['name'] == 'Seek graph: CDF'], 10,
                          what='the graph named after the CDF view')
        shot = self.wait_series_drawn('latency-cdf.png')
        print(f'screenshot {shot}', flush=True)

if __name__ == '__main__':
    gui_stack.main()
