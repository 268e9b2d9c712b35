#!/usr/bin/env bash
# Builds our plugins as npm ships them (backstage-cli package build: dist/), for the benchmark to
# run what an adopter's backend runs (see bench/builtPackages.ts). Declarations come from tsc's
# dist-types, which the build bundles. Skipped with BENCH_FROM_SOURCES=1.
set -euo pipefail
[[ "${BENCH_FROM_SOURCES:-}" == 1 ]] && exit 0
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
cd "$root"
start=$SECONDS
echo "[bench] building our plugins as npm ships them: tsc, then backstage-cli package build"
tsc
for package in flink-standalone-common flink-standalone-node flink-standalone-backend; do
  (cd "plugins/$package" && backstage-cli package build)
  echo "[bench] built plugins/$package/dist ($((SECONDS - start)) s)"
done
