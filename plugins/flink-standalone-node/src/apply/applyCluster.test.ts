import {
  ClusterSpecInput,
  parseClusterSpec,
  renderCluster,
} from '@flink-standalone/plugin-flink-standalone-common';
import {
  createTestNamespace,
  useControlPlane,
  waitFor,
} from '@flink-standalone/testenv';
import type { KubernetesObject } from '@kubernetes/client-node';
import type { FlinkKubernetesCluster } from '../cluster/ClusterRegistry';
import {
  TEST_CLUSTER,
  backendToken,
  registryFor,
} from '../__testUtils__/backendAccess';
import {
  FieldConflictError,
  ImmutableFieldError,
  applyCluster,
  applyReportOf,
  serverSideApply,
} from './applyCluster';
import { deleteCluster, scaleTaskManagers } from './clusterOperations';
import { diffCluster } from './diff';

const plane = useControlPlane();
let cluster: FlinkKubernetesCluster;
let namespace: string;

beforeAll(async () => {
  cluster = registryFor(plane(), await backendToken(plane())).get(TEST_CLUSTER);
});

beforeEach(async () => {
  namespace = await createTestNamespace(plane().client, 'apply');
});

function objectsFor(input: Partial<ClusterSpecInput> = {}) {
  return renderCluster(
    parseClusterSpec({
      name: 'orders',
      namespace,
      flinkVersion: '2.1',
      taskManager: {
        replicas: 2,
        volumeClaimTemplates: [{ name: 'flink-data', storage: '1Gi' }],
      },
      ...input,
    }),
  ) as KubernetesObject[];
}

const path = (kind: string, name: string) =>
  ({
    ConfigMap: `/api/v1/namespaces/${namespace}/configmaps/${name}`,
    Service: `/api/v1/namespaces/${namespace}/services/${name}`,
    StatefulSet: `/apis/apps/v1/namespaces/${namespace}/statefulsets/${name}`,
    Deployment: `/apis/apps/v1/namespaces/${namespace}/deployments/${name}`,
    PersistentVolumeClaim: `/api/v1/namespaces/${namespace}/persistentvolumeclaims/${name}`,
  })[kind]!;

async function boundClaims(
  count: number,
  prefix = 'flink-data-orders-taskmanager',
) {
  return waitFor(
    `${count} bound claims`,
    async () => {
      const list = await plane().client.list(
        `/api/v1/namespaces/${namespace}/persistentvolumeclaims`,
      );
      const bound = list.items.filter(
        c => c.metadata.name!.startsWith(prefix) && c.status?.phase === 'Bound',
      );
      return bound.length === count ? bound : undefined;
    },
    { timeoutMs: 60_000 },
  );
}

describe('applyCluster', () => {
  it('creates the objects in order, and a second apply changes no resourceVersion', async () => {
    const progress: string[] = [];
    const first = await applyCluster(cluster, objectsFor(), {
      onProgress: p =>
        p.type === 'applied' &&
        progress.push(`${p.object.kind}/${p.object.name}:${p.action}`),
    });
    expect(progress).toEqual([
      'ConfigMap/flink-config-orders:created',
      'Service/orders:created',
      'Service/orders-rest:created',
      'Service/orders-taskmanager:created',
      'Deployment/orders:created',
      'StatefulSet/orders-taskmanager:created',
    ]);
    expect(first.objects).toHaveLength(6);
    // The controllers write status (which bumps resourceVersion) until the pods settle.
    await waitFor(
      'workloads settled',
      async () => {
        const sts = await plane().client.get(
          path('StatefulSet', 'orders-taskmanager'),
        );
        const deployment = await plane().client.get(
          path('Deployment', 'orders'),
        );
        // The controllers' last writes: rollout observed and complete, no more status to report.
        return (
          sts.status?.observedGeneration === sts.metadata.generation &&
          sts.status?.availableReplicas === 2 &&
          sts.status?.currentRevision === sts.status?.updateRevision &&
          deployment.status?.observedGeneration ===
            deployment.metadata.generation &&
          deployment.status?.availableReplicas === 1 &&
          deployment.status?.conditions?.some(
            (c: { type: string; reason?: string }) =>
              c.type === 'Progressing' && c.reason === 'NewReplicaSetAvailable',
          )
        );
      },
      { timeoutMs: 60_000 },
    );
    const versions = async () =>
      Promise.all(
        first.objects.map(
          async o =>
            (await plane().client.get(path(o.kind, o.name))).metadata
              .resourceVersion,
        ),
      );
    const before = await versions();
    const second = await applyCluster(cluster, objectsFor());
    expect(second.objects.map(o => o.action)).toEqual(
      Array(6).fill('unchanged'),
    );
    expect(await versions()).toEqual(before);
    const stored = await plane().client.get(
      path('StatefulSet', 'orders-taskmanager'),
    );
    expect(
      (stored.metadata.managedFields as { manager: string }[]).map(
        m => m.manager,
      ),
    ).toContain('flink-standalone');
  });

  it('dry run validates on the server and creates nothing', async () => {
    const result = await applyCluster(cluster, objectsFor(), { dryRun: true });
    expect(result.dryRun).toBe(true);
    expect(result.objects.map(o => o.action)).toEqual(Array(6).fill('created'));
    for (const o of result.objects) {
      expect(await plane().client.find(path(o.kind, o.name))).toBeUndefined();
    }
  });

  it('diff shows what would change, from a server-side dry run', async () => {
    await applyCluster(cluster, objectsFor());
    const diff = await diffCluster(
      cluster,
      objectsFor({
        taskManager: {
          replicas: 3,
          volumeClaimTemplates: [{ name: 'flink-data', storage: '1Gi' }],
        },
      }),
    );
    const tm = diff.find(
      d => d.name === 'orders-taskmanager' && d.kind === 'StatefulSet',
    )!;
    expect(tm.action).toBe('update');
    expect(tm.changes).toEqual([
      { path: 'spec.replicas', before: 2, after: 3 },
    ]);
    expect(
      diff.filter(d => d !== tm).every(d => d.action === 'unchanged'),
    ).toBe(true);
    expect(
      (await plane().client.get(path('StatefulSet', 'orders-taskmanager'))).spec
        .replicas,
    ).toBe(2);
  });

  it('reports a field owned by another manager as a conflict, and force takes it over', async () => {
    await applyCluster(cluster, objectsFor());
    await plane().client.apply(
      path('StatefulSet', 'orders-taskmanager'),
      {
        apiVersion: 'apps/v1',
        kind: 'StatefulSet',
        metadata: { name: 'orders-taskmanager', namespace },
        spec: { replicas: 4 },
      },
      { fieldManager: 'kubectl', force: true },
    );
    const changed = objectsFor({
      taskManager: {
        replicas: 3,
        volumeClaimTemplates: [{ name: 'flink-data', storage: '1Gi' }],
      },
    });
    const error = await applyCluster(cluster, changed).catch(e => e);
    expect(error).toBeInstanceOf(FieldConflictError);
    expect(error.name).toBe('ConflictError');
    expect(error.conflicts).toEqual([
      expect.objectContaining({ field: '.spec.replicas', manager: 'kubectl' }),
    ]);
    expect(error.message).toMatch(/\.spec\.replicas \(kubectl\)/);
    await applyCluster(cluster, changed, { force: true });
    expect(
      (await plane().client.get(path('StatefulSet', 'orders-taskmanager'))).spec
        .replicas,
    ).toBe(3);
  });

  it('catches a claim-template change before the API server refuses it, and recreate keeps every claim', async () => {
    await applyCluster(cluster, objectsFor());
    const before = await boundClaims(2);
    const resized = objectsFor({
      taskManager: {
        replicas: 2,
        volumeClaimTemplates: [{ name: 'flink-data', storage: '2Gi' }],
      },
    });
    const error = await applyCluster(cluster, resized).catch(e => e);
    expect(error).toBeInstanceOf(ImmutableFieldError);
    expect(error.message).toMatch(/claim templates change.*recreate/);
    expect(applyReportOf(error)?.notApplied).toEqual([]);
    const stsBefore = await plane().client.get(
      path('StatefulSet', 'orders-taskmanager'),
    );

    const result = await applyCluster(cluster, resized, { recreate: true });
    expect(result.objects.find(o => o.kind === 'StatefulSet')!.action).toBe(
      'recreated',
    );
    const stsAfter = await plane().client.get(
      path('StatefulSet', 'orders-taskmanager'),
    );
    expect(stsAfter.metadata.uid).not.toBe(stsBefore.metadata.uid);
    expect(
      stsAfter.spec.volumeClaimTemplates[0].spec.resources.requests.storage,
    ).toBe('2Gi');
    const after = await boundClaims(2);
    const volumes = (claims: any[]) =>
      claims.map(c => `${c.metadata.name}=${c.spec.volumeName}`).sort();
    expect(volumes(after)).toEqual(volumes(before));
  });

  it('reports a refusal part-way with what was and was not applied, and a retry converges', async () => {
    const objects = objectsFor();
    // The API server refuses the 4th object in apply order (a port out of range).
    const broken = JSON.parse(JSON.stringify(objects));
    const tmService = broken.find(
      (o: any) =>
        o.kind === 'Service' && o.metadata.name === 'orders-taskmanager',
    );
    tmService.spec.ports[0].port = 700000;
    const error = await applyCluster(cluster, broken).catch(e => e);
    expect(error.name).toBe('InputError');
    expect(applyReportOf(error)).toEqual({
      applied: [
        'ConfigMap/flink-config-orders',
        'Service/orders',
        'Service/orders-rest',
      ],
      failed: {
        object: 'Service/orders-taskmanager',
        message: expect.stringMatching(/700000|port/),
      },
      notApplied: ['Deployment/orders', 'StatefulSet/orders-taskmanager'],
    });
    expect(
      await plane().client.find(path('Deployment', 'orders')),
    ).toBeUndefined();
    const retry = await applyCluster(cluster, objects);
    expect(retry.objects.map(o => o.action)).toEqual([
      'unchanged',
      'unchanged',
      'unchanged',
      'created',
      'created',
      'created',
    ]);
  });
});

describe('StatefulSet fields the API server refuses to update', () => {
  const taskManagers = (objects: KubernetesObject[]) =>
    objects.find(
      o =>
        o.kind === 'StatefulSet' && o.metadata!.name === 'orders-taskmanager',
    ) as any;

  it.each([
    [
      'spec.podManagementPolicy',
      (sts: any) => {
        sts.spec.podManagementPolicy = 'OrderedReady';
      },
      (sts: any) => sts.spec.podManagementPolicy,
      'OrderedReady',
    ],
    [
      'spec.serviceName',
      (sts: any) => {
        sts.spec.serviceName = 'orders';
      },
      (sts: any) => sts.spec.serviceName,
      'orders',
    ],
    [
      'spec.selector',
      (sts: any) => {
        sts.spec.selector.matchLabels.generation = 'two';
        sts.spec.template.metadata.labels.generation = 'two';
      },
      (sts: any) => sts.spec.selector.matchLabels.generation,
      'two',
    ],
    [
      'spec.volumeClaimTemplates',
      (sts: any) => {
        sts.spec.volumeClaimTemplates[0].spec.resources.requests.storage =
          '2Gi';
      },
      (sts: any) =>
        sts.spec.volumeClaimTemplates[0].spec.resources.requests.storage,
      '2Gi',
    ],
  ])(
    '%s: the API server refuses the update, the engine says so before it and recreate applies it',
    async (field, change, read, wanted) => {
      await applyCluster(cluster, objectsFor());
      const changed = objectsFor();
      change(taskManagers(changed));
      // Kubernetes' own answer, so the engine's list cannot drift from it.
      const refused = await serverSideApply(cluster, taskManagers(changed), {
        dryRun: true,
      }).catch(e => e);
      expect(refused.statusCode).toBe(422);
      // Per field since Kubernetes 1.36; one "Forbidden: updates to statefulset spec" before.
      expect(refused.message).toMatch(
        new RegExp(
          `${field}: Invalid value: .*field is immutable|Forbidden: updates to statefulset spec`,
        ),
      );

      const error = await applyCluster(cluster, changed).catch(e => e);
      expect(error).toBeInstanceOf(ImmutableFieldError);
      expect(error.changes.map((c: { field: string }) => c.field)).toEqual([
        field,
      ]);
      expect(error.message).toMatch(/Apply with recreate/);

      const result = await applyCluster(cluster, changed, { recreate: true });
      expect(result.objects.find(o => o.kind === 'StatefulSet')!.action).toBe(
        'recreated',
      );
      expect(
        read(
          await plane().client.get(path('StatefulSet', 'orders-taskmanager')),
        ),
      ).toBe(wanted);
    },
  );

  it('updates the fields the API server allows in place', async () => {
    await applyCluster(cluster, objectsFor());
    const changed = objectsFor();
    Object.assign(taskManagers(changed).spec, {
      replicas: 3,
      updateStrategy: { type: 'OnDelete' },
      revisionHistoryLimit: 3,
      minReadySeconds: 5,
      persistentVolumeClaimRetentionPolicy: {
        whenDeleted: 'Retain',
        whenScaled: 'Retain',
      },
    });
    const result = await applyCluster(cluster, changed);
    const stored = await plane().client.get(
      path('StatefulSet', 'orders-taskmanager'),
    );
    expect(stored.spec).toMatchObject({
      replicas: 3,
      updateStrategy: { type: 'OnDelete' },
      revisionHistoryLimit: 3,
      minReadySeconds: 5,
      persistentVolumeClaimRetentionPolicy: {
        whenDeleted: 'Retain',
        whenScaled: 'Retain',
      },
    });
    expect(result.objects.find(o => o.kind === 'StatefulSet')!.action).toBe(
      'configured',
    );
  });
});

describe('scaleTaskManagers and deleteCluster', () => {
  it.each([
    ['Delete', 0],
    ['Retain', 2],
  ] as const)(
    'scaling 3 → 1 with whenScaled %s leaves %d claims of ordinals 1 and 2',
    async (whenScaled, left) => {
      await applyCluster(
        cluster,
        objectsFor({
          taskManager: {
            replicas: 3,
            volumeClaimTemplates: [{ name: 'flink-data', storage: '1Gi' }],
            pvcRetention: { whenScaled },
          },
        }),
      );
      await boundClaims(3);
      const result = await scaleTaskManagers(
        cluster,
        { namespace, name: 'orders' },
        1,
      );
      expect(result).toEqual({
        kind: 'StatefulSet',
        name: 'orders-taskmanager',
        previousReplicas: 3,
        replicas: 1,
      });
      await waitFor(
        'scaled-away claims settled',
        async () => {
          const names = (
            await plane().client.list(
              `/api/v1/namespaces/${namespace}/persistentvolumeclaims`,
            )
          ).items
            .filter(c => !c.metadata.deletionTimestamp)
            .map(c => c.metadata.name);
          const extra = names.filter(n => /-(1|2)$/.test(n!));
          return names.includes('flink-data-orders-taskmanager-0') &&
            extra.length === left
            ? true
            : undefined;
        },
        { timeoutMs: 60_000 },
      );
      // A later apply of the spec takes replicas back from the scale manager without a conflict.
      await applyCluster(
        cluster,
        objectsFor({
          taskManager: {
            replicas: 2,
            volumeClaimTemplates: [{ name: 'flink-data', storage: '1Gi' }],
            pvcRetention: { whenScaled },
          },
        }),
      );
      expect(
        (await plane().client.get(path('StatefulSet', 'orders-taskmanager')))
          .spec.replicas,
      ).toBe(2);
    },
  );

  it('refuses a replica count out of range', async () => {
    await expect(
      scaleTaskManagers(cluster, { namespace, name: 'orders' }, -1),
    ).rejects.toThrow(/0 to 1000/);
  });

  it.each([
    [true, 0],
    [false, 2],
  ] as const)(
    'deleteCluster with deleteClaims %s removes every object and leaves %d claims',
    async (deleteClaims, left) => {
      await applyCluster(
        cluster,
        objectsFor({ highAvailability: { storageDir: 's3://ha/orders' } }),
      );
      await boundClaims(2);
      const result = await deleteCluster(
        cluster,
        { namespace, name: 'orders' },
        { deleteClaims },
      );
      expect(result.deleted.map(r => `${r.kind}/${r.name}`).sort()).toEqual(
        [
          'ConfigMap/flink-config-orders',
          'Deployment/orders',
          'Role/orders',
          'RoleBinding/orders',
          'Service/orders',
          'Service/orders-rest',
          'Service/orders-taskmanager',
          'ServiceAccount/orders',
          'StatefulSet/orders-taskmanager',
        ].sort(),
      );
      await waitFor(
        'cluster gone',
        async () => {
          const pods = await plane().client.list(
            `/api/v1/namespaces/${namespace}/pods`,
          );
          const claims = (
            await plane().client.list(
              `/api/v1/namespaces/${namespace}/persistentvolumeclaims`,
            )
          ).items.filter(c => !c.metadata.deletionTimestamp);
          const sts = await plane().client.find(
            path('StatefulSet', 'orders-taskmanager'),
          );
          return pods.items.length === 0 && !sts && claims.length === left
            ? true
            : undefined;
        },
        { timeoutMs: 60_000 },
      );
    },
  );

  /** A ConfigMap as Flink's Kubernetes HA writes it: labelled by cluster id, no owner. */
  const highAvailabilityConfigMap = (clusterId: string, name: string) =>
    plane().client.create(`/api/v1/namespaces/${namespace}/configmaps`, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name,
        labels: {
          app: clusterId,
          'configmap-type': 'high-availability',
          type: 'flink-native-kubernetes',
        },
      },
      data: { address: 'pekko.tcp://flink@10.0.0.1:6123/user/rpc/dispatcher' },
    });

  /** Sorted, as the assertions compare sorted lists. */
  const ourHighAvailabilityData = [
    'orders-6b4a7e5d2c1f0a9b8c7d6e5f4a3b2c1d-config-map',
    'orders-cluster-config-map',
  ];

  /** An HA cluster with the ConfigMaps its Flink would have written, and another cluster's. */
  async function highAvailabilityClusterWithData() {
    await applyCluster(
      cluster,
      objectsFor({ highAvailability: { storageDir: 's3://ha/orders' } }),
    );
    for (const name of ourHighAvailabilityData)
      await highAvailabilityConfigMap('orders', name);
    await highAvailabilityConfigMap('payments', 'payments-cluster-config-map');
  }

  const remainingHighAvailabilityData = async () =>
    (
      await plane().client.list(`/api/v1/namespaces/${namespace}/configmaps`)
    ).items
      .filter(c => c.metadata.labels?.['configmap-type'])
      .map(c => c.metadata.name)
      .sort();

  it('deleteCluster keeps the HA ConfigMaps by default, so a cluster created again resumes its jobs', async () => {
    await highAvailabilityClusterWithData();
    const result = await deleteCluster(cluster, { namespace, name: 'orders' });
    expect(result.highAvailabilityConfigMapsDeleted).toEqual([]);
    expect(result.highAvailabilityConfigMapsKept.sort()).toEqual(
      ourHighAvailabilityData,
    );
    expect(await remainingHighAvailabilityData()).toEqual(
      [...ourHighAvailabilityData, 'payments-cluster-config-map'].sort(),
    );
  });

  it("deleteCluster with deleteHighAvailabilityData deletes the cluster's HA ConfigMaps once its pods are gone, and no other", async () => {
    await highAvailabilityClusterWithData();
    const result = await deleteCluster(
      cluster,
      { namespace, name: 'orders' },
      { deleteHighAvailabilityData: true },
    );
    expect(result.highAvailabilityConfigMapsDeleted.sort()).toEqual(
      ourHighAvailabilityData,
    );
    expect(result.highAvailabilityConfigMapsKept).toEqual([]);
    // A JobManager still shutting down would write its leader ConfigMap again.
    expect(
      (await plane().client.list(`/api/v1/namespaces/${namespace}/pods`)).items,
    ).toEqual([]);
    expect(await remainingHighAvailabilityData()).toEqual([
      'payments-cluster-config-map',
    ]);
  });
});
