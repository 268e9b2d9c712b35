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

# The browser journeys run alone, after the rest: on 2 cores, their real Flink clusters, the app
# and Chromium next to realPods.test.ts's real Flink clusters left pages waiting past their
# bounds (two CI failures, each a different step of a journey).
results="$(mktemp -d)"
trap 'rm -rf "$results"' EXIT # the results are read below; nothing stays in /tmp
status=0
touch "$results/started" # what the tests leave in the temporary folder is checked below
step "tests (jest via backstage-cli): every package but the browser journeys"
backstage-cli repo test --ci --json --outputFile="$results/packages.json" \
  --ignoreProjects @flink-standalone/e2e || status=$?
step "tests (jest via backstage-cli): the browser journeys (packages/e2e)"
backstage-cli repo test --ci --json --outputFile="$results/e2e.json" \
  --selectProjects @flink-standalone/e2e || status=$?

step "the real node and the tests left nothing behind (processes, mounts, cgroups, bridge, iptables rules, temporary folders)"
host_failed=0
bash packages/testenv/scripts/check-host-clean.sh "$results/started" || { host_failed=1; status=1; }

node -e '
  const fs = require("node:fs");
  const [dir, hostFailed] = process.argv.slice(1);
  let passed = 0, failed = Number(hostFailed), skipped = 0;
  for (const run of ["packages", "e2e"]) {
    const file = `${dir}/${run}.json`;
    // A run that wrote no results ran nothing: count it as one failure.
    if (!fs.existsSync(file)) { failed += 1; console.log(`jest wrote no results for ${run}`); continue; }
    const r = JSON.parse(fs.readFileSync(file, "utf8"));
    passed += r.numPassedTests;
    // A suite that fails to load runs no test: count it as one failure.
    failed += r.numFailedTests + r.numRuntimeErrorTestSuites;
    skipped += r.numPendingTests + r.numTodoTests;
  }
  console.log(`\ntests: ${passed} passed, ${failed} failed` + (skipped ? `, ${skipped} skipped` : ""));
  process.exit(failed > 0 ? 1 : 0);
' "$results" "$host_failed" || status=1
echo "[test] finished in $((SECONDS - started)) s"
exit "$status"
