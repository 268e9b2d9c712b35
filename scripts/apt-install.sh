#!/usr/bin/env bash
# Installs Debian packages with apt-get, with progress: as root, or through passwordless sudo.
# Usage: apt-install.sh <label for the log lines> <package>...
set -euo pipefail
label="$1"
shift
sudo=""
if [ "$(id -u)" != 0 ]; then
  if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then sudo="sudo -n"; else
    echo "[$label] apt-get needs root: run 'sudo apt-get install $*'" >&2
    exit 1
  fi
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq || echo "[$label] apt-get update failed; trying the package lists we have"
$sudo apt-get install -y -q --no-install-recommends "$@" 2>&1 |
  grep --line-buffered -E '^(Get|Unpacking|Setting up)' | sed -u "s/^/[$label] /" || true
