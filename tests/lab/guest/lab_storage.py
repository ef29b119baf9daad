# SPDX-License-Identifier: GPL-3.0-or-later
"""The guest's hardware, brought up as a booted system would: the disk
drivers, udevd with a coldplug of everything the kernel found, and the
storage stacks users build on their disks (md RAID1 with LUKS2 on it and
LVM on that; dm-flakey and dm-delay over halves of one disk)."""

import json
import os
import subprocess
import time

DRIVERS = ['nvme', 'ahci', 'sd_mod', 'usb-storage', 'uas', 'xhci-pci', 'ehci-pci', 'virtio_scsi',
           'virtio_blk', 'raid1', 'dm-crypt', 'dm-flakey', 'dm-delay', 'dm-mod']
UDEVD = '/lib/systemd/systemd-udevd'
LUKS_KEY = b'diskbench lab key, not a secret\n'
# What the stacks are called, for the tests.
MD = '/dev/md/lab'
CRYPT = 'labcrypt'
VG, LV = 'labvg', 'data'
FLAKEY, DELAY = 'labflakey', 'labdelay'


def sh(*argv, check=True, timeout=120, input=None):
    res = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=input is None
                         or isinstance(input, str), input=input, timeout=timeout)
    if check and res.returncode != 0:
        raise RuntimeError(f'{" ".join(argv)} failed ({res.returncode}): {res.stdout}')
    return res.stdout


class Hardware:
    def __init__(self, out):
        self.out = out
        with open(os.path.join(out, 'drives.json')) as f:
            self.truth = json.load(f)
        self.udevd = None
        self.nodes = {}        # the lab's drive name -> /dev node
        self.built = []        # undo steps, last first

    def bring_up(self):
        for module in DRIVERS:
            sh('modprobe', module)
        # udevd as a daemon of its own session; the stack (devtools/stack)
        # uses a udevd that runs rather than starting one.
        log = open(os.path.join(self.out, 'udevd.log'), 'ab')
        self.udevd = subprocess.Popen([UDEVD], stdout=log, stderr=subprocess.STDOUT,
                                      stdin=subprocess.DEVNULL, start_new_session=True)
        log.close()
        deadline = time.monotonic() + 30
        while subprocess.run(['udevadm', 'control', '--ping'], stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL).returncode != 0:
            if time.monotonic() > deadline:
                raise RuntimeError('systemd-udevd did not answer')
            time.sleep(0.1)
        sh('udevadm', 'trigger', '--action=add', '--type=subsystems')
        sh('udevadm', 'trigger', '--action=add', '--type=devices')
        sh('udevadm', 'settle', '--timeout=120', timeout=150)
        self.find_nodes()
        self.build_stacks()
        sh('udevadm', 'settle', '--timeout=60', timeout=90)

    def find_nodes(self):
        serials = {v['serial']: k for k, v in self.truth.items()}
        listing = json.loads(sh('lsblk', '--json', '--nodeps', '-o', 'PATH,SERIAL'))
        for dev in listing['blockdevices']:
            name = serials.get(dev.get('serial') or '')
            if name:
                self.nodes[name] = dev['path']
        missing = [n for n in self.truth if n not in self.nodes and n != 'hot']
        if missing:
            raise RuntimeError(f'drives not found by serial: {missing}; lsblk: {listing}')

    def node(self, name):
        return self.nodes[name]

    def build_stacks(self):
        a, b = self.nodes['raid-a'], self.nodes['raid-b']
        # --assume-clean: a resync would write both members for a minute
        # under TCG and tell the tests nothing.
        sh('mdadm', '--create', MD, '--run', '--level=1', '--raid-devices=2', '--metadata=1.2',
           '--assume-clean', '--homehost=diskbench-lab', a, b)
        self.built.append(['mdadm', '--stop', MD])
        key = '/run/lab-luks.key'
        with open(key, 'wb') as f:
            f.write(LUKS_KEY)
        # PBKDF2 with few iterations: Argon2's memory-hard default takes
        # seconds under TCG, and this key guards nothing.
        sh('cryptsetup', 'luksFormat', '--batch-mode', '--type', 'luks2', '--pbkdf', 'pbkdf2',
           '--pbkdf-force-iterations', '1000', '--key-file', key, MD)
        sh('cryptsetup', 'open', '--key-file', key, MD, CRYPT)
        self.built.append(['cryptsetup', 'close', CRYPT])
        crypt = f'/dev/mapper/{CRYPT}'
        sh('pvcreate', '--yes', crypt)
        sh('vgcreate', '--yes', VG, crypt)
        sh('lvcreate', '--yes', '--zero', 'n', '-n', LV, '-l', '100%FREE', VG)
        self.built.append(['vgchange', '-an', VG])
        dm = self.nodes['dm']
        sectors = int(sh('blockdev', '--getsz', dm).strip())
        half = sectors // 2
        # dm-flakey up for an hour, down never: a healthy disk behind the
        # target (its failing mode is the tests' to switch on).
        sh('dmsetup', 'create', FLAKEY, '--table', f'0 {half} flakey {dm} 0 3600 0')
        self.built.append(['dmsetup', 'remove', FLAKEY])
        sh('dmsetup', 'create', DELAY, '--table', f'0 {half} delay {dm} {half} 20')
        self.built.append(['dmsetup', 'remove', DELAY])

    def tear_down(self):
        for step in reversed(self.built):
            subprocess.run(step, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if self.udevd and self.udevd.poll() is None:
            self.udevd.terminate()
            try:
                self.udevd.wait(10)
            except subprocess.TimeoutExpired:
                self.udevd.kill()
