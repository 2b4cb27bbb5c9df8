#!/bin/sh
# Installs one Debian package with apt-get for a test prerequisite, through sudo only when not already root.
# Used by ensure-chromium.sh, ensure-postgres.sh and ensure-bubblewrap.sh, which first check whether their programs are there.
#   apt-install.sh <caller> <package> <what is missing>
# Exits 1 with a message naming the caller when apt-get (or a way to run it as root) is not available.
set -eu

CALLER="$1"
PACKAGE="$2"
MISSING="$3"

if ! command -v apt-get >/dev/null 2>&1; then
  echo "$CALLER: $MISSING and apt-get is not available; install $PACKAGE yourself" >&2
  exit 1
fi

if [ "$(id -u)" -eq 0 ]; then
  SUDO=""
elif command -v sudo >/dev/null 2>&1; then
  SUDO="sudo"
else
  echo "$CALLER: $MISSING; run 'apt-get install -y $PACKAGE' as root" >&2
  exit 1
fi

echo "$CALLER: installing $PACKAGE with apt-get" >&2
export DEBIAN_FRONTEND=noninteractive
# A fresh machine may have no package lists yet: read them only when the first attempt fails.
if ! $SUDO apt-get install -y "$PACKAGE"; then
  $SUDO apt-get update
  $SUDO apt-get install -y "$PACKAGE"
fi
