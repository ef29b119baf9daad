# SPDX-License-Identifier: GPL-3.0-or-later
"""The bus names, object paths and interfaces the stack talks to."""

BUS_NAME = 'org.diskbench.DiskBench1'
MANAGER_PATH = '/org/diskbench/DiskBench1'
DEVICES_PATH = MANAGER_PATH + '/devices'
MANAGER_IFACE = 'org.diskbench.DiskBench1.Manager'
DEVICE_IFACE = 'org.diskbench.DiskBench1.Device'
JOB_IFACE = 'org.diskbench.DiskBench1.Job'
ERROR_PREFIX = 'org.diskbench.DiskBench1.Error.'
OBJECT_MANAGER_IFACE = 'org.freedesktop.DBus.ObjectManager'
PROPERTIES_IFACE = 'org.freedesktop.DBus.Properties'
UDISKS_NAME = 'org.freedesktop.UDisks2'
POLKIT_NAME = 'org.freedesktop.PolicyKit1'
