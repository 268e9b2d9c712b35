import { createTemplateAction } from '@backstage/plugin-scaffolder-node';
import {
  ClusterSpecError,
  SpecProblem,
  validateClusterSpec,
} from '@flink-standalone/plugin-flink-standalone-common';
import type { ClaimTemplates } from '../claimTemplates/ClaimTemplates';
import { readSpec } from './specSource';
import { specInputs } from './specInputs';
import { validateExamples } from './validate.examples';

/** @public */
export const VALIDATE_ACTION_ID = 'flink:standalone:validate';

/**
 * Every problem at once: the claim-template references and the spec's own rules. An entry whose
 * reference failed is judged without it: its `claimTemplate` field and the storage the template
 * would have given are the reference's problem, already reported.
 */
export function problemsOf(
  raw: unknown,
  claimTemplates: ClaimTemplates,
): SpecProblem[] {
  const { resolved, problems } = claimTemplates.resolveReporting(raw);
  const result = validateClusterSpec(resolved);
  if (result.valid) return problems;
  const failedEntries = problems.map(p => p.path.replace(/\.[^.]+$/, ''));
  const causedByReference = (path: string) =>
    failedEntries.some(
      entry => path === `${entry}.claimTemplate` || path === `${entry}.storage`,
    );
  return [
    ...problems,
    ...result.problems.filter(p => !causedByReference(p.path)),
  ];
}

/**
 * Spec in, problems out; nothing is written or applied.
 *
 * @public
 */
export function createValidateAction(options: {
  claimTemplates: ClaimTemplates;
}) {
  return createTemplateAction({
    id: VALIDATE_ACTION_ID,
    description:
      'Checks a Flink cluster spec (and its platform claim templates) and reports every problem with its field path. No side effects.',
    examples: validateExamples,
    supportsDryRun: true,
    schema: {
      input: {
        ...specInputs,
        failOnInvalid: z =>
          z
            .boolean()
            .optional()
            .describe(
              'Fail the step when the spec is invalid (default true); false only reports the problems as outputs',
            ),
      },
      output: {
        valid: z => z.boolean(),
        problems: z =>
          z
            .array(z.object({ path: z.string(), message: z.string() }))
            .describe('Every problem: field path and the rule it breaks'),
      },
    },
    async handler(ctx) {
      const raw = await readSpec(ctx.workspacePath, ctx.input);
      const problems = problemsOf(raw, options.claimTemplates);
      ctx.output('valid', problems.length === 0);
      ctx.output('problems', problems);
      if (problems.length === 0) {
        ctx.logger.info('The Flink cluster spec is valid');
        return;
      }
      const error = new ClusterSpecError(problems);
      if (ctx.input.failOnInvalid ?? true) throw error;
      ctx.logger.warn(error.message);
    },
  });
}
