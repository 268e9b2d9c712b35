#!/usr/bin/env bash
# Fails on any import cycle (type-only imports included) in the packages' sources, the
# benchmarks and the scripts. Cycles make module initialisation order-dependent and the
# bundled declarations harder to follow.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
exec dpdm --no-tree --no-warning --exit-code circular:1 \
  'plugins/*/src/**/*.{ts,tsx}' 'packages/*/src/**/*.{ts,tsx}' \
  'plugins/*/bench/**/*.ts' 'scripts/**/*.ts'
