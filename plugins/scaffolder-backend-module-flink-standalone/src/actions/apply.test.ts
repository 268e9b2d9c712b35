import { mockServices } from '@backstage/backend-test-utils';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import { flinkStandaloneApplyPermission } from '@flink-standalone/plugin-flink-standalone-common';
import {
  ClusterRegistry,
  FlinkKubernetesCluster,
  FlinkStandaloneClusters,
  KubeHttp,
} from '@flink-standalone/plugin-flink-standalone-node';
import {
  actionContext,
  testClaimTemplates,
} from '../__testUtils__/actionContext';
import { createApplyAction } from './apply';

const spec = { name: 'orders', namespace: 'streaming', flinkVersion: '2.1' };

/** A Kubernetes cluster whose every request is recorded and refused. */
function recordingCluster(allowedNamespaces?: string[]) {
  const json = jest
    .fn()
    .mockRejectedValue(new Error('no Kubernetes in this test'));
  const cluster: FlinkKubernetesCluster = {
    name: 'local',
    http: { json } as unknown as KubeHttp,
    allowedNamespaces,
    flinkRest: { mode: 'proxy', timeoutMs: 1000 },
  };
  return { cluster, requests: json };
}

function setup(
  result: AuthorizeResult.ALLOW | AuthorizeResult.DENY,
  allowedNamespaces?: string[],
) {
  const { cluster, requests } = recordingCluster(allowedNamespaces);
  const permissions = mockServices.permissions.mock({
    authorize: jest.fn().mockResolvedValue([{ result }]),
  });
  const action = createApplyAction({
    claimTemplates: testClaimTemplates(),
    clusters: FlinkStandaloneClusters.fromRegistry(
      ClusterRegistry.of([cluster]),
    ),
    permissions,
  });
  return { action, permissions, requests };
}

const input = { spec, cluster: 'local', entityRef: 'orders' };

describe('flink:standalone:apply before Kubernetes', () => {
  it('fails without the apply permission on the component, before any Kubernetes call', async () => {
    const { action, permissions, requests } = setup(AuthorizeResult.DENY);
    const { ctx } = actionContext(input);
    const error = await action.handler(ctx as any).catch(e => e);

    expect(error.name).toBe('NotAllowedError');
    expect(error.message).toMatch(
      /component:default\/orders.*flink\.standalone\.apply/,
    );
    expect(permissions.authorize).toHaveBeenCalledWith(
      [
        {
          permission: flinkStandaloneApplyPermission,
          resourceRef: 'component:default/orders',
        },
      ],
      { credentials: await ctx.getInitiatorCredentials() },
    );
    expect(requests).not.toHaveBeenCalled();
  });

  it('fails for a namespace the cluster does not allow, before any Kubernetes call', async () => {
    const { action, requests } = setup(AuthorizeResult.ALLOW, ['analytics']);
    const { ctx } = actionContext(input);
    const error = await action.handler(ctx as any).catch(e => e);

    expect(error.name).toBe('NotAllowedError');
    expect(error.message).toMatch(/Namespace "streaming" is not allowed/);
    expect(requests).not.toHaveBeenCalled();
  });

  it('fails an unknown Kubernetes cluster, before any Kubernetes call', async () => {
    const { action, requests } = setup(AuthorizeResult.ALLOW);
    const { ctx } = actionContext({ ...input, cluster: 'elsewhere' });
    await expect(action.handler(ctx as any)).rejects.toMatchObject({
      name: 'NotFoundError',
    });
    expect(requests).not.toHaveBeenCalled();
  });

  it('fails an invalid spec with its field paths before asking for permission', async () => {
    const { action, permissions, requests } = setup(AuthorizeResult.ALLOW);
    const { ctx } = actionContext({
      ...input,
      spec: { ...spec, taskManager: { slots: 0 } },
    });
    const error = await action.handler(ctx as any).catch(e => e);

    expect(error.name).toBe('InputError');
    expect(error.problems).toEqual([
      { path: 'taskManager.slots', message: 'must be at least 1' },
    ]);
    expect(permissions.authorize).not.toHaveBeenCalled();
    expect(requests).not.toHaveBeenCalled();
  });

  it.each([false, true])(
    'refuses upgradeMode savepoint without a savepoint directory, before any Kubernetes call (dry run: %s)',
    async isDryRun => {
      const { action, requests } = setup(AuthorizeResult.ALLOW);
      const { ctx } = actionContext({ ...input, upgradeMode: 'savepoint' });
      const error = await action
        .handler({ ...ctx, isDryRun } as any)
        .catch(e => e);

      expect(error.name).toBe('InputError');
      expect(error.message).toBe(
        "upgradeMode: savepoint needs a savepoint directory: set flinkConfiguration['execution.checkpointing.savepoint-dir'] (or give savepointDirectory)",
      );
      expect(requests).not.toHaveBeenCalled();
    },
  );

  it('refuses an upgrade mode for manifests, which have no spec to plan from', async () => {
    const { action, requests } = setup(AuthorizeResult.ALLOW);
    const { ctx } = actionContext({
      cluster: 'local',
      entityRef: 'orders',
      manifestsPath: 'manifests',
      upgradeMode: 'last-state',
    });
    const error = await action.handler(ctx as any).catch(e => e);
    expect(error.name).toBe('InputError');
    expect(error.message).toMatch(
      /^upgradeMode: last-state needs spec or specFile/,
    );
    expect(requests).not.toHaveBeenCalled();
  });

  it('wants exactly one source of objects', async () => {
    const { action } = setup(AuthorizeResult.ALLOW);
    const { ctx } = actionContext({ ...input, specFile: 'flink-cluster.yaml' });
    await expect(action.handler(ctx as any)).rejects.toThrow(
      /exactly one of the inputs spec, specFile and manifestsPath/,
    );
  });

  it('refuses manifests that are not one Flink cluster', async () => {
    const { action, requests } = setup(AuthorizeResult.ALLOW);
    const { ctx, workspace } = actionContext({
      cluster: 'local',
      entityRef: 'orders',
      manifestsPath: 'manifests',
    });
    workspace.setContent({
      'manifests/secret.yaml':
        'apiVersion: v1\nkind: Secret\nmetadata:\n  name: admin\n  namespace: kube-system\n',
    });
    await expect(action.handler(ctx as any)).rejects.toThrow(
      /must hold the rendered objects of a Flink cluster.*not one: Secret\/admin/,
    );
    expect(requests).not.toHaveBeenCalled();
  });
});
