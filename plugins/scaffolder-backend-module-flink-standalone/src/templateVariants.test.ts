import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse } from 'yaml';
import {
  EXAMPLE_TEMPLATE_DIR,
  TEMPLATE_DIR,
  filesUnder,
} from './__testUtils__/templateDryRun';

/**
 * The example app keeps a variant of the shipped template (its own cluster, claim templates and a
 * delivery through its own local:catalog:register action). Everything else must stay identical,
 * or the end-to-end test, which runs the variant, stops speaking for the shipped file.
 */

const read = (dir: string) =>
  parse(readFileSync(join(dir, 'template.yaml'), 'utf8'));

/** Where the variant may differ: its header comment names these (the repository field is conditional there). */
const EXAMPLE_ONLY_PROPERTIES = [
  'kubernetesCluster',
  'volume',
  'delivery',
  'repoUrl',
];
const EXAMPLE_ONLY_STEPS = ['register-local'];

function properties(template: any): Record<string, unknown> {
  return Object.fromEntries(
    template.spec.parameters.flatMap((page: any) =>
      Object.entries(page.properties).filter(
        ([key]) => !EXAMPLE_ONLY_PROPERTIES.includes(key),
      ),
    ),
  );
}

/** Page dependencies, but for the delivery's (the variant's repository field is conditional). */
function dependencies(template: any) {
  return template.spec.parameters.map((page: any) => {
    const { delivery, ...rest } = page.dependencies ?? {};
    return rest;
  });
}

/** Steps without their conditions: the variant's `if`s choose between its three deliveries. */
function steps(template: any) {
  return template.spec.steps
    .filter((step: any) => !EXAMPLE_ONLY_STEPS.includes(step.id))
    .map(({ if: _condition, ...step }: any) => step);
}

describe("the example app's template variant", () => {
  const shipped = read(TEMPLATE_DIR);
  const example = read(EXAMPLE_TEMPLATE_DIR);

  it('has the same skeleton, byte for byte', () => {
    const files = (dir: string) =>
      Object.fromEntries(
        filesUnder(join(dir, 'skeleton')).map(f => [
          relative(dir, f),
          readFileSync(f, 'utf8'),
        ]),
      );
    expect(files(EXAMPLE_TEMPLATE_DIR)).toEqual(files(TEMPLATE_DIR));
  });

  it('has the same form but for its cluster, default volume and deliveries', () => {
    expect(example.metadata).toEqual(shipped.metadata);
    expect(example.spec.parameters.map((page: any) => page.title)).toEqual(
      shipped.spec.parameters.map((page: any) => page.title),
    );
    expect(properties(example)).toEqual(properties(shipped));
    expect(dependencies(example)).toEqual(dependencies(shipped));
  });

  it('has the same steps and output but for its local registration', () => {
    expect(steps(example)).toEqual(steps(shipped));
    expect(example.spec.output).toEqual(shipped.spec.output);
    expect(shipped.spec.steps.map((step: any) => step.action)).not.toContain(
      'local:catalog:register',
    );
  });

  it('offers the same volumes and the shipped deliveries', () => {
    const property = (template: any, key: string) =>
      template.spec.parameters.find((page: any) => page.properties[key])
        .properties[key];
    expect([...property(example, 'volume').enum].sort()).toEqual(
      [...property(shipped, 'volume').enum].sort(),
    );
    expect(property(example, 'delivery').enum).toEqual(
      expect.arrayContaining(property(shipped, 'delivery').enum),
    );
  });
});
