#!/usr/bin/env bash
# Debian's Chromium for the end-to-end browser test (playwright-core drives it; Playwright's own
# browser downloads are not reachable here). Installs it once with apt-get when it is missing.
# CHROMIUM_PATH names another Chromium or Chrome binary instead.
set -euo pipefail
chromium="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$chromium" ]; then
  echo "[chromium] using $chromium ($("$chromium" --version 2>/dev/null || echo 'version unknown'))"
  exit 0
fi
if [ -n "${CHROMIUM_PATH:-}" ]; then
  echo "[chromium] CHROMIUM_PATH=$CHROMIUM_PATH is not an executable" >&2
  exit 1
fi
sudo=""
if [ "$(id -u)" != 0 ]; then
  if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then sudo="sudo -n"; else
    echo "[chromium] /usr/bin/chromium is missing and apt-get needs root: run 'sudo apt-get install chromium', or set CHROMIUM_PATH" >&2
    exit 1
  fi
fi
echo "[chromium] installing Debian's chromium with apt-get (about 100 MB, 1-2 minutes)"
started=$SECONDS
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq || echo "[chromium] apt-get update failed; trying the package lists we have"
$sudo apt-get install -y -q --no-install-recommends chromium fonts-liberation 2>&1 |
  grep --line-buffered -E '^(Get|Unpacking|Setting up chromium)' | sed -u 's/^/[chromium] /' || true
if [ ! -x /usr/bin/chromium ]; then
  echo "[chromium] apt-get did not install /usr/bin/chromium" >&2
  exit 1
fi
echo "[chromium] installed $(/usr/bin/chromium --version) in $((SECONDS - started)) s"
