#!/bin/sh
# Makes sure Debian's bubblewrap is installed for the tests that run stdio servers in a PID namespace of their own
# (the probe's and the app's). Installs it with apt-get when `bwrap` is not on PATH, through sudo only when not
# already root. Safe to run again: it does nothing when bwrap is there.
set -eu

if command -v bwrap >/dev/null 2>&1; then
  exit 0
fi

sh "$(dirname "$0")/apt-install.sh" ensure-bubblewrap bubblewrap "bwrap is missing"

if ! command -v bwrap >/dev/null 2>&1; then
  echo "ensure-bubblewrap: apt-get finished but bwrap is still missing" >&2
  exit 1
fi
