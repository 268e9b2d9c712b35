#!/usr/bin/env bash
# npm start: the example app with both plugins (see scripts/start.ts). Bootstraps Node, installs
# dependencies and builds the control-plane binaries when they are missing.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here/.."
source scripts/node-env.sh
source scripts/ensure-deps.sh
export PATH="$PWD/node_modules/.bin:$PATH"
bash packages/testenv/scripts/build-binaries.sh
exec tsx scripts/start.ts
