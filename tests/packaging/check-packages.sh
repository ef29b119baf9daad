#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Proves the Debian packages: builds them from the source package in a
# clean Debian 12 root, runs lintian, installs them with apt into another
# clean root, boots it with systemd and uses them as a normal user, then
# removes, purges and reinstalls them. tests/packaging/README.md has the
# steps; tests/packaging/check_packages.py does them.
#
# Usage (root): tests/packaging/check-packages.sh [--jobs N] [--debs DIR]
set -eu

if [ "$(id -u)" != 0 ]; then
    echo "check-packages.sh: needs root (it makes roots, boots containers, attaches loop devices)" >&2
    exit 2
fi

# command, the Debian package that has it
missing=
for pair in mmdebstrap:mmdebstrap systemd-nspawn:systemd-container nsenter:util-linux \
            losetup:mount mkfs.ext4:e2fsprogs dpkg-source:dpkg-dev lintian:lintian \
            appstreamcli:appstream desktop-file-validate:desktop-file-utils git:git \
            python3:python3 pgrep:procps; do
    command -v "${pair%%:*}" >/dev/null 2>&1 || missing="$missing ${pair#*:}"
done
if [ -n "$missing" ]; then
    echo "check-packages.sh: missing Debian packages:$missing" >&2
    echo "    apt-get install --no-install-recommends$missing" >&2
    exit 2
fi

exec /usr/bin/python3 "$(dirname "$0")/check_packages.py" "$@"
