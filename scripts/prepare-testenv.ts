/**
 * Fetches what the tests' real Flink needs (its runtime classpath, assembled with Maven into the
 * cache) before the tests run, so no test spends its timeout on a download.
 */
import {
  FLINK_VERSIONS,
  ensureFlinkClasspath,
} from '@flink-standalone/testenv';

async function main() {
  for (const version of Object.values(FLINK_VERSIONS)) {
    const started = Date.now();
    await ensureFlinkClasspath(version, line =>
      console.log(`[flink ${version}] ${line}`),
    );
    console.log(
      `[flink ${version}] classpath ready (${((Date.now() - started) / 1000).toFixed(1)} s)`,
    );
  }
}

main().catch(error => {
  console.error(error);
  process.exit(1);
});
