import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { resolvePackagePath } from '@backstage/backend-plugin-api';
import { parse } from 'yaml';

/** The software template this package ships (templates/flink-standalone-cluster). */
export const TEMPLATE_DIR = resolvePackagePath(
  '@flink-standalone/plugin-scaffolder-backend-module-flink-standalone',
  'templates/flink-standalone-cluster',
);

/** The example app's variant of it (examples/templates/flink-standalone-cluster). */
export const EXAMPLE_TEMPLATE_DIR = resolvePackagePath(
  '@flink-standalone/plugin-scaffolder-backend-module-flink-standalone',
  '../../examples/templates/flink-standalone-cluster',
);

/** Every file under a directory, recursively. */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap(entry =>
    entry.isDirectory()
      ? filesUnder(join(dir, entry.name))
      : [join(dir, entry.name)],
  );
}

/** The form values of sample-values.yaml, with overrides. */
export function sampleValues(overrides: Record<string, unknown> = {}) {
  return {
    ...parse(readFileSync(join(TEMPLATE_DIR, 'sample-values.yaml'), 'utf8')),
    ...overrides,
  };
}

/**
 * The body of `POST /api/scaffolder/v2/dry-run` for the template: the template entity, the
 * values, and the skeleton as the directory contents the dry run fetches from.
 */
export function templateDryRunBody(values: Record<string, unknown>) {
  const skeleton = join(TEMPLATE_DIR, 'skeleton');
  return {
    template: parse(readFileSync(join(TEMPLATE_DIR, 'template.yaml'), 'utf8')),
    values,
    secrets: {},
    directoryContents: filesUnder(skeleton).map(file => ({
      path: relative(TEMPLATE_DIR, file),
      base64Content: readFileSync(file).toString('base64'),
    })),
  };
}

/** The dry run's files, by path, as text. */
export function dryRunFiles(response: {
  directoryContents: { path: string; base64Content: string }[];
}): Record<string, string> {
  return Object.fromEntries(
    response.directoryContents.map(f => [
      f.path,
      Buffer.from(f.base64Content, 'base64').toString('utf8'),
    ]),
  );
}

/** The messages a dry run logged, one per line. */
export function dryRunLog(response: {
  log: { body: { message: string } }[];
}): string {
  return response.log.map(entry => entry.body.message).join('\n');
}
