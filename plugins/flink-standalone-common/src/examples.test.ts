import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
// The examples live at the repository root, outside any package.
// eslint-disable-next-line @backstage/no-relative-monorepo-imports
import { listExamples, renderExample } from '../../../scripts/examples';
import { renderClusterYaml } from './render';

const examples = listExamples();
const VALIDATOR = resolve(__dirname, '../../../scripts/validate-manifests.mjs');
const scratch = mkdtempSync(join(tmpdir(), 'flink-examples-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface ValidationReport {
  file: string;
  objects: number;
  errors: string[];
}

/** Runs the OpenAPI validation in a child Node (the validators are ESM-only). */
function validate(files: string[]): ValidationReport[] {
  try {
    return JSON.parse(
      execFileSync(process.execPath, [VALIDATOR, ...files], {
        encoding: 'utf8',
      }),
    );
  } catch (error) {
    const stdout = (error as { stdout?: string }).stdout;
    if (stdout) return JSON.parse(stdout);
    throw error;
  }
}

describe('examples/clusters', () => {
  it('holds the specs a platform team would use', () => {
    expect(examples.length).toBeGreaterThanOrEqual(6);
  });

  it.each(examples.map(e => [e.specFile.split('/').pop(), e] as const))(
    '%s: the checked-in rendering matches the renderer (npm run examples:render regenerates it)',
    (_name, example) => {
      expect(existsSync(example.renderedFile)).toBe(true);
      expect(readFileSync(example.renderedFile, 'utf8')).toBe(
        renderExample(example),
      );
    },
  );

  it('every rendered object of every example validates against the Kubernetes OpenAPI schema', () => {
    const reports = validate(examples.map(e => e.renderedFile));
    expect(reports).toHaveLength(examples.length);
    for (const report of reports) {
      expect(report.objects).toBeGreaterThanOrEqual(5);
      expect(report.errors).toEqual([]);
    }
  });

  it('the schema check catches a violation (it is not vacuous)', () => {
    const broken = readFileSync(examples[0].renderedFile, 'utf8').replace(
      /replicas: \d+/,
      'replicas: three',
    );
    const file = join(mkdtempSync(join(scratch, 'manifests-')), 'broken.yaml');
    writeFileSync(file, broken);
    const [report] = validate([file]);
    expect(report.errors.join('\n')).toMatch(/replicas/);
  });
});

describe('npm run render (the command for GitOps users)', () => {
  const script = resolve(__dirname, '../../../scripts/render.ts');
  const run = (args: string[], input?: string) => {
    try {
      const stdout = execFileSync(
        process.execPath,
        ['--import', 'tsx', script, ...args],
        {
          encoding: 'utf8',
          input,
          stdio: ['pipe', 'pipe', 'pipe'],
        },
      );
      return { status: 0, stdout, stderr: '' };
    } catch (error) {
      const failed = error as {
        status: number;
        stdout: string;
        stderr: string;
      };
      return {
        status: failed.status,
        stdout: failed.stdout,
        stderr: failed.stderr,
      };
    }
  };

  it('prints the manifests of a spec file', () => {
    const example = examples.find(e => e.specFile.endsWith('minimal.yaml'))!;
    const result = run([example.specFile]);
    expect(result.status).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(
      renderClusterYaml(readFileSync(example.specFile, 'utf8')),
    );
    // The checked-in rendering is the same output under a header line.
    expect(renderExample(example)).toMatch(
      /^# Rendered from minimal\.yaml.*\n---\n/,
    );
    expect(renderExample(example).endsWith(result.stdout)).toBe(true);
  });

  it.each([[[]], [['a.yaml', 'b.yaml']], [['--help']]])(
    'prints its usage and exits 2 for arguments %j',
    args => {
      const result = run(args);
      expect(result).toEqual({
        status: 2,
        stdout: '',
        stderr: 'usage: npm run render -- <spec.yaml | ->\n',
      });
    },
  );

  it('names a spec file that does not exist and exits 1', () => {
    const missing = join(mkdtempSync(join(scratch, 'spec-')), 'nope.yaml');
    const result = run([missing]);
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `render failed: ENOENT: no such file or directory, open '${missing}'\n`,
    );
  });

  it('reads the spec from stdin with "-"', () => {
    const example = examples.find(e => e.specFile.endsWith('minimal.yaml'))!;
    const spec = readFileSync(example.specFile, 'utf8');
    const result = run(['-'], spec);
    expect(result.status).toBe(0);
    expect(result.stdout).toBe(renderClusterYaml(spec));
  });

  it('prints every problem and exits non-zero for an invalid spec on stdin', () => {
    const result = run(
      ['-'],
      'name: Bad_Name\nnamespace: x\nflinkVersion: "1.18"\n',
    );
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('Invalid Flink cluster spec (2 problems)');
    expect(result.stderr).toContain('- name: must be a DNS-1035 label');
    expect(result.stderr).toContain(
      '- flinkVersion: must be one of the supported Flink versions',
    );
  });
});
