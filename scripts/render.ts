/**
 * Renders a cluster spec without Backstage, for GitOps: `npm run render -- spec.yaml` prints the
 * manifests (or `-` reads the spec from stdin); an invalid spec prints every problem and exits 1.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  ClusterSpecError,
  renderClusterYaml,
} from '@flink-standalone/plugin-flink-standalone-common';

const [file, ...rest] = process.argv.slice(2);
if (!file || rest.length > 0 || file === '--help') {
  console.error('usage: npm run render -- <spec.yaml | ->');
  process.exit(2);
}
// npm runs scripts from the repository root; resolve the path from where the user stands.
const path =
  file === '-' ? 0 : resolve(process.env.INIT_CWD ?? process.cwd(), file);
try {
  process.stdout.write(renderClusterYaml(readFileSync(path, 'utf8')));
} catch (error) {
  console.error(
    error instanceof ClusterSpecError
      ? error.message
      : `render failed: ${(error as Error).message}`,
  );
  process.exit(1);
}
