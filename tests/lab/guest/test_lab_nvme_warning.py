# SPDX-License-Identifier: GPL-3.0-or-later
"""An NVMe drive that raises a critical warning (QEMU's nvme device
property smart_critical_warning, set through QMP qom-set, as a real drive
sets the bits of its health log): the daemon's Device.Health, the app's
Info page (its "health" action and a screenshot), `diskbenchctl info` and
the metrics of a result all say so."""

import os
import sys
import time
import unittest

import host_control
import lab_context as lab
from stack import DEVICE_IFACE

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                                'gui'))
from gui_stack import GuiStack  # noqa: E402

RELIABILITY_DEGRADED = 0x04


class LabGui(GuiStack):
    """The GUI stack of tests/gui on the lab's own stack (no second one)."""

    def __init__(self):
        super().__init__([os.path.join(lab.BUILD, 'client-gtk', 'diskbench')], user=lab.USER, loop_size=0)
        self.stack = lab.STACK

    def start(self):
        from gui_session import check_gui_prerequisites, start_session_bus, start_xvfb, user_dir
        check_gui_prerequisites()
        gui = self.stack.path('gui')
        os.makedirs(gui, exist_ok=True)
        os.chmod(gui, 0o755)
        self.home = user_dir(os.path.join(gui, 'home'), self.user)
        self.runtime_dir = user_dir(os.path.join(gui, 'runtime'), self.user)
        self.display, self.xvfb = start_xvfb(self.stack, self.screen)
        self.session_address, self.session_bus = start_session_bus(self.stack, self.user, self.runtime_dir)
        return self


def set_warning(bits):
    host_control.qmp('qom-set', path='/machine/peripheral/nvme0', property='smart_critical_warning', value=bits)


class NvmeWarningTest(unittest.TestCase):
    def tearDown(self):
        set_warning(0)

    def test_critical_warning_reaches_app_cli_and_metrics(self):
        node = lab.node('nvme')
        path = lab.device_of(node)[0]
        gui = LabGui().start()
        try:
            gui.start_app(timeout=lab.seconds(240))
            gui.activate('select-device', node)
            gui.activate('show-page', 'info')

            def health():
                return gui.describe_action('health')[2][0]
            good = gui.wait_for(lambda: (h := health()).startswith('Good') and h, lab.seconds(120),
                                what="the Info page's NVMe health")
            self.assertTrue(good.startswith('Good: no critical warning, 0 % used'), good)
            self.assertTrue(good.endswith('|'), good)  # no warning card

            set_warning(RELIABILITY_DEGRADED)
            # The daemon reads an NVMe drive's log every 30 s.
            warned = lab.wait_until(
                lambda: (h := lab.STACK.get_property(path, DEVICE_IFACE, 'Health', user=lab.USER))
                ['critical_warning'] == RELIABILITY_DEGRADED and h, lab.seconds(90), what='Health to show the warning')
            self.assertTrue(warned['failing'])
            self.assertEqual(warned['critical_warning_text'], 'reliability degraded')
            shown = gui.wait_for(lambda: 'CRITICAL' in (h := health()) and h, lab.seconds(60),
                                 what='the Info page to show the critical warning')
            lab.finding('nvme', 'critical warning 0x04 (qom-set)', shown, 'reliability degraded')
            self.assertTrue(shown.startswith('CRITICAL WARNING: reliability degraded'), shown)
            self.assertIn('|⚠ The NVMe drive reports a critical warning (reliability degraded)', shown)
            time.sleep(1)  # the card's reveal, for the screenshot
            gui.screenshot(os.path.join(lab.OUT, 'nvme-health-critical.png'))
            self.assertEqual(gui.app_complaints(), [])
        finally:
            gui.stop_app() if gui.app else None

        res = lab.ctl('info', node)
        self.assertEqual(res.returncode, 0, res.stderr)
        self.assertIn('Health: CRITICAL WARNING: reliability degraded', res.stdout)
        self.assertIn('⚠ The NVMe drive reports a critical warning (reliability degraded)', res.stdout)
        lab.finding('nvme', 'diskbenchctl info', res.stdout.strip().replace('\n', ' / '), 'reliability degraded')

        metrics = os.path.join(lab.HOME, 'nvme.prom')
        res = lab.ctl('run', 'seek', node, 'count=20', '--openmetrics', metrics, '--no-save')
        self.assertEqual(res.returncode, 0, res.stderr)
        # The result's text says what the drive said when the run started.
        self.assertIn('Health at the start: CRITICAL WARNING: reliability degraded', res.stdout)
        with open(metrics) as f:
            text = f.read()
        lines = [l for l in text.splitlines() if l.startswith('diskbench_drive_')]
        lab.finding('nvme', 'metrics', ' / '.join(lines), 'critical warning 4')
        self.assertTrue(any(l.startswith('diskbench_drive_nvme_critical_warning{') and l.endswith(' 4')
                            for l in lines), lines)
        self.assertTrue(any(l.startswith('diskbench_drive_health_failing{') and l.endswith(' 1') for l in lines),
                        lines)
