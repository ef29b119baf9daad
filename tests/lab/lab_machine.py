# SPDX-License-Identifier: GPL-3.0-or-later
"""The lab's QEMU: the command line, its QMP monitor, and the control
channel through which the guest's tests ask the host for QMP commands
(plug a stick in, pull it out, set a drive's SMART warning).

The guest's root is the host's own, read-only over virtio-9p (no daemon of
its own, unlike virtiofs, and built into QEMU); the guest lays a tmpfs
overlay on it (guest/init)."""

import json
import os
import select
import socket
import subprocess
import threading
import time

from lab_log import log

CONTROL_PORT = 'org.diskbench.lab.control'


class Qmp:
    """A QMP client on a unix socket: one command at a time."""

    def __init__(self, path, timeout=30):
        deadline = time.monotonic() + timeout
        while True:
            try:
                self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                self.sock.connect(path)
                break
            except OSError:
                self.sock.close()
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
        self.file = self.sock.makefile('rw')
        self.lock = threading.Lock()
        self._read()                                  # the greeting
        self.execute('qmp_capabilities')

    def _read(self):
        while True:
            line = self.file.readline()
            if not line:
                raise ConnectionError('QEMU closed its QMP socket')
            message = json.loads(line)
            if 'event' in message:
                # The failing disk's read errors are expected by the
                # hundred: not worth a line each.
                if message['event'] != 'BLOCK_IO_ERROR':
                    log(f'QMP event {message["event"]} {json.dumps(message.get("data", {}))}')
                continue
            return message

    def execute(self, command, **arguments):
        with self.lock:
            request = {'execute': command}
            if arguments:
                request['arguments'] = arguments
            self.file.write(json.dumps(request) + '\n')
            self.file.flush()
            return self._read()

    def close(self):
        self.sock.close()


class ControlRelay(threading.Thread):
    """Serves the guest's requests from the virtio-serial port: one JSON
    object per line, {"execute": ..., "arguments": ...}, answered with QMP's
    reply on one line."""

    def __init__(self, path, qmp):
        super().__init__(daemon=True)
        self.path = path
        self.qmp = qmp

    def run(self):
        try:
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            sock.connect(self.path)
            stream = sock.makefile('rw')
            for line in stream:
                if not line.strip():
                    continue
                request = json.loads(line)
                log(f'guest asks: {json.dumps(request)}')
                reply = self.qmp.execute(request['execute'], **request.get('arguments', {}))
                stream.write(json.dumps(reply) + '\n')
                stream.flush()
        except (OSError, ValueError, ConnectionError) as e:
            log(f'control channel closed: {e}')


def kvm_usable():
    """Whether /dev/kvm can make a VM at all; whether the guest then boots is
    found out by booting it (see Machine.boot)."""
    try:
        fd = os.open('/dev/kvm', os.O_RDWR | os.O_CLOEXEC)
    except OSError:
        return False
    os.close(fd)
    return True


class Machine:
    def __init__(self, kernel, initramfs, run_dir, out_dir, drive_args, guest_args,
                 stage2, memory_mib=1536, cpus=2):
        self.kernel = kernel
        self.initramfs = initramfs
        self.run_dir = run_dir
        self.out_dir = out_dir
        self.drive_args = drive_args
        self.guest_args = guest_args
        self.stage2 = stage2
        self.memory_mib = memory_mib
        self.cpus = cpus
        self.console = os.path.join(out_dir, 'console.log')
        self.qmp_path = os.path.join(run_dir, 'qmp.sock')
        self.control_path = os.path.join(run_dir, 'control.sock')
        self.process = None
        self.qmp = None

    def command(self, accel):
        cmdline = ' '.join([
            # loglevel 1: a failing disk's libata errors
            # (KERN_ERR) would flood the slow serial console; dmesg keeps them.
            'console=ttyS0', 'panic=-1', 'quiet', 'loglevel=1',
            # The lab's own init reads these from its environment.
            f'diskbench_lab_stage2={self.stage2}',
            f'diskbench_lab_args={",".join(self.guest_args)}',
        ])
        cpu = ['-accel', 'kvm', '-cpu', 'host'] if accel == 'kvm' else ['-accel', 'tcg', '-cpu', 'max']
        return [
            'qemu-system-x86_64', '-machine', 'q35', *cpu,
            '-m', str(self.memory_mib), '-smp', str(self.cpus),
            '-nodefaults', '-no-user-config', '-display', 'none', '-no-reboot',
            '-kernel', self.kernel.image, '-initrd', self.initramfs, '-append', cmdline,
            '-serial', f'file:{self.console}',
            '-qmp', f'unix:{self.qmp_path},server=on,wait=off',
            # The host's root, read-only; the unpacked kernel's modules; the
            # run's output folder, the only one the guest can write.
            '-fsdev', 'local,id=hostroot,path=/,security_model=none,readonly=on,multidevs=remap',
            '-device', 'virtio-9p-pci,fsdev=hostroot,mount_tag=hostroot',
            '-fsdev', f'local,id=modules,path={os.path.dirname(self.kernel.modules)},'
                      'security_model=none,readonly=on',
            '-device', 'virtio-9p-pci,fsdev=modules,mount_tag=modules',
            '-fsdev', f'local,id=labout,path={self.out_dir},security_model=none',
            '-device', 'virtio-9p-pci,fsdev=labout,mount_tag=labout',
            '-device', 'virtio-serial-pci,id=vserial',
            '-chardev', f'socket,id=control,path={self.control_path},server=on,wait=off',
            '-device', f'virtserialport,bus=vserial.0,chardev=control,name={CONTROL_PORT}',
            *self.drive_args,
        ]

    def start(self, accel):
        for path in (self.qmp_path, self.control_path, self.console):
            if os.path.exists(path):
                os.unlink(path)
        argv = self.command(accel)
        with open(os.path.join(self.out_dir, 'qemu.log'), 'ab') as qemu_log:
            self.process = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=qemu_log,
                                            stderr=subprocess.STDOUT)
        self.qmp = None
        self.qmp = Qmp(self.qmp_path)
        ControlRelay(self.control_path, self.qmp).start()

    def console_text(self):
        try:
            with open(self.console, errors='replace') as f:
                return f.read()
        except OSError:
            return ''

    def wait_console(self, marker, timeout):
        """True when marker appears on the console within timeout."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if marker in self.console_text():
                return True
            if self.process.poll() is not None:
                return False
            time.sleep(0.2)
        return False

    def wait(self, timeout):
        try:
            return self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return None

    def stop(self):
        if self.process and self.process.poll() is None:
            try:
                if self.qmp:
                    self.qmp.execute('quit')
            except (OSError, ConnectionError, ValueError):
                pass
            if self.wait(10) is None:
                self.process.kill()
                self.process.wait()
        if self.qmp:
            self.qmp.close()
            self.qmp = None

    def boot(self, accel_choice):
        """Starts the guest: with KVM when it reaches its init within 15 s
        (on some hosts QEMU aborts on a KVM MSR, or the guest hangs in the
        firmware), else with TCG. A host where KVM did not boot is
        remembered (KVM_VERDICT), so only its first run pays the try."""
        order = {'kvm': ['kvm'], 'tcg': ['tcg'],
                 'auto': (['kvm'] if kvm_usable() and not kvm_failed_before() else []) + ['tcg']}[accel_choice]
        for accel in order:
            log(f'booting the guest ({accel})')
            try:
                self.start(accel)
                booted = self.wait_console('lab init: switching', 15 if accel == 'kvm' else 120)
            except (OSError, ConnectionError, ValueError) as e:
                log(f'QEMU ({accel}) did not start: {e}')
                booted = False
            if booted:
                log(f'the guest reached its init ({accel})')
                return accel
            log(f'the guest did not reach its init with {accel}; QEMU said:\n'
                f'{read_text(os.path.join(self.out_dir, "qemu.log"))[-2000:]}'
                f'console:\n{self.console_text()[-3000:]}')
            self.stop()
            if accel == 'kvm':
                remember_kvm_failed()
        raise RuntimeError('the guest did not boot')


def read_text(path):
    try:
        with open(path, errors='replace') as f:
            return f.read()
    except OSError:
        return ''


# Where a failed KVM boot is remembered: this host's kernel, CPU and QEMU.
KVM_VERDICT = '/var/cache/diskbench-lab/kvm-did-not-boot'


def _host_identity():
    cpu = next((l.split(':', 1)[1].strip() for l in read_text('/proc/cpuinfo').splitlines()
                if l.startswith('model name')), '')
    qemu = subprocess.run(['qemu-system-x86_64', '--version'], stdout=subprocess.PIPE, text=True).stdout
    return f'{os.uname().release}|{cpu}|{qemu.splitlines()[0] if qemu else ""}'


def kvm_failed_before():
    return read_text(KVM_VERDICT).strip() == _host_identity()


def remember_kvm_failed():
    os.makedirs(os.path.dirname(KVM_VERDICT), exist_ok=True)
    with open(KVM_VERDICT, 'w') as f:
        f.write(_host_identity() + '\n')
