import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { renderClusterYaml } from '@flink-standalone/plugin-flink-standalone-common';

/** The example cluster specs and the rendered manifests checked in next to them. */
export const EXAMPLES_DIR = resolve(__dirname, '../examples/clusters');

export interface Example {
  specFile: string;
  renderedFile: string;
}

export function listExamples(): Example[] {
  return readdirSync(EXAMPLES_DIR)
    .filter(file => file.endsWith('.yaml') && !file.endsWith('.rendered.yaml'))
    .sort()
    .map(file => ({
      specFile: join(EXAMPLES_DIR, file),
      renderedFile: join(
        EXAMPLES_DIR,
        file.replace(/\.yaml$/, '.rendered.yaml'),
      ),
    }));
}

/** What the rendered file of an example must contain. */
export function renderExample(example: Example): string {
  const source = example.specFile.slice(EXAMPLES_DIR.length + 1);
  return `# Rendered from ${source} by \`npm run examples:render\`. Do not edit: a test fails on drift.\n${renderClusterYaml(
    readFileSync(example.specFile, 'utf8'),
  )}`;
}
