#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Prints the accessibility tree of a running application as JSON, read
through AT-SPI with libatspi, as a screen reader (Orca) reads it.

Run as the app's user, with its DISPLAY and DBUS_SESSION_BUS_ADDRESS (the
accessibility bus is found through them): atspi_tree.py APP_NAME. The app
must run with GTK_A11Y=atspi on a session whose org.a11y.Bus is up
(gui_stack.GuiStack.start_accessibility_bus()).

Each node: role (AT-SPI role name), name, description, states (names),
extents [x, y, width, height] in window coordinates (absent when it has
no Component), text (the Text interface's content, when it has one),
actions (names), children. What is not on screen (on_screen()) is left out unless --all.
One limit: a stack page shown earlier keeps its last place, so its
widgets still look on screen; tests find a page's parts by their names
and parents.
"""

import json
import sys
import warnings

import gi
gi.require_version('Atspi', '2.0')
from gi.repository import Atspi, GLib  # noqa: E402

# libatspi 2.46 calls its get_*_iface() deprecated in Python, without a
# replacement there: they are what its own tools use.
warnings.simplefilter('ignore', DeprecationWarning)

MAX_NODES = 20000


def extents(accessible):
    component = accessible.get_component_iface()
    if not component:
        return None
    rect = component.get_extents(Atspi.CoordType.WINDOW)
    return [rect.x, rect.y, rect.width, rect.height]


def on_screen(accessible, window):
    """Visible, of some size and inside the window. GTK 4.8 sets "showing"
    on windows only; the pages a stack does not show are "visible" but of
    no size, and the columns a folded leaflet does not show lie outside
    the window (their middle does)."""
    if not accessible.get_state_set().contains(Atspi.StateType.VISIBLE):
        return False
    rect = extents(accessible)
    if rect is None:
        return True
    x, y, width, height = rect
    if width <= 0 or height <= 0:
        return False
    if window is None:
        return True
    # Its middle: a column beside the window may overlap its shadow.
    return 0 <= x + width // 2 < window[2] and 0 <= y + height // 2 < window[3]


def node(accessible, everything, budget, window=None):
    budget[0] -= 1
    if budget[0] < 0:
        raise RuntimeError(f'more than {MAX_NODES} accessible objects: a loop in the tree?')
    states = accessible.get_state_set()
    state_names = sorted(Atspi.StateType(s).value_nick for s in range(Atspi.StateType.LAST_DEFINED)
                         if states.contains(Atspi.StateType(s)))
    result = {
        'role': accessible.get_role_name(),
        'name': accessible.get_name() or '',
        'description': accessible.get_description() or '',
        'states': state_names,
    }
    rect = extents(accessible)
    if rect is not None:
        result['extents'] = rect
    if accessible.get_role() == Atspi.Role.FRAME and rect is not None:
        window = rect
    text = accessible.get_text_iface()
    if text:
        result['text'] = Atspi.Text.get_text(text, 0, Atspi.Text.get_character_count(text))
    action = accessible.get_action_iface()
    if action:
        try:
            result['actions'] = [Atspi.Action.get_action_name(action, i)
                                 for i in range(Atspi.Action.get_n_actions(action))]
        except GLib.GError:
            result['actions'] = []  # GTK 4.8 lists actions some widgets cannot name
    children = []
    for i in range(accessible.get_child_count()):
        child = accessible.get_child_at_index(i)
        if child is None:
            continue
        if not everything and not on_screen(child, window):
            continue
        children.append(node(child, everything, budget, window))
    result['children'] = children
    return result


def main():
    everything = '--all' in sys.argv[1:]
    names = [a for a in sys.argv[1:] if not a.startswith('--')]
    if len(names) != 1:
        sys.exit('usage: atspi_tree.py [--all] APP_NAME')
    desktop = Atspi.get_desktop(0)
    for i in range(desktop.get_child_count()):
        app = desktop.get_child_at_index(i)
        if app is not None and app.get_name() == names[0]:
            json.dump(node(app, everything, [MAX_NODES]), sys.stdout)
            return
    sys.exit(f'no application {names[0]!r} on the accessibility bus '
             f'(there: {[desktop.get_child_at_index(i).get_name() for i in range(desktop.get_child_count())]})')


if __name__ == '__main__':
    main()
