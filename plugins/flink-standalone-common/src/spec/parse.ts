import { InputError } from '@backstage/errors';
import type { z } from 'zod';
import { ClusterSpec, clusterSpecSchema } from './schema';
import { unholdableKeys } from './unholdableKeys';

/**
 * One problem with a spec: where (`taskManager.volumeClaimTemplates[0].storage`) and which rule.
 *
 * @public
 */
export interface SpecProblem {
  path: string;
  message: string;
}

/**
 * A spec that breaks one or more rules. It is an `InputError`, so Backstage answers HTTP 400,
 * and it carries every problem, not just the first.
 *
 * @public
 */
export class ClusterSpecError extends InputError {
  readonly problems: SpecProblem[];

  constructor(problems: SpecProblem[]) {
    super(
      `Invalid Flink cluster spec (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n${problems
        .map(p => `  - ${p.path}: ${p.message}`)
        .join('\n')}`,
    );
    this.problems = problems;
  }
}

/** @public */
export type SpecValidation =
  | { valid: true; spec: ClusterSpec }
  | { valid: false; problems: SpecProblem[] };

function formatPath(path: readonly PropertyKey[]): string {
  return (
    path.reduce<string>((out, segment) => {
      if (typeof segment === 'number') return `${out}[${segment}]`;
      const key = String(segment);
      // Flink keys contain dots; quote them so the path stays readable.
      const part = /^[A-Za-z_$][\w$]*$/.test(key) ? key : `"${key}"`;
      return out ? `${out}.${part}` : part;
    }, '') || '(spec)'
  );
}

function toProblems(issues: readonly z.core.$ZodIssue[]): SpecProblem[] {
  return issues.flatMap(issue => {
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map(key => ({
        path: formatPath([...issue.path, key]),
        message:
          'is not a field of the cluster spec (unknown fields are rejected, not ignored)',
      }));
    }
    if (issue.code === 'invalid_type' && issue.input === undefined) {
      return [{ path: formatPath(issue.path), message: 'is required' }];
    }
    if (issue.code === 'invalid_key') {
      // A record key failed its own rule: report that rule, at the key.
      return toProblems(issue.issues).map(p => ({
        ...p,
        path: formatPath([...issue.path, String(issue.input)]),
      }));
    }
    return [{ path: formatPath(issue.path), message: issue.message }];
  });
}

/**
 * Checks a spec and reports every problem, without throwing.
 *
 * @public
 */
export function validateClusterSpec(input: unknown): SpecValidation {
  // reportInput tells a missing field from a wrong one; the input never leaves this function.
  const result = clusterSpecSchema.safeParse(input, { reportInput: true });
  const problems = result.success ? [] : toProblems(result.error.issues);
  // zod reports a __proto__ key of a strict object as an unknown field, and drops one of a map.
  const reported = new Set(problems.map(p => p.path));
  const dropped = unholdableKeys(input)
    .map(p => ({ path: formatPath(p.path), message: p.message }))
    .filter(p => !reported.has(p.path));
  return result.success && dropped.length === 0
    ? { valid: true, spec: result.data }
    : { valid: false, problems: [...problems, ...dropped] };
}

/**
 * The full spec with defaults, or a `ClusterSpecError` listing every problem.
 *
 * @public
 */
export function parseClusterSpec(input: unknown): ClusterSpec {
  const result = validateClusterSpec(input);
  if (!result.valid) {
    throw new ClusterSpecError(result.problems);
  }
  return result.spec;
}
