#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A fleet on one machine (issue 29): two "machines" are two node_exporter
processes on 127.0.0.1, each with its own textfile directory, fed by
`diskbenchctl scheduled` (the very commands diskbench-scheduled.service
runs: the run as an unprivileged user with --stage, then --publish as root)
through the real daemon, bus and polkitd, with the shipped polkit rule
example granting that user. Machine A measures a healthy loop device;
machine B one over the FUSE file that is told to be slow. A real
Prometheus with the shipped rules (docs/fleet/diskbench-alerts.yml)
scrapes both, and the test asks its HTTP API.

udisks is python3-dbusmock here (devtools/stack/mock_drive.py), because
the point is two drives of one model on two machines: loop devices have no
model, serial or /dev/disk/by-id name in the real udisks. The devices, the
reads, the daemon, the bus and polkit are real."""

import json
import os
import pwd
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request

import harness
from cleanup import wait_until
from harness import run
from mock_drive import (ATA_IFACE, MOCK_IFACE, UDISKS_PATH, add_mock_manager, add_mock_object,
                        ata_properties, block_properties, drive_properties)
from bus_names import UDISKS_NAME

CTL = os.environ.get('DISKBENCHCTL')
SOURCE_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RULES = os.path.join(SOURCE_ROOT, 'docs', 'fleet', 'diskbench-alerts.yml')
DASHBOARD = os.path.join(SOURCE_ROOT, 'docs', 'fleet', 'diskbench-dashboard.json')
POLKIT_EXAMPLE = os.path.join(SOURCE_ROOT, 'polkit-policy', 'examples', '50-diskbench-scheduled.rules')
PROMETHEUS = '/usr/bin/prometheus'
NODE_EXPORTER = '/usr/bin/prometheus-node-exporter'
PROMTOOL = '/usr/bin/promtool'

USER = 'dbtest-sched'  # stands for _diskbench: no group, no rule of the test stack
EXIT_OK, EXIT_USAGE, EXIT_NOT_AUTHORIZED, EXIT_CANCELLED, EXIT_FILE = 0, 2, 3, 12, 14
MODEL = 'Lab SSD 1000'
DRIVES = {
    # machine: (serial, by-id name)
    'a': ('DBF0001', 'ata-Lab_SSD_1000_DBF0001'),
    'b': ('DBF0002', 'ata-Lab_SSD_1000_DBF0002'),
}
PROFILE_TEST = 'SEQ1M Q1T1'
# Each FUSE request of the slow disk waits this long: with 128 KiB requests
# a few MB/s, against hundreds on the healthy loop device.
SLOW_DELAY_MS = 4
HOT_C, COOL_C = 75.0, 40.0
QUIET_WINDOW_S = 8  # test_2b: long enough that waiting it out shows  # no limit from SMART: the rules' 70 °C applies

# The metrics the dashboard may query that no run here can produce, each
# with why: drive temperature limits come from hwmon sensors (temp1_max),
# which loop devices and udisks' SMART do not have. test_openmetrics.cpp
# checks that family's text.
NEEDS_HARDWARE = {'diskbench_drive_temperature_limit_celsius'}


def free_port():
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


def config_text(serial, output, busy_percent=50, passes=1):
    return f'''# test_fleet.py: one machine of the fleet
[Scheduled]
Devices=serial:{serial}
Kinds=seek;profile
Output={output}
QuietWindowSeconds=1
QuietMaxBusyPercent={busy_percent}

[Kind seek]
count=200

[Kind profile]
tests={PROFILE_TEST}
duration_s=1
warmup_s=0.2
passes={passes}
'''


def keep_busy(node, stop, readers=4):
    """Reads NODE with O_DIRECT until STOP: someone else working on the disk.

    Several readers at once, so a read is nearly always in flight and the
    disk's io_ticks grow with the clock: one reader leaves the disk idle
    while Python prepares the next read, and on a loaded machine (CI runs
    the package build beside the tests) that idle share grew past the half
    the quiet rule allows, and the run was not skipped."""
    import mmap

    def read_until_stopped(start):
        fd = os.open(node, os.O_RDONLY | os.O_DIRECT)
        buffer = mmap.mmap(-1, 1 << 20)
        try:
            offset = start
            while not stop.is_set():
                os.preadv(fd, [buffer], offset)
                offset = (offset + (1 << 20)) % (32 << 20)
        finally:
            buffer.close()
            os.close(fd)

    threads = [threading.Thread(target=read_until_stopped, args=(i << 23,)) for i in range(readers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


class FleetTest(harness.IntegrationTestCase):
    stack_options = {'udisks': 'mock'}

    @classmethod
    def prepare(cls):
        for tool in (CTL, PROMETHEUS, NODE_EXPORTER, PROMTOOL):
            if not tool or not os.access(tool, os.X_OK):
                raise AssertionError(f'{tool!r} missing (diskbenchctl is built; prometheus and '
                                     'prometheus-node-exporter are Debian packages)')
        add_mock_manager(cls.stack)
        cls.fast = cls.stack.attach_loop()
        cls.slow_disk = cls.stack.attach_stalling_disk()
        cls.slow = cls.slow_disk.loop
        cls.drives = {}
        for machine, loop, celsius in (('a', cls.fast, COOL_C), ('b', cls.slow, HOT_C)):
            serial, by_id = DRIVES[machine]
            path = f'{UDISKS_PATH}/drives/Lab_SSD_1000_{serial}'
            add_mock_object(cls.stack, path, 'org.freedesktop.UDisks2.Drive',
                            drive_properties(serial, {'Model': ('s', MODEL), 'Serial': ('s', serial)},
                                             loop.size))
            cls.stack.call(path, MOCK_IFACE, 'AddProperties', 'sa{sv}', ATA_IFACE,
                           ata_properties(celsius), dest=UDISKS_NAME)
            add_mock_object(cls.stack, loop.udisks_path, 'org.freedesktop.UDisks2.Block',
                            block_properties(loop, path, [f'/dev/disk/by-id/{by_id}']))
            cls.drives[machine] = loop
        pw = pwd.getpwnam(USER)
        cls.uid, cls.gid = pw.pw_uid, pw.pw_gid
        cls.machines = {}
        for machine, (serial, _) in DRIVES.items():
            base = tempfile.mkdtemp(prefix=f'machine-{machine}-', dir=cls.stack.tmp)
            os.chmod(base, 0o755)
            m = {name: os.path.join(base, name) for name in ('state', 'textfile', 'etc')}
            for name, d in m.items():
                os.mkdir(d)
            # The service's state directory is its user's (StateDirectory=);
            # the textfile directory root's (Debian's node-exporter).
            os.chown(m['state'], cls.uid, cls.gid)
            m['config'] = os.path.join(m['etc'], 'scheduled.conf')
            m['output'] = os.path.join(m['textfile'], 'diskbench.prom')
            m['staged'] = os.path.join(m['state'], 'metrics.prom')
            with open(m['config'], 'w') as f:
                f.write(config_text(serial, m['output'], passes=2 if machine == 'a' else 1))
            os.chmod(m['config'], 0o644)
            cls.machines[machine] = m

    # ---- the service's two steps, as the unit runs them ----

    def scheduled(self, machine, *extra, config=None):
        m = self.machines[machine]
        env = {'DBUS_SYSTEM_BUS_ADDRESS': self.stack.address, 'XDG_DATA_HOME': m['state'],
               'HOME': m['state'], 'LC_ALL': 'C.UTF-8'}
        argv = (['runuser', '-u', USER, '--', 'env'] + [f'{k}={v}' for k, v in env.items()]
                + [CTL, '--no-ask-password', 'scheduled', '--config', config or m['config'],
                   '--stage', m['staged']] + list(extra))
        return run(argv, check=False, timeout=240, stdin=subprocess.DEVNULL)

    def publish(self, machine):
        m = self.machines[machine]
        return run([CTL, 'scheduled', '--config', m['config'], '--publish', m['staged']], check=False,
                   timeout=60, env=dict(os.environ, LC_ALL='C.UTF-8'))

    def service(self, machine):
        """ExecStart, then ExecStopPost (which runs whatever ExecStart did)."""
        ran = self.scheduled(machine)
        published = self.publish(machine)
        self.assertEqual(published.returncode, EXIT_OK, published.stderr)
        return ran

    def metrics(self, machine):
        with open(self.machines[machine]['output']) as f:
            return f.read()

    def promtool_check(self, path):
        with open(path) as f:
            res = run([PROMTOOL, 'check', 'metrics'], input=f.read(), check=False)
        self.assertEqual(res.returncode, 0, f'promtool check metrics {path}: {res.stdout}{res.stderr}')

    # ---- tests, in order ----

    def test_1_without_the_polkit_rule_nothing_runs(self):
        ran = self.service('a')
        self.assertEqual(ran.returncode, EXIT_NOT_AUTHORIZED, ran.stdout + ran.stderr)
        self.assertIn('50-diskbench-scheduled.rules', ran.stderr)
        # The refusal is itself in the metrics: the device was not measured.
        text = self.metrics('a')
        self.assertRegex(text, r'diskbench_scheduled_skipped\{device="ata-Lab_SSD_1000_DBF0001",'
                               r'model="Lab SSD 1000",serial="DBF0001",reason="failed"\} 1')
        self.assertNotIn('diskbench_throughput_bytes_per_second', text)
        self.promtool_check(self.machines['a']['output'])
        os.unlink(self.machines['a']['output'])

    def test_2_a_bad_configuration_writes_nothing(self):
        bad = os.path.join(self.machines['a']['etc'], 'bad.conf')
        with open(bad, 'w') as f:
            f.write('[Scheduled]\nDevices=all\nQuietMaxBusyPercent=500\n')
        os.chmod(bad, 0o644)
        ran = self.scheduled('a', config=bad)
        self.assertEqual(ran.returncode, EXIT_USAGE)
        self.assertIn(f'{bad}:3: [Scheduled] QuietMaxBusyPercent:', ran.stderr)
        self.assertFalse(os.path.exists(self.machines['a']['staged']))
        self.assertEqual(self.publish('a').returncode, EXIT_OK)
        self.assertFalse(os.path.exists(self.machines['a']['output']))

    def test_2b_systemctl_stop_in_the_quiet_window(self):
        """SIGTERM (systemctl stop) while the quiet rule watches the second
        disk ends the run at once and as a cancel does (status 12), staging
        nothing. By then the first disk's runs have been started (refused
        here: the polkit rule comes in test_3)."""
        m = self.machines['a']
        conf = os.path.join(m['etc'], 'two-disks.conf')
        with open(m['config']) as f:
            text = f.read()
        with open(conf, 'w') as f:
            f.write(text.replace(f'Devices=serial:{DRIVES["a"][0]}',
                                 f'Devices=serial:{DRIVES["a"][0]};serial:{DRIVES["b"][0]}')
                    .replace('QuietWindowSeconds=1', f'QuietWindowSeconds={QUIET_WINDOW_S}'))
        os.chmod(conf, 0o644)
        env = {'DBUS_SYSTEM_BUS_ADDRESS': self.stack.address, 'XDG_DATA_HOME': m['state'], 'LC_ALL': 'C.UTF-8'}
        proc = subprocess.Popen(['runuser', '-u', USER, '--', 'env'] + [f'{k}={v}' for k, v in env.items()]
                                + [CTL, '--no-ask-password', 'scheduled', '--config', conf,
                                   '--stage', m['staged']],
                                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                text=True)
        errors = []
        reader = threading.Thread(target=lambda: errors.extend(proc.stderr), daemon=True)
        reader.start()
        try:
            # Both kinds on the first disk refused: the second disk's window is on.
            wait_until(lambda: sum(self.fast.node in line for line in errors) >= 2 or proc.poll() is not None,
                       QUIET_WINDOW_S + 60, what='the first disk\'s runs to be refused')
            self.assertIsNone(proc.poll(), ''.join(errors))
            time.sleep(1)
            stopped = time.monotonic()
            # To diskbenchctl itself, as systemd sends it (runuser would
            # pass it on, then die of it too, hiding the status).
            with open(f'/proc/{proc.pid}/task/{proc.pid}/children') as f:
                os.kill(int(f.read().split()[0]), signal.SIGTERM)
            proc.wait(timeout=QUIET_WINDOW_S + 60)
            took = time.monotonic() - stopped
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
            reader.join(10)
        self.assertLess(took, 3, f'the run went on watching the disk for {took:.1f} s after SIGTERM')
        self.assertEqual(proc.returncode, EXIT_CANCELLED, ''.join(errors))
        self.assertFalse(os.path.exists(m['staged']))

    def test_3_fleet_in_prometheus(self):
        # The administrator's step: the shipped example, for our user.
        with open(POLKIT_EXAMPLE) as f:
            rule = f.read()
        self.assertIn('subject.user == "_diskbench"', rule)
        self.stack.install_polkit_rules('50-diskbench-scheduled.rules',
                                        rule.replace('"_diskbench"', f'"{USER}"'))
        self.slow_disk.slow_down(SLOW_DELAY_MS)

        for machine in ('a', 'b'):
            started = time.monotonic()
            ran = self.service(machine)
            print(f'\nmachine {machine}: scheduled run took {time.monotonic() - started:.1f} s',
                  file=sys.stderr)
            self.assertEqual(ran.returncode, EXIT_OK, ran.stdout + ran.stderr)
            self.assertFalse(os.path.exists(self.machines[machine]['staged']), 'staged file left')
            self.promtool_check(self.machines[machine]['output'])
            # Kept in the user's history like any result.
            kept = os.listdir(os.path.join(self.machines[machine]['state'], 'diskbench', 'results'))
            self.assertEqual(sorted(k.split('-')[-2] for k in kept), ['profile', 'seek'], kept)
            mode = os.stat(self.machines[machine]['output']).st_mode & 0o777
            self.assertEqual(mode, 0o644)

        # The quiet rule: someone reads machine A's disk; the next run skips
        # it, says so, and serves the last figures on.
        before = self.metrics('a')
        stop = threading.Event()
        busy = threading.Thread(target=keep_busy, args=(self.fast.node, stop))
        busy.start()
        try:
            time.sleep(0.3)
            ran = self.service('a')
        finally:
            stop.set()
            busy.join(30)
        self.assertEqual(ran.returncode, EXIT_OK, ran.stdout + ran.stderr)
        self.assertIn('skipped', ran.stdout)
        after = self.metrics('a')
        self.assertRegex(after, r'diskbench_scheduled_skipped\{device="ata-Lab_SSD_1000_DBF0001",'
                                r'model="Lab SSD 1000",serial="DBF0001",reason="busy"\} 1')
        busy_ratio = float(re.search(r'diskbench_scheduled_busy_ratio\{device="ata-Lab_SSD_1000_DBF0001"'
                                     r'[^}]*\} (\S+)', after).group(1))
        self.assertGreater(busy_ratio, 0.5)
        stamp = re.compile(r'diskbench_run_timestamp_seconds\{[^}]*kind="profile"\} (\S+)')
        self.assertEqual(stamp.search(after).group(1), stamp.search(before).group(1),
                         'the skipped device\'s last figures are served on, with their time')
        self.promtool_check(self.machines['a']['output'])

        # Two node_exporters and a Prometheus with the shipped rules.
        ports = {}
        for machine, m in self.machines.items():
            ports[machine] = free_port()
            self.stack._spawn(f'node-exporter-{machine}', [
                NODE_EXPORTER, f'--web.listen-address=127.0.0.1:{ports[machine]}',
                '--collector.disable-defaults', '--collector.textfile',
                f'--collector.textfile.directory={m["textfile"]}'])
        prom_dir = tempfile.mkdtemp(prefix='prometheus-', dir=self.stack.tmp)
        shutil.copy(RULES, os.path.join(prom_dir, 'diskbench-alerts.yml'))
        targets = ', '.join(f"'127.0.0.1:{p}'" for p in ports.values())
        with open(os.path.join(prom_dir, 'prometheus.yml'), 'w') as f:
            f.write(f'''global:
  scrape_interval: 1s
  evaluation_interval: 1s
rule_files: ['diskbench-alerts.yml']
scrape_configs:
  - job_name: node
    static_configs:
      - targets: [{targets}]
''')
        prom_port = free_port()
        self.stack._spawn('prometheus', [
            PROMETHEUS, f'--config.file={prom_dir}/prometheus.yml', f'--storage.tsdb.path={prom_dir}/data',
            f'--web.listen-address=127.0.0.1:{prom_port}'], cwd=prom_dir)
        api = f'http://127.0.0.1:{prom_port}/api/v1'

        def query(expr):
            url = f'{api}/query?' + urllib.parse.urlencode({'query': expr})
            with urllib.request.urlopen(url, timeout=10) as reply:
                answer = json.load(reply)
            self.assertEqual(answer['status'], 'success', (expr, answer))
            return answer['data']['result']

        def answering():
            try:
                return len(query(f'diskbench_throughput_bytes_per_second{{test="{PROFILE_TEST}"}}')) == 2
            except OSError:
                return False
        started = time.monotonic()
        wait_until(answering, 60, what='Prometheus to have both machines\' throughput')
        print(f'Prometheus answered with both machines after {time.monotonic() - started:.1f} s',
              file=sys.stderr)

        series = query(f'diskbench_throughput_bytes_per_second{{test="{PROFILE_TEST}"}}')
        print('query diskbench_throughput_bytes_per_second{test="SEQ1M Q1T1"}:\n'
              + '\n'.join(json.dumps(s, sort_keys=True) for s in series), file=sys.stderr)
        by_device = {s['metric']['device']: s for s in series}
        self.assertEqual(set(by_device), {by_id for _, by_id in DRIVES.values()})
        for machine, (serial, by_id) in DRIVES.items():
            labels = by_device[by_id]['metric']
            self.assertEqual(labels['instance'], f'127.0.0.1:{ports[machine]}')
            self.assertEqual((labels['model'], labels['serial'], labels['kind'], labels['op']),
                             (MODEL, serial, 'profile', 'read'))
        fast_rate = float(by_device[DRIVES['a'][1]]['value'][1])
        slow_rate = float(by_device[DRIVES['b'][1]]['value'][1])
        print(f'SEQ1M Q1T1: healthy {fast_rate / 1e6:.1f} MB/s, slow {slow_rate / 1e6:.1f} MB/s',
              file=sys.stderr)
        for s in query('diskbench_latency_seconds{kind="seek",quantile="0.99"}'):
            print(f'seek p99 {s["metric"]["device"]}: {float(s["value"][1]) * 1000:.2f} ms',
                  file=sys.stderr)

        def alerts(name):
            return {a['metric']['device']: a['metric']['alertstate']
                    for a in query(f'ALERTS{{alertname="{name}"}}')}
        wait_until(lambda: DRIVES['b'][1] in alerts('DiskbenchThroughputBelowModelMedian'), 30,
                   what='the slow drive\'s throughput alert')
        below = alerts('DiskbenchThroughputBelowModelMedian')
        print(f'ALERTS DiskbenchThroughputBelowModelMedian: {below}', file=sys.stderr)
        self.assertIn(below[DRIVES['b'][1]], ('pending', 'firing'))
        self.assertNotIn(DRIVES['a'][1], below)
        hot = alerts('DiskbenchDriveTooHot')
        self.assertIn(hot.get(DRIVES['b'][1]), ('pending', 'firing'), hot)
        self.assertNotIn(DRIVES['a'][1], hot)

        # The dashboard: JSON, every expression valid PromQL here, every
        # metric it queries in this real scrape.
        with open(DASHBOARD) as f:
            dashboard = json.load(f)
        exprs = []

        def collect(node):
            if isinstance(node, dict):
                if isinstance(node.get('expr'), str):
                    exprs.append(node['expr'])
                for value in node.values():
                    collect(value)
            elif isinstance(node, list):
                for value in node:
                    collect(value)
        collect(dashboard.get('panels', []))
        self.assertTrue(exprs, 'the dashboard queries nothing')
        scraped = set(requests_names(api))
        queried = set()
        for expr in exprs:
            concrete = (expr.replace('$model', '.*').replace('$device', '.*')
                        .replace('$__range', '1h').replace('$__interval', '15s'))
            self.assertNotIn('$', concrete, f'a variable the test does not know in {expr!r}')
            query(concrete)
            queried |= set(re.findall(r'\bdiskbench_[a-z_]+', expr))
        missing = queried - scraped - NEEDS_HARDWARE
        self.assertFalse(missing, f'the dashboard queries metrics no scrape has: {sorted(missing)}')

    def test_4_publish_refuses_a_textfile_directory_its_parent_owner_swapped(self):
        """Debian's layout: /var/lib/prometheus belongs to the prometheus
        user, node-exporter/ in it to root. The root step (--publish, the
        real binary) writes there; when prometheus (played by the test
        user) puts a symbolic link to another directory (a stand-in for
        /etc/logrotate.d) or a directory of its own in node-exporter's
        place, it refuses and writes nothing anywhere; staged text that is
        not diskbench's metrics is refused too, keeping the published file."""
        m = self.machines['a']
        base = tempfile.mkdtemp(prefix='debian-layout-', dir=self.stack.tmp)
        os.chmod(base, 0o755)
        prometheus = os.path.join(base, 'prometheus')
        textfile = os.path.join(prometheus, 'node-exporter')
        logrotate = os.path.join(base, 'logrotate.d')
        for d in (prometheus, textfile, logrotate):
            os.mkdir(d)
            os.chmod(d, 0o755)
        os.chown(prometheus, self.uid, self.gid)
        output = os.path.join(textfile, 'diskbench.prom')
        config = os.path.join(m['etc'], 'debian-layout.conf')
        with open(config, 'w') as f:
            f.write(config_text(DRIVES['a'][0], output))
        os.chmod(config, 0o644)
        real = ('# HELP diskbench_scheduled_last_run_timestamp_seconds When the last scheduled run ended.\n'
                '# TYPE diskbench_scheduled_last_run_timestamp_seconds gauge\n'
                '# UNIT diskbench_scheduled_last_run_timestamp_seconds seconds\n'
                'diskbench_scheduled_last_run_timestamp_seconds 1800000100\n'
                'diskbench_scheduled_skipped{device="ata-Lab_SSD_1000_DBF0001",model="Lab \\"SSD\\" 1000",'
                'serial="DBF0001",reason="busy"} 1\n# EOF\n')

        def stage(text):
            # As the service's user writes it: its own file in its own directory.
            with open(m['staged'], 'w') as f:
                f.write(text)
            os.chown(m['staged'], self.uid, self.gid)

        def publish():
            return run([CTL, 'scheduled', '--config', config, '--publish', m['staged']], check=False,
                       timeout=60, env=dict(os.environ, LC_ALL='C.UTF-8'))

        def as_prometheus(*argv):
            run(['runuser', '-u', USER, '--'] + list(argv), timeout=30)

        stage(real)
        published = publish()
        self.assertEqual(published.returncode, EXIT_OK, published.stderr)
        with open(output) as f:
            self.assertEqual(f.read(), real)
        facts = os.stat(output)
        self.assertEqual((facts.st_uid, facts.st_mode & 0o777), (0, 0o644))

        # A symbolic link in node-exporter's place.
        as_prometheus('mv', textfile, textfile + '.old')
        as_prometheus('ln', '-s', logrotate, textfile)
        stage(real)
        refused = publish()
        self.assertEqual(refused.returncode, EXIT_FILE, refused.stdout + refused.stderr)
        self.assertIn(f'{textfile} is a symbolic link', refused.stderr)
        self.assertEqual(os.listdir(logrotate), [])
        self.assertTrue(os.path.exists(m['staged']))

        # A directory of prometheus' own in its place.
        as_prometheus('rm', textfile)
        as_prometheus('mkdir', '-m', '0755', textfile)
        refused = publish()
        self.assertEqual(refused.returncode, EXIT_FILE, refused.stdout + refused.stderr)
        self.assertIn(f'{textfile} belongs to another user', refused.stderr)
        self.assertEqual(os.listdir(textfile), [])

        # Back as it was: what the staged text may be.
        as_prometheus('rmdir', textfile)
        as_prometheus('mv', textfile + '.old', textfile)
        for forged, line in (('# TYPE diskbench_iops gauge\nnode_filesystem_avail_bytes{mountpoint="/"} 1e15\n'
                              '# EOF\n', 2),
                             ('/var/log/*.log {\n    postrotate\n        touch /tmp/owned\n    endscript\n}\n'
                              '# EOF\n', 1),
                             ('diskbench_iops{__name__="node_load1"} 99\n# EOF\n', 1)):
            stage(forged)
            refused = publish()
            self.assertEqual(refused.returncode, EXIT_FILE, refused.stdout + refused.stderr)
            self.assertIn(f"{m['staged']}:{line}: not a line of diskbench's metrics", refused.stderr)
            with open(output) as f:
                self.assertEqual(f.read(), real, 'the published file was changed')
        self.assertEqual(os.listdir(textfile), ['diskbench.prom'])
        self.assertEqual(os.listdir(logrotate), [])

        stage(real.replace('1800000100', '1800000200'))
        published = publish()
        self.assertEqual(published.returncode, EXIT_OK, published.stderr)
        self.assertFalse(os.path.exists(m['staged']))
        with open(output) as f:
            self.assertIn('diskbench_scheduled_last_run_timestamp_seconds 1800000200\n', f.read())


def requests_names(api):
    with urllib.request.urlopen(f'{api}/label/__name__/values', timeout=10) as reply:
        return json.load(reply)['data']


if __name__ == '__main__':
    harness.main()
