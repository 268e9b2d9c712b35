import { createMockDirectory } from '@backstage/backend-test-utils';
import { createMockActionContext } from '@backstage/plugin-scaffolder-node-test-utils';
import type { ActionContext } from '@backstage/plugin-scaffolder-node';
import type { JsonObject } from '@backstage/types';
import { ClaimTemplates } from '../claimTemplates/ClaimTemplates';

/** The claim templates a platform team would define, for the tests. */
export const testClaimTemplates = () =>
  ClaimTemplates.of([
    {
      name: 'fast-ssd-50g',
      storage: '50Gi',
      storageClassName: 'fast-ssd',
      accessModes: ['ReadWriteOnce'],
      labels: { 'backup.example.com/tier': 'none' },
      annotations: { 'example.com/cost-center': 'streaming' },
      allowedFor: ['taskManager'],
    },
    {
      name: 'standard-10g',
      storage: '10Gi',
      allowedFor: ['jobManager', 'taskManager'],
    },
  ]);

/** A mock action context with a real workspace folder, the outputs it received and its log. */
export function actionContext(
  input: JsonObject,
  extra: Partial<
    Pick<
      ActionContext<JsonObject>,
      'isDryRun' | 'signal' | 'getInitiatorCredentials'
    >
  > = {},
) {
  const workspace = createMockDirectory();
  const outputs: Record<string, unknown> = {};
  const log: string[] = [];
  // The mock takes only some fields from its options; the rest are set here.
  const ctx: ActionContext<JsonObject> = {
    ...createMockActionContext({ input, workspacePath: workspace.path }),
    output: (name: string, value: unknown) => {
      outputs[name] = value;
    },
    ...extra,
  };
  for (const level of ['info', 'warn', 'error'] as const) {
    jest
      .spyOn(ctx.logger, level)
      .mockImplementation(((message: string) => log.push(message)) as any);
  }
  return { ctx, workspace, outputs, log };
}
