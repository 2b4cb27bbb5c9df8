#!/bin/sh
# Makes sure Debian's Chromium is installed for the browser tests (test/browser). It is the system browser,
# never one a test tool downloads. Installs it with apt-get when /usr/bin/chromium (or $CHROMIUM_PATH) is
# missing, through sudo only when not already root. Safe to run again: it does nothing when the browser is there.
set -eu

CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$CHROMIUM" ]; then
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "ensure-chromium: $CHROMIUM is missing and apt-get is not available; install Chromium and set CHROMIUM_PATH" >&2
  exit 1
fi

if [ "$(id -u)" -eq 0 ]; then
  SUDO=""
elif command -v sudo >/dev/null 2>&1; then
  SUDO="sudo"
else
  echo "ensure-chromium: $CHROMIUM is missing; run 'apt-get install -y chromium' as root" >&2
  exit 1
fi

echo "ensure-chromium: installing chromium with apt-get" >&2
export DEBIAN_FRONTEND=noninteractive
# A fresh machine may have no package lists yet: read them only when the first attempt fails.
if ! $SUDO apt-get install -y chromium; then
  $SUDO apt-get update
  $SUDO apt-get install -y chromium
fi

if [ ! -x "$CHROMIUM" ]; then
  echo "ensure-chromium: apt-get finished but $CHROMIUM is still missing" >&2
  exit 1
fi
