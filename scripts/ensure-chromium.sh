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
echo "[chromium] installing Debian's chromium with apt-get (about 100 MB, 1-2 minutes)"
started=$SECONDS
bash "$(dirname "$0")/apt-install.sh" chromium chromium fonts-liberation
if [ ! -x /usr/bin/chromium ]; then
  echo "[chromium] apt-get did not install /usr/bin/chromium" >&2
  exit 1
fi
echo "[chromium] installed $(/usr/bin/chromium --version) in $((SECONDS - started)) s"
