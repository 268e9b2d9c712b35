/**
 * Our plugins as an adopter's backend runs them: the JavaScript `backstage-cli package build`
 * writes to each package's `dist/` (what npm ships), not their TypeScript sources through `tsx`.
 * `tsx` compiles with esbuild's keepNames, which wraps each named function as it is created to
 * keep its name; a built package has no such wrapping (a 21-pod status took 57–76 µs to compute
 * built, 69–97 µs through `tsx`, in a hot loop).
 *
 * Imported first by the benchmark: from then on, a require of one of our packages (by its name,
 * or the backend plugin's module from its test utilities) loads the built file. The benchmark's
 * own harness (test backend, loaders) stays TypeScript. `BENCH_FROM_SOURCES=1` runs our plugins
 * from their sources through `tsx` instead, as the runs before 2026-12-07 did.
 */
import { existsSync, statSync } from 'node:fs';
import { registerHooks } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const PLUGINS = resolve(__dirname, '../..');

/** Our packages by name, with the built file their sources' entry point becomes. */
const BUILT: Record<string, string> = {
  '@flink-standalone/plugin-flink-standalone-common': join(
    PLUGINS,
    'flink-standalone-common/dist/index.cjs.js',
  ),
  '@flink-standalone/plugin-flink-standalone-node': join(
    PLUGINS,
    'flink-standalone-node/dist/index.cjs.js',
  ),
};

/** The backend plugin's source module that the test utilities import, and its built form. */
const BACKEND_PLUGIN_SOURCE = join(
  PLUGINS,
  'flink-standalone-backend/src/plugin.ts',
);
const BACKEND_PLUGIN_BUILT = join(
  PLUGINS,
  'flink-standalone-backend/dist/plugin.cjs.js',
);

/** Each built file, checked to exist (`npm run bench:observer` builds them first). */
function builtPackageFiles(): string[] {
  const files = [...Object.values(BUILT), BACKEND_PLUGIN_BUILT];
  for (const file of files) {
    if (!existsSync(file)) {
      throw new Error(
        `${file} is missing: npm run bench:observer builds our packages first`,
      );
    }
  }
  return files;
}

function useBuiltPackages(): void {
  builtPackageFiles();
  registerHooks({
    resolve(specifier, context, nextResolve) {
      const built = BUILT[specifier];
      if (built) return { url: pathToFileURL(built).href, shortCircuit: true };
      const resolved = nextResolve(specifier, context);
      return resolved.url === pathToFileURL(BACKEND_PLUGIN_SOURCE).href
        ? { ...resolved, url: pathToFileURL(BACKEND_PLUGIN_BUILT).href }
        : resolved;
    },
  });
}

const FROM_SOURCES = process.env.BENCH_FROM_SOURCES === '1';

if (!FROM_SOURCES) useBuiltPackages();

/** Where our plugins' code comes from in this run, with when it was built: a setting to print. */
export function ourPluginsCode(): string {
  if (FROM_SOURCES) {
    return 'our plugins from their TypeScript sources through tsx (BENCH_FROM_SOURCES=1), whose esbuild keeps function names by wrapping each named function';
  }
  const builtAt = Math.max(
    ...builtPackageFiles().map(file => statSync(file).mtimeMs),
  );
  return `our plugins as built by backstage-cli package build (dist/, as npm ships them), built ${new Date(builtAt).toISOString()}`;
}
