import {
  actionContext,
  testClaimTemplates,
} from '../__testUtils__/actionContext';
import { createValidateAction } from './validate';

const action = createValidateAction({ claimTemplates: testClaimTemplates() });

describe('flink:standalone:validate', () => {
  it('says a good spec is valid', async () => {
    const { ctx, outputs, workspace } = actionContext({
      specFile: 'flink-cluster.yaml',
    });
    workspace.setContent({
      'flink-cluster.yaml':
        'name: orders\nnamespace: streaming\nflinkVersion: "2.2"\ntaskManager:\n  volumeClaimTemplates:\n    - name: flink-data\n      claimTemplate: fast-ssd-50g\n',
    });
    await action.handler(ctx as any);
    expect(outputs).toEqual({ valid: true, problems: [] });
    expect(Object.keys(workspace.content() ?? {})).toEqual([
      'flink-cluster.yaml',
    ]);
  });

  it('fails with every problem: the spec rules and the unknown claim template together', async () => {
    const { ctx, outputs } = actionContext({
      spec: {
        name: 'Orders',
        flinkVersion: '2.2',
        taskManager: {
          volumeClaimTemplates: [
            { name: 'd', claimTemplate: 'nope' },
            { name: 'e', claimTemplate: 'fast-ssd-50g', mountPath: 'rel' },
          ],
        },
      },
    });
    const error = await action.handler(ctx as any).catch(e => e);
    expect(error.name).toBe('InputError');
    expect(outputs.valid).toBe(false);
    const problems = outputs.problems as { path: string; message: string }[];
    expect(problems.map(p => p.path).sort()).toEqual(
      [
        'name',
        'namespace',
        'taskManager.volumeClaimTemplates[0].claimTemplate',
        'taskManager.volumeClaimTemplates[1].mountPath',
      ].sort(),
    );
    // The failed reference is reported once, as a reference: not also as an unknown field.
    expect(
      problems.find(p => p.path.endsWith('[0].claimTemplate'))!.message,
    ).toMatch(/"nope" is not a claim template defined by the platform/);
    expect(error.message).toMatch(/Invalid Flink cluster spec \(4 problems\)/);
  });

  it('reports the problems as outputs when asked not to fail', async () => {
    const { ctx, outputs, log } = actionContext({
      spec: { name: 'orders' },
      failOnInvalid: false,
    });
    await action.handler(ctx as any);
    expect(outputs.valid).toBe(false);
    expect(outputs.problems).toEqual(
      expect.arrayContaining([
        { path: 'namespace', message: 'is required' },
        {
          path: 'flinkVersion',
          message: expect.stringMatching(/supported Flink versions/),
        },
      ]),
    );
    expect(log.join('\n')).toMatch(/namespace: is required/);
  });
});
