#!/bin/sh
# Makes sure Debian's Chromium is installed for the browser tests (test/browser). It is the system browser,
# never one a test tool downloads. Installs it with apt-get when /usr/bin/chromium (or $CHROMIUM_PATH) is
# missing, through sudo only when not already root. Safe to run again: it does nothing when the browser is there.
set -eu

CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$CHROMIUM" ]; then
  exit 0
fi

sh "$(dirname "$0")/apt-install.sh" ensure-chromium chromium "$CHROMIUM is missing (set CHROMIUM_PATH to use another browser)"

if [ ! -x "$CHROMIUM" ]; then
  echo "ensure-chromium: apt-get finished but $CHROMIUM is still missing" >&2
  exit 1
fi
