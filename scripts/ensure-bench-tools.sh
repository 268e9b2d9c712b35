#!/usr/bin/env bash
# The benchmark's instruments, Debian's packages, installed once with apt-get when missing:
# wrk, the load generator (a C program in a process of its own), tcpdump, which timestamps
# the requests and answers at the backend's socket (the latency "at the wire"), and PostgreSQL's
# server, the backend's database as production runs it.
set -euo pipefail
ensure() {
  local command="$1" package="$2" size="$3"
  if command -v "$command" >/dev/null; then
    echo "[$command] using $(command -v "$command")"
    return
  fi
  echo "[$command] installing Debian's $package with apt-get ($size)"
  bash "$(dirname "$0")/apt-install.sh" "$command" "$package"
  command -v "$command" >/dev/null || { echo "[$command] apt-get did not install $package" >&2; exit 1; }
  echo "[$command] installed $(command -v "$command")"
}
ensure wrk wrk "under 1 MB"
ensure tcpdump tcpdump "about 1.5 MB with libpcap"
# Debian puts the server's programs in /usr/lib/postgresql/<version>/bin, not on PATH.
if command -v postgres >/dev/null || ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then
  echo "[postgres] using $(command -v postgres || ls /usr/lib/postgresql/*/bin/postgres | tail -1)"
else
  echo "[postgres] installing Debian's postgresql with apt-get (about 60 MB with its libraries)"
  bash "$(dirname "$0")/apt-install.sh" postgres postgresql
  ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1 || { echo "[postgres] apt-get did not install postgresql" >&2; exit 1; }
  echo "[postgres] installed $(ls /usr/lib/postgresql/*/bin/postgres | tail -1)"
fi
