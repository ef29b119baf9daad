# SPDX-License-Identifier: GPL-3.0-or-later
"""The lab's drives: QEMU's emulated controllers and disks, each with the
facts it was given (the truth the guest's tests compare diskbench with).

Every image is a sparse file in the run's own folder; QEMU opens nothing
else. Serial numbers are how the guest finds each drive again."""

import json
import os

MiB = 1 << 20

# Sectors (512 bytes) whose reads fail on the "bad" disk: blkdebug answers
# EIO for any read that covers one, so the kernel's ATA error handling and
# the SCSI layer report it as a real drive's medium error would be. Away
# from the start and the end, which the kernel's partition scan and udev's
# blkid read at boot.
BAD_SECTORS = [40_000, 40_001, 90_123]


class Drive:
    def __init__(self, name, size_mib, serial, qemu_args, truth, image_options=''):
        self.name = name              # the lab's name: also the image's file name
        self.size = size_mib * MiB
        self.serial = serial
        self.qemu_args = qemu_args    # a function of the image path: QEMU arguments
        self.truth = truth            # what diskbench should report
        self.image_options = image_options

    def image(self, folder):
        return os.path.join(folder, f'{self.name}.img')


def _drive_opt(drive_id, path, extra=''):
    return ['-drive', f'if=none,id={drive_id},file={path},format=raw,cache=none,aio=threads{extra}']


def drives():
    """The lab's drives, in the order they are attached."""
    return [
        # NVMe behind a PCIe root port whose link QEMU reports as 8 GT/s x4:
        # on q35's root bus itself a device has no link to read.
        Drive('nvme', 192, 'DBLAB-NVME-0001', lambda p: [
            '-device', 'pcie-root-port,id=rp1,bus=pcie.0,chassis=1,slot=1,x-speed=8,x-width=4',
            *_drive_opt('nvme', p),
            '-device', 'nvme,id=nvme0,drive=nvme,serial=DBLAB-NVME-0001,bus=rp1'],
            {'model': 'QEMU NVMe Ctrl', 'bus': 'nvme', 'rotational': False, 'removable': False,
             'link': 'PCIe 3.0 x4', 'link_limit': 3938, 'temperature_source': 'nvme-hwmon',
             'health_source': 'nvme'}),
        # q35's own AHCI controller (ich9-ahci, bus ide.N). QEMU's SATA link
        # says 1.5 Gbps whatever the disk. The HDD is throttled like one.
        Drive('hdd', 192, 'DBLAB-HDD-0001', lambda p: [
            *_drive_opt('hdd', p, ',throttling.iops-total=150,throttling.bps-total=100000000'),
            '-device', 'ide-hd,bus=ide.0,drive=hdd,model=DiskBench Lab HDD,serial=DBLAB-HDD-0001,'
                       'rotation_rate=7200'],
            {'model': 'DiskBench Lab HDD', 'bus': 'sata', 'rotational': True, 'removable': False,
             'link': 'SATA 1.5 Gbps', 'link_limit': 150, 'health_source': 'ata'}),
        Drive('ssd', 192, 'DBLAB-SSD-0001', lambda p: [
            *_drive_opt('ssd', p),
            '-device', 'ide-hd,bus=ide.1,drive=ssd,model=DiskBench Lab SSD,serial=DBLAB-SSD-0001,'
                       'rotation_rate=1'],
            {'model': 'DiskBench Lab SSD', 'bus': 'sata', 'rotational': False, 'removable': False,
             'link': 'SATA 1.5 Gbps', 'link_limit': 150, 'health_source': 'ata'}),
        Drive('bad', 64, 'DBLAB-BAD-0001', lambda p: [
            '-drive', f'if=none,id=bad,format=raw,file=blkdebug:{p}.blkdebug:{p}',
            '-device', 'ide-hd,bus=ide.2,drive=bad,model=DiskBench Lab Failing,serial=DBLAB-BAD-0001,'
                       'rotation_rate=1'],
            {'model': 'DiskBench Lab Failing', 'bus': 'sata', 'rotational': False,
             'bad_sectors': BAD_SECTORS}),
        # md RAID1 members.
        Drive('raid-a', 96, 'DBLAB-RAID-A', lambda p: [
            *_drive_opt('raida', p),
            '-device', 'ide-hd,bus=ide.3,drive=raida,model=DiskBench Lab RAID,serial=DBLAB-RAID-A'],
            {'model': 'DiskBench Lab RAID', 'bus': 'sata'}),
        Drive('raid-b', 96, 'DBLAB-RAID-B', lambda p: [
            *_drive_opt('raidb', p),
            '-device', 'ide-hd,bus=ide.4,drive=raidb,model=DiskBench Lab RAID,serial=DBLAB-RAID-B'],
            {'model': 'DiskBench Lab RAID', 'bus': 'sata'}),
        # USB 3 (xhci) with UAS, USB 2 (EHCI) with Bulk-Only Transport.
        Drive('uas', 96, 'DBLAB-UAS-0001', lambda p: [
            '-device', 'qemu-xhci,id=xhci',
            *_drive_opt('uas', p),
            '-device', 'usb-uas,id=uas,bus=xhci.0,serial=DBLAB-UAS-0001',
            '-device', 'scsi-hd,bus=uas.0,scsi-id=0,lun=0,drive=uas,vendor=DBLab,product=UAS Stick,'
                       'serial=DBLAB-UAS-0001'],
            {'bus': 'usb', 'removable': None, 'link': 'USB 5Gbps (5000 Mbps)', 'link_limit': 500,
             'usb_protocol': 'uas'}),
        Drive('bot', 96, 'DBLAB-BOT-0001', lambda p: [
            '-device', 'usb-ehci,id=ehci',
            *_drive_opt('bot', p),
            '-device', 'usb-storage,bus=ehci.0,drive=bot,serial=DBLAB-BOT-0001,removable=on'],
            {'bus': 'usb', 'removable': True, 'link': 'USB 2 (480 Mbps)', 'link_limit': 60,
             'usb_protocol': 'bot'}),
        # A SCSI disk (virtio-scsi) whose volatile write cache is on.
        Drive('scsi', 96, 'DBLAB-SCSI-0001', lambda p: [
            '-device', 'virtio-scsi-pci,id=vscsi',
            *_drive_opt('scsi', p),
            '-device', 'scsi-hd,bus=vscsi.0,drive=scsi,vendor=DBLab,product=Cached SCSI,'
                       'serial=DBLAB-SCSI-0001,write-cache=on'],
            {'bus': 'scsi', 'write_cache': 'write back'}),
        # Under the guest's dm-flakey and dm-delay devices (one half each).
        Drive('dm', 96, 'DBLAB-DM-0001', lambda p: [
            *_drive_opt('dm', p),
            '-device', 'virtio-blk-pci,drive=dm,serial=DBLAB-DM-0001'],
            {'bus': 'virtio'}),
    ]


# Plugged in and pulled out through QMP while the guest runs (test_hotplug).
HOTPLUG = Drive('hot', 96, 'DBLAB-HOT-0001', lambda p: _drive_opt('hot', p),
                {'bus': 'usb', 'link': 'USB 5Gbps (5000 Mbps)'})


def write_blkdebug_config(path):
    with open(path, 'w') as f:
        for sector in BAD_SECTORS:
            f.write('[inject-error]\n'
                    'event = "read_aio"\n'
                    'errno = "5"\n'
                    f'sector = "{sector}"\n'
                    'once = "off"\n\n')


def make_images(folder):
    """Creates every image (sparse) and the blkdebug rules; returns the QEMU
    arguments and the truth as JSON for the guest."""
    args = []
    truth = {}
    for drive in drives() + [HOTPLUG]:
        path = drive.image(folder)
        with open(path, 'wb') as f:
            f.truncate(drive.size)
        if drive.name == 'bad':
            write_blkdebug_config(f'{path}.blkdebug')
        args += drive.qemu_args(path)
        truth[drive.name] = dict(drive.truth, serial=drive.serial, size=drive.size)
    with open(os.path.join(folder, 'drives.json'), 'w') as f:
        json.dump(truth, f, indent=1)
    return args
