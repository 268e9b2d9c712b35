/** Regenerates examples/clusters/*.rendered.yaml from the specs beside them. */
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { basename } from 'node:path';
import { listExamples, renderExample } from './examples';

for (const example of listExamples()) {
  const rendered = renderExample(example);
  const previous = existsSync(example.renderedFile)
    ? readFileSync(example.renderedFile, 'utf8')
    : '';
  writeFileSync(example.renderedFile, rendered);
  console.log(
    `${previous === rendered ? 'unchanged' : 'updated  '} ${basename(example.renderedFile)}`,
  );
}
