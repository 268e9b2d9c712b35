#!/usr/bin/env bash
# Runs a command with the project's Node (bootstrapped if needed) and installed dependencies.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/node-env.sh"
source "$here/ensure-deps.sh"
export PATH="$here/../node_modules/.bin:$PATH"
# Tools run through here never wait for a keyboard (backstage-cli test would start in watch mode).
export CI="${CI:-true}"
exec "$@"
