#!/usr/bin/env bash
# wrk, the benchmark's load generator (Debian's package, a C program in a process of its own):
# installed once with apt-get when it is missing.
set -euo pipefail
if command -v wrk >/dev/null; then
  echo "[wrk] using $(command -v wrk) ($(wrk --version 2>&1 | head -1 | sed "s/ Copyright.*//"))"
  exit 0
fi
echo "[wrk] installing Debian's wrk with apt-get (under 1 MB)"
bash "$(dirname "$0")/apt-install.sh" wrk wrk
command -v wrk >/dev/null || { echo "[wrk] apt-get did not install wrk" >&2; exit 1; }
echo "[wrk] installed $(command -v wrk)"
