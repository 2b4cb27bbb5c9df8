#!/bin/sh
# Makes sure PostgreSQL's server programs (initdb, pg_ctl, postgres) are installed for the tests that start a
# throwaway cluster of their own (test/setup/postgres.ts). It is Debian's package, installed with apt-get when
# initdb is missing, through sudo only when not already root. Safe to run again: it does nothing when the
# programs are there. Debian keeps them in /usr/lib/postgresql/<version>/bin, off the PATH; that is looked at too.
set -eu

has_initdb() {
  if [ -n "${PG_BIN:-}" ] && [ -x "$PG_BIN/initdb" ]; then return 0; fi
  if command -v initdb >/dev/null 2>&1; then return 0; fi
  for candidate in /usr/lib/postgresql/*/bin/initdb; do
    if [ -x "$candidate" ]; then return 0; fi
  done
  return 1
}

if has_initdb; then
  exit 0
fi

sh "$(dirname "$0")/apt-install.sh" ensure-postgres postgresql "initdb is missing (set PG_BIN to another PostgreSQL bin folder)"

if ! has_initdb; then
  echo "ensure-postgres: apt-get finished but initdb is still missing" >&2
  exit 1
fi
