#!/usr/bin/env bash
# The whole test suite, as CI runs it: bootstraps Node and the dependencies when missing, then
# type-checks, checks that the example renderings are in sync, and runs every package's tests.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here/.."
source scripts/node-env.sh
source scripts/ensure-deps.sh
export PATH="$PWD/node_modules/.bin:$PATH"
export CI="${CI:-true}"

step() { echo; echo "[test] $*"; }
started=$SECONDS

step "Kubernetes control-plane binaries (built once from the Go module proxy, then cached)"
bash packages/testenv/scripts/build-binaries.sh

step "Flink runtime jars for the real Flink in the tests (fetched once with Maven, then cached)"
tsx scripts/prepare-testenv.ts

step "The real node's host packages: containerd, runc, CNI plugins, iptables, mmdebstrap (Debian, installed once)"
bash packages/testenv/scripts/ensure-real-node.sh

step "Container images for the real node: pause, Flink ${FLINK_STANDALONE_NODE_FLINK_VERSIONS:-2.2 1.20} (built once from Debian and PyPI, then cached)"
bash packages/testenv/images/build-images.sh build ${FLINK_STANDALONE_NODE_FLINK_VERSIONS:-2.2 1.20}

step "Chromium for the end-to-end browser test (Debian's package, installed once)"
bash scripts/ensure-chromium.sh

step "type check (tsc; also writes the declarations into dist-types for the package checks below)"
tsc

step "import cycles (dpdm): none in src, bench or scripts"
bash scripts/check-cycles.sh

step "formatting (prettier --check)"
prettier --check --log-level warn .

step "package metadata as backstage-cli repo fix --publish leaves it (pluginPackages, exports, files)"
backstage-cli repo fix --check --publish

step "API reports up to date (backstage-repo-tools api-reports --ci; npm run api-reports regenerates them)"
bash scripts/api-reports.sh --ci

step "packed packages: built, packed, installed outside the repo with their declared dependencies, type-checked with skipLibCheck false"
tsx scripts/pack-check/packCheck.ts --skip-tsc

step "lint"
backstage-cli repo lint

step "tests (jest via backstage-cli)"
results="$(mktemp -d)/jest.json"
status=0
backstage-cli repo test --ci --json --outputFile="$results" || status=$?

step "the real node left nothing behind (processes, mounts, cgroups, bridge, iptables rules)"
host_failed=0
bash packages/testenv/scripts/check-host-clean.sh || { host_failed=1; status=1; }

if [ -f "$results" ]; then
  node -e '
    const r = require(process.argv[1]);
    const skipped = r.numPendingTests + r.numTodoTests;
    // A suite that fails to load runs no test: count it as one failure.
    const failed = r.numFailedTests + r.numRuntimeErrorTestSuites + Number(process.argv[2]);
    console.log(`\ntests: ${r.numPassedTests} passed, ${failed} failed` + (skipped ? `, ${skipped} skipped` : ""));
  ' "$results" "$host_failed"
else
  echo "tests: 0 passed, 1 failed (jest wrote no results)"
  status=1
fi
echo "[test] finished in $((SECONDS - started)) s"
exit "$status"
