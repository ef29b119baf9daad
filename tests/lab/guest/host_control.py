# SPDX-License-Identifier: GPL-3.0-or-later
"""The guest's side of the lab's control channel: QMP commands the host
runs on the guest's QEMU (plug a stick in, pull it out, set a drive's
SMART warning), asked over a virtio-serial port (tests/lab/lab_machine.py)."""

import glob
import json
import os

PORT_NAME = 'org.diskbench.lab.control'


def _port():
    link = f'/dev/virtio-ports/{PORT_NAME}'
    if os.path.exists(link):
        return link
    # Without udev's symlink: the vport whose name is ours.
    for name_file in glob.glob('/sys/class/virtio-ports/*/name'):
        if open(name_file).read().strip() == PORT_NAME:
            return '/dev/' + os.path.basename(os.path.dirname(name_file))
    raise RuntimeError(f'no virtio-serial port named {PORT_NAME}')


_stream = None


def qmp(command, **arguments):
    """Runs a QMP command on the host; its 'return', or raises with QMP's error."""
    global _stream
    if _stream is None:
        _stream = open(_port(), 'r+b', buffering=0)
    _stream.write((json.dumps({'execute': command, 'arguments': arguments}) + '\n').encode())
    line = b''
    while not line.endswith(b'\n'):
        chunk = _stream.read(1)
        if not chunk:
            raise RuntimeError('the host closed the control channel')
        line += chunk
    reply = json.loads(line)
    if 'error' in reply:
        raise RuntimeError(f'QMP {command} failed: {reply["error"]}')
    return reply.get('return')
