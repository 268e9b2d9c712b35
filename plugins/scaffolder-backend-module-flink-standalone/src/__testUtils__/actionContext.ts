import type { LoggerService } from '@backstage/backend-plugin-api';
import {
  createMockDirectory,
  type MockDirectory,
} from '@backstage/backend-test-utils';
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

/**
 * Every line any action context of this test file logged, every level, with its metadata: for
 * checks that no credential ever reaches a task's log.
 */
export const allLogLines: string[] = [];

/** Metadata as text; errors whole (a credential may hide in a message or stack). */
function logMeta(meta: unknown): string {
  return (
    JSON.stringify(meta, (_key, value) =>
      value instanceof Error
        ? { name: value.name, message: value.message, stack: value.stack }
        : value,
    ) ?? ''
  );
}

/** A logger for the services an action uses (the cluster service), into `allLogLines`. */
export function capturingLogger(
  fields: Record<string, unknown> = {},
): LoggerService {
  const line = (level: string) => (message: string, meta?: unknown) => {
    allLogLines.push(`${level} ${message} ${logMeta({ ...fields, meta })}`);
  };
  return {
    error: line('error'),
    warn: line('warn'),
    info: line('info'),
    debug: line('debug'),
    child: more => capturingLogger({ ...fields, ...more }),
  };
}

/**
 * The workspaces made for a test file, removed after it. createMockDirectory removes its own
 * only outside CI (`CI` set: it counts on a machine thrown away after the run), and CI here runs
 * on a machine that stays.
 */
const workspaces: MockDirectory[] = [];
afterAll(() => {
  for (const workspace of workspaces.splice(0)) workspace.remove();
});

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
  workspaces.push(workspace);
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
  for (const level of ['info', 'warn', 'error', 'debug'] as const) {
    jest.spyOn(ctx.logger, level).mockImplementation(((
      message: string,
      meta?: unknown,
    ) => {
      if (level !== 'debug') log.push(message);
      allLogLines.push(`${level} ${message} ${logMeta(meta)}`);
    }) as any);
  }
  return { ctx, workspace, outputs, log };
}
