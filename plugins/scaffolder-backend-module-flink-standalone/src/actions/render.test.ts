import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fromYaml } from '@flink-standalone/plugin-flink-standalone-common';
import { CLAIM_TEMPLATE_ANNOTATION } from '../claimTemplates/ClaimTemplates';
import {
  actionContext,
  testClaimTemplates,
} from '../__testUtils__/actionContext';
import { createRenderAction } from './render';

const action = createRenderAction({ claimTemplates: testClaimTemplates() });

const spec = {
  name: 'orders',
  namespace: 'streaming',
  flinkVersion: '2.1',
  taskManager: {
    replicas: 2,
    slots: 4,
    volumeClaimTemplates: [
      { name: 'flink-data', claimTemplate: 'fast-ssd-50g' },
    ],
  },
};

const readYaml = (workspace: string, path: string) =>
  fromYaml(readFileSync(join(workspace, path), 'utf8')) as any[];

describe('flink:standalone:render', () => {
  it('writes one numbered file per object and the resolved spec, and outputs their paths', async () => {
    const { ctx, workspace, outputs } = actionContext({ spec });
    await action.handler(ctx as any);

    expect(outputs.files).toEqual([
      'manifests/1-configmap-flink-config-orders.yaml',
      'manifests/2-service-orders.yaml',
      'manifests/3-service-orders-rest.yaml',
      'manifests/4-service-orders-taskmanager.yaml',
      'manifests/5-deployment-orders.yaml',
      'manifests/6-statefulset-orders-taskmanager.yaml',
    ]);
    expect(outputs).toMatchObject({
      name: 'orders',
      namespace: 'streaming',
      manifestsPath: 'manifests',
      specPath: 'flink-cluster.yaml',
      objects: [
        'ConfigMap/flink-config-orders',
        'Service/orders',
        'Service/orders-rest',
        'Service/orders-taskmanager',
        'Deployment/orders',
        'StatefulSet/orders-taskmanager',
      ],
    });
    const [sts] = readYaml(
      workspace.path,
      'manifests/6-statefulset-orders-taskmanager.yaml',
    );
    expect(sts.spec.volumeClaimTemplates).toEqual([
      expect.objectContaining({
        metadata: expect.objectContaining({
          name: 'flink-data',
          annotations: {
            'example.com/cost-center': 'streaming',
            [CLAIM_TEMPLATE_ANNOTATION]: 'fast-ssd-50g',
          },
        }),
        spec: expect.objectContaining({
          storageClassName: 'fast-ssd',
          accessModes: ['ReadWriteOnce'],
          resources: { requests: { storage: '50Gi' } },
        }),
      }),
    ]);
    expect(sts.spec.volumeClaimTemplates[0].metadata.labels).toMatchObject({
      'backup.example.com/tier': 'none',
    });
    const [written] = readYaml(workspace.path, 'flink-cluster.yaml');
    expect(written.taskManager.volumeClaimTemplates).toEqual([
      expect.objectContaining({
        name: 'flink-data',
        storage: '50Gi',
        storageClassName: 'fast-ssd',
      }),
    ]);
    expect(
      written.taskManager.volumeClaimTemplates[0].claimTemplate,
    ).toBeUndefined();
  });

  it('reads a spec file from the workspace and writes one stream where asked', async () => {
    const { ctx, workspace, outputs } = actionContext({
      specFile: 'spec/cluster.yaml',
      layout: 'stream',
      targetPath: 'deploy/flink',
      specOutputPath: 'deploy/spec.yaml',
    });
    workspace.setContent({
      'spec/cluster.yaml':
        'name: orders\nnamespace: streaming\nflinkVersion: "1.20"\n',
    });
    await action.handler(ctx as any);

    expect(outputs.files).toEqual(['deploy/flink/orders.yaml']);
    const documents = readYaml(workspace.path, 'deploy/flink/orders.yaml');
    expect(documents.map(d => d.kind)).toEqual([
      'ConfigMap',
      'Service',
      'Service',
      'Service',
      'Deployment',
      'StatefulSet',
    ]);
    expect(documents[0].data['flink-conf.yaml']).toBeDefined();
    expect(readYaml(workspace.path, 'deploy/spec.yaml')).toEqual([
      { name: 'orders', namespace: 'streaming', flinkVersion: '1.20' },
    ]);
  });

  it('fails with every problem and its field path, and writes nothing', async () => {
    const { ctx, workspace } = actionContext({
      spec: {
        name: 'Orders_1',
        namespace: 'streaming',
        flinkVersion: '1.2',
        taskManager: {
          replicas: 0,
          volumeClaimTemplates: [{ name: 'data', storage: 'lots' }],
        },
      },
    });
    const error = await action.handler(ctx as any).catch(e => e);

    expect(error.name).toBe('InputError');
    expect(error.problems.map((p: { path: string }) => p.path)).toEqual(
      expect.arrayContaining([
        'name',
        'flinkVersion',
        'taskManager.replicas',
        'taskManager.volumeClaimTemplates[0].storage',
      ]),
    );
    expect(error.message).toMatch(/taskManager\.replicas: must be at least 1/);
    expect(workspace.content()).toEqual({});
  });

  it('names the field of an unknown or not-allowed claim template, and of a field it would override', async () => {
    const { ctx } = actionContext({
      spec: {
        ...spec,
        jobManager: {
          volumeClaimTemplates: [{ name: 'ha', claimTemplate: 'fast-ssd-50g' }],
        },
        taskManager: {
          volumeClaimTemplates: [
            { name: 'flink-data', claimTemplate: 'huge-hdd' },
            { name: 'scratch', claimTemplate: 'standard-10g', storage: '1Ti' },
          ],
        },
      },
    });
    const error = await action.handler(ctx as any).catch(e => e);

    expect(error.name).toBe('InputError');
    expect(error.problems).toEqual([
      {
        path: 'jobManager.volumeClaimTemplates[0].claimTemplate',
        message:
          '"fast-ssd-50g" is not allowed for the jobManager (allowed for: taskManager)',
      },
      {
        path: 'taskManager.volumeClaimTemplates[0].claimTemplate',
        message:
          '"huge-hdd" is not a claim template defined by the platform (defined: fast-ssd-50g, standard-10g)',
      },
      {
        path: 'taskManager.volumeClaimTemplates[1].storage',
        message: `cannot be set together with claimTemplate: the platform's template "standard-10g" defines it`,
      },
    ]);
  });

  it('names the input of a spec file that is not there', async () => {
    const { ctx } = actionContext({ specFile: 'flink-clustr.yaml' });
    await expect(action.handler(ctx as any)).rejects.toThrow(
      'specFile flink-clustr.yaml does not exist in the workspace',
    );
  });

  it('refuses paths outside the workspace', async () => {
    const { ctx } = actionContext({ spec, targetPath: '../outside' });
    await expect(action.handler(ctx as any)).rejects.toThrow(
      /outside|workspace/i,
    );
  });
});
