#!/bin/bash
# The lab guest's PID 1 once the host's root (read-only, under a tmpfs
# overlay) is /: the kernel's filesystems, the unpacked kernel's modules,
# the folder the host reads the results from, the disk drivers; then
# lab_guest.py, whose exit status goes to the host in that folder. Ends
# by powering the guest off, whatever happened.
set -u
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mkdir -p /dev/pts /dev/shm
mount -t devpts -o gid=5,mode=620,ptmxmode=666 devpts /dev/pts
mount -t tmpfs -o mode=1777 shm /dev/shm
mount -t tmpfs -o mode=0755 run /run
mount -t tmpfs -o mode=1777 tmp /tmp
mkdir -p /run/lock /run/lab-out
# Powering off must not load anything from the 9p root, which goes away.
cp /bin/busybox /run/busybox
# The modules of the guest's kernel, which the host's /lib/modules lacks.
mkdir -p /lib/modules
mount -t 9p -o trans=virtio,version=9p2000.L,ro modules /lib/modules
# The one folder the guest may write on the host (the run's output folder).
mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 labout /run/lab-out
mount -t configfs configfs /sys/kernel/config 2>/dev/null
# sd-bus (busctl, diskbenchd) reads the caller's cgroup: without cgroup2
# mounted it fails with ENOMEDIUM.
mount -t cgroup2 cgroup2 /sys/fs/cgroup
hostname diskbench-lab
ip link set lo up 2>/dev/null

echo "lab stage2: $(uname -r), $(nproc) CPUs, $(awk '/MemTotal/ {print $2 " kB"}' /proc/meminfo)"
here=$(dirname "$(readlink -f "$0")")
status=1
/usr/bin/python3 "$here/lab_guest.py" $diskbench_lab_args
status=$?
echo "$status" > /run/lab-out/guest-status
sync
umount /run/lab-out
echo "lab stage2: lab_guest.py exited with $status; powering off"
exec /run/busybox poweroff -f
