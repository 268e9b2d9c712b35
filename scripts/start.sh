#!/usr/bin/env bash
# npm start: the example app with both plugins (see scripts/start.ts). Bootstraps Node, installs
# dependencies, builds the control-plane binaries, installs the real node's host packages and
# builds its images when they are missing (each step says what it does and how long it takes).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here/.."
source scripts/node-env.sh
source scripts/ensure-deps.sh
export PATH="$PWD/node_modules/.bin:$PATH"
bash packages/testenv/scripts/build-binaries.sh
if [ ! -f app-config.local.yaml ] || ! grep -q 'clusterLocatorMethods' app-config.local.yaml; then
  bash packages/testenv/scripts/ensure-real-node.sh
  bash packages/testenv/images/build-images.sh build 2.2 1.20
fi
exec tsx scripts/start.ts
