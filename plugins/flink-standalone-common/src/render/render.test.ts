import type { Deployment, StatefulSet } from 'kubernetes-types/apps/v1';
import type { ConfigMap, Service } from 'kubernetes-types/core/v1';
import type { PodDisruptionBudget } from 'kubernetes-types/policy/v1';
import type { Role, RoleBinding } from 'kubernetes-types/rbac/v1';
import { parse } from 'yaml';
import { ClusterSpecInput, parseClusterSpec } from '../spec';
import {
  CONFIG_HASH_ANNOTATION,
  FlinkClusterObject,
  renderCluster,
  toYaml,
  fromYaml,
} from './index';

const base = {
  name: 'orders',
  namespace: 'streaming',
  flinkVersion: '2.1',
} as const;
const tmVolume = {
  name: 'flink-data',
  storage: '20Gi',
  storageClassName: 'fast-ssd',
};
const jmVolume = { name: 'jm-data', storage: '2Gi' };

function render(input: Partial<ClusterSpecInput>) {
  return renderCluster(parseClusterSpec({ ...base, ...input }));
}

function find<T extends FlinkClusterObject>(
  objects: FlinkClusterObject[],
  kind: string,
  name: string,
): T {
  const found = objects.find(o => o.kind === kind && o.metadata?.name === name);
  if (!found)
    throw new Error(
      `no ${kind} ${name} in ${objects.map(o => `${o.kind}/${o.metadata?.name}`).join(', ')}`,
    );
  return found as T;
}

const mainContainer = (workload: StatefulSet | Deployment) =>
  workload.spec!.template.spec!.containers[0];

/** The Flink configuration as Flink reads it: flat keys, whatever the file format. */
function flinkConfig(objects: FlinkClusterObject[]): Record<string, unknown> {
  const data = find<ConfigMap>(
    objects,
    'ConfigMap',
    'flink-config-orders',
  ).data!;
  if (data['flink-conf.yaml'] !== undefined) {
    return Object.fromEntries(
      data['flink-conf.yaml']
        .trim()
        .split('\n')
        .map(line => [
          line.slice(0, line.indexOf(': ')),
          line.slice(line.indexOf(': ') + 2),
        ]),
    );
  }
  const flat: Record<string, unknown> = {};
  const walk = (node: Record<string, unknown>, prefix: string) => {
    for (const [key, value] of Object.entries(node)) {
      const full = prefix ? `${prefix}.${key}` : key;
      if (typeof value === 'object' && value !== null)
        walk(value as Record<string, unknown>, full);
      else flat[full] = value;
    }
  };
  walk(parse(data['config.yaml']), '');
  return flat;
}

describe('renderCluster', () => {
  it('renders the objects in apply order with the operator-compatible names', () => {
    const objects = render({
      highAvailability: { storageDir: 's3://ha/orders' },
      taskManager: { podDisruptionBudget: { maxUnavailable: 1 } },
    });
    expect(objects.map(o => `${o.kind}/${o.metadata!.name}`)).toEqual([
      'ServiceAccount/orders',
      'Role/orders',
      'RoleBinding/orders',
      'ConfigMap/flink-config-orders',
      'Service/orders',
      'Service/orders-rest',
      'Service/orders-taskmanager',
      'Deployment/orders',
      'StatefulSet/orders-taskmanager',
      'PodDisruptionBudget/orders-taskmanager',
    ]);
    for (const object of objects)
      expect(object.metadata!.namespace).toBe('streaming');
  });

  it('suspended: both workloads at 0 replicas keeping their claims, everything else as running', () => {
    const input = {
      jobManager: {
        workload: 'StatefulSet' as const,
        volumeClaimTemplates: [jmVolume],
      },
      taskManager: { replicas: 3, volumeClaimTemplates: [tmVolume] },
    };
    const running = render(input);
    const suspended = render({ ...input, state: 'suspended' });
    const jobManager = find<StatefulSet>(suspended, 'StatefulSet', 'orders');
    const taskManager = find<StatefulSet>(
      suspended,
      'StatefulSet',
      'orders-taskmanager',
    );
    expect([jobManager.spec!.replicas, taskManager.spec!.replicas]).toEqual([
      0, 0,
    ]);
    // The default whenScaled: Delete would delete every claim when the replicas go to 0.
    for (const workload of [jobManager, taskManager])
      expect(workload.spec!.persistentVolumeClaimRetentionPolicy).toEqual({
        whenDeleted: 'Delete',
        whenScaled: 'Retain',
      });
    const withoutReplicas = (objects: FlinkClusterObject[]) =>
      objects.map(o => ({
        ...o,
        spec: {
          ...(o as any).spec,
          replicas: undefined,
          persistentVolumeClaimRetentionPolicy: undefined,
        },
      }));
    expect(withoutReplicas(suspended)).toEqual(withoutReplicas(running));
  });

  it('is pure: the same spec gives byte-identical YAML', () => {
    const input = {
      taskManager: { replicas: 3, volumeClaimTemplates: [tmVolume] },
      flinkConfiguration: { b: 1, a: 'x' },
    };
    expect(toYaml(render(input))).toBe(
      toYaml(render(JSON.parse(JSON.stringify(input)))),
    );
  });

  it('is pure: a spec whose keys come in another order gives byte-identical YAML', () => {
    const input = {
      ...base,
      component: 'orders-analytics',
      highAvailability: { storageDir: 's3://ha/orders' },
      taskManager: {
        replicas: 2,
        volumeClaimTemplates: [
          {
            ...tmVolume,
            labels: { 'b.example.com/tier': 'x', 'a.example.com/tier': 'y' },
            annotations: { 'b.example.com/note': '1', 'a.example.com/x': '2' },
          },
        ],
        podDisruptionBudget: { maxUnavailable: 1 },
      },
      jobManager: { resources: { memory: '2Gi', cpu: '2' } },
      flinkConfiguration: {
        'state.backend.type': 'rocksdb',
        'execution.checkpointing.interval': '30s',
        'state.backend.incremental': true,
      },
      podTemplate: {
        labels: { team: 'payments', cost: 'eu' },
        annotations: { 'b.example.com/x': '1', 'a.example.com/y': '2' },
        nodeSelector: { zone: 'a', disk: 'ssd' },
        tolerations: [{ key: 'dedicated', operator: 'Exists' }],
        affinity: {
          podAntiAffinity: {
            preferredDuringSchedulingIgnoredDuringExecution: [
              {
                weight: 100,
                podAffinityTerm: {
                  topologyKey: 'kubernetes.io/hostname',
                  labelSelector: { matchLabels: { app: 'orders' } },
                },
              },
            ],
          },
        },
        env: [{ name: 'TZ', value: 'UTC' }],
      },
      rest: {
        serviceType: 'LoadBalancer',
        annotations: { 'b.example.com/lb': '1', 'a.example.com/lb': '2' },
      },
    };
    // Every object's keys reversed, maps included: YAML and JSON maps have no order.
    const reversed = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(reversed);
      if (typeof value !== 'object' || value === null) return value;
      return Object.fromEntries(
        Object.entries(value)
          .reverse()
          .map(([k, v]) => [k, reversed(v)]),
      );
    };
    const shuffled = reversed(input);
    expect(JSON.stringify(shuffled)).not.toBe(JSON.stringify(input));
    expect(toYaml(renderCluster(parseClusterSpec(shuffled)))).toBe(
      toYaml(renderCluster(parseClusterSpec(input))),
    );
  });

  it('puts the labels on every object, and the Backstage kubernetes-id', () => {
    const objects = render({
      component: 'orders-analytics',
      highAvailability: { storageDir: 's3://ha/x' },
    });
    for (const object of objects) {
      expect(object.metadata!.labels).toMatchObject({
        app: 'orders',
        type: 'flink-standalone-kubernetes',
        'app.kubernetes.io/name': 'flink',
        'app.kubernetes.io/instance': 'orders',
        'app.kubernetes.io/version': '2.1',
        'app.kubernetes.io/managed-by': 'flink-standalone-backstage',
        'backstage.io/kubernetes-id': 'orders-analytics',
      });
    }
    const tm = find<StatefulSet>(objects, 'StatefulSet', 'orders-taskmanager');
    expect(tm.metadata!.labels).toMatchObject({
      component: 'taskmanager',
      'app.kubernetes.io/component': 'taskmanager',
    });
    expect(tm.spec!.template.metadata!.labels).toMatchObject({
      component: 'taskmanager',
      'backstage.io/kubernetes-id': 'orders-analytics',
    });
    // Selectors must stay stable: no version in them.
    expect(tm.spec!.selector.matchLabels).toEqual({
      app: 'orders',
      component: 'taskmanager',
      type: 'flink-standalone-kubernetes',
    });
  });

  describe('TaskManagers as a StatefulSet', () => {
    const objects = render({
      jobManager: { workload: 'StatefulSet', volumeClaimTemplates: [jmVolume] },
      taskManager: {
        replicas: 3,
        slots: 2,
        volumeClaimTemplates: [tmVolume],
        pvcRetention: { whenScaled: 'Retain' },
      },
    });
    const tm = find<StatefulSet>(objects, 'StatefulSet', 'orders-taskmanager');

    it('names a governing headless Service that is rendered too', () => {
      const service = find<Service>(objects, 'Service', tm.spec!.serviceName!);
      expect(service.spec).toMatchObject({
        clusterIP: 'None',
        selector: tm.spec!.selector.matchLabels,
      });
      expect(service.spec!.ports).toEqual([
        { name: 'rpc', port: 6122, targetPort: 'rpc' },
      ]);
    });

    it('starts pods in parallel and keeps the claim retention explicit', () => {
      expect(tm.spec!.podManagementPolicy).toBe('Parallel');
      expect(tm.spec!.persistentVolumeClaimRetentionPolicy).toEqual({
        whenDeleted: 'Delete',
        whenScaled: 'Retain',
      });
    });

    it("gets the TaskManager's own claim templates, never the JobManager's", () => {
      expect(tm.spec!.volumeClaimTemplates!.map(t => t.metadata!.name)).toEqual(
        ['flink-data'],
      );
      expect(tm.spec!.volumeClaimTemplates![0].spec).toEqual({
        accessModes: ['ReadWriteOnce'],
        storageClassName: 'fast-ssd',
        resources: { requests: { storage: '20Gi' } },
      });
      // Claim labels let watchers select claims; they leave out the version (templates are immutable).
      expect(tm.spec!.volumeClaimTemplates![0].metadata!.labels).toMatchObject({
        app: 'orders',
        component: 'taskmanager',
      });
      expect(
        tm.spec!.volumeClaimTemplates![0].metadata!.labels,
      ).not.toHaveProperty('app.kubernetes.io/version');
    });

    it('wires local recovery: resource id from the pod name, working dir on the claim', () => {
      const container = mainContainer(tm);
      expect(container.args).toEqual([
        'taskmanager',
        '-D',
        'taskmanager.resource-id=$(POD_NAME)',
      ]);
      expect(container.env).toContainEqual({
        name: 'POD_NAME',
        valueFrom: {
          fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' },
        },
      });
      expect(container.volumeMounts).toContainEqual({
        name: 'flink-data',
        mountPath: '/opt/flink/volumes/flink-data',
      });
      expect(flinkConfig(objects)).toMatchObject({
        'process.taskmanager.working-dir': '/opt/flink/volumes/flink-data',
        'execution.state-recovery.from-local': true,
        'execution.checkpointing.local-backup.enabled': true,
        'taskmanager.numberOfTaskSlots': 2,
        // A restarted pod's recovered slots (and their local state) outlive its restart.
        'taskmanager.slot.timeout': 60_000,
        'slot.idle.timeout': 120_000,
      });
    });

    it('makes the claims writable by the Flink user', () => {
      expect(tm.spec!.template.spec!.securityContext).toMatchObject({
        fsGroup: 9999,
        runAsUser: 9999,
      });
    });

    it('renders a JobManager StatefulSet with its own claims and the JobManager Service as governing Service', () => {
      const jm = find<StatefulSet>(objects, 'StatefulSet', 'orders');
      expect(jm.spec!.serviceName).toBe('orders');
      find<Service>(objects, 'Service', 'orders');
      expect(jm.spec!.volumeClaimTemplates!.map(t => t.metadata!.name)).toEqual(
        ['jm-data'],
      );
      expect(mainContainer(jm).volumeMounts).toContainEqual({
        name: 'jm-data',
        mountPath: '/opt/flink/volumes/jm-data',
      });
      expect(mainContainer(jm).volumeMounts).not.toContainEqual(
        expect.objectContaining({ name: 'flink-data' }),
      );
      expect(flinkConfig(objects)['process.jobmanager.working-dir']).toBe(
        '/opt/flink/volumes/jm-data',
      );
    });
  });

  it.each([
    [
      '1.19',
      ['state.backend.local-recovery'],
      ['execution.state-recovery.from-local'],
    ],
    [
      '1.20',
      [
        'execution.state-recovery.from-local',
        'execution.checkpointing.local-backup.enabled',
      ],
      ['state.backend.local-recovery'],
    ],
    [
      '2.3',
      [
        'execution.state-recovery.from-local',
        'execution.checkpointing.local-backup.enabled',
      ],
      ['state.backend.local-recovery'],
    ],
  ] as const)(
    'uses the local-recovery keys of Flink %s',
    (flinkVersion, present, absent) => {
      const config = flinkConfig(
        render({
          flinkVersion,
          taskManager: { volumeClaimTemplates: [tmVolume] },
        }),
      );
      for (const key of present)
        expect(config[key]).toBe(flinkVersion.startsWith('1.') ? 'true' : true);
      for (const key of absent) expect(config).not.toHaveProperty(key);
    },
  );

  describe('TaskManagers as a Deployment', () => {
    const objects = render({
      taskManager: {
        workload: 'Deployment',
        replicas: 2,
        volumeClaimTemplates: [tmVolume],
      },
    });
    const tm = find<Deployment>(objects, 'Deployment', 'orders-taskmanager');

    it('turns claim templates into generic ephemeral volumes (one claim per pod)', () => {
      const volume = tm.spec!.template.spec!.volumes!.find(
        v => v.name === 'flink-data',
      )!;
      expect(volume.ephemeral!.volumeClaimTemplate!.spec).toEqual({
        accessModes: ['ReadWriteOnce'],
        storageClassName: 'fast-ssd',
        resources: { requests: { storage: '20Gi' } },
      });
      expect(
        volume.ephemeral!.volumeClaimTemplate!.metadata!.labels,
      ).toMatchObject({ component: 'taskmanager' });
    });

    it('keeps local recovery off and renders no TaskManager Service', () => {
      expect(mainContainer(tm).args).toEqual(['taskmanager']);
      expect(flinkConfig(objects)).not.toHaveProperty(
        'execution.state-recovery.from-local',
      );
      expect(
        objects.some(
          o =>
            o.metadata!.name === 'orders-taskmanager' && o.kind === 'Service',
        ),
      ).toBe(false);
    });
  });

  describe('the Flink configuration', () => {
    it('is config.yaml in nested YAML for 2.x and flink-conf.yaml in flat lines for 1.x', () => {
      const v2 = find<ConfigMap>(
        render({}),
        'ConfigMap',
        'flink-config-orders',
      ).data!;
      expect(Object.keys(v2).sort()).toEqual([
        'config.yaml',
        'log4j-console.properties',
      ]);
      expect(v2['config.yaml']).toMatch(
        /^jobmanager:\n {2}rpc:\n {4}address: orders\n/,
      );
      const v1 = find<ConfigMap>(
        render({ flinkVersion: '1.20' }),
        'ConfigMap',
        'flink-config-orders',
      ).data!;
      expect(Object.keys(v1).sort()).toEqual([
        'flink-conf.yaml',
        'log4j-console.properties',
      ]);
      expect(v1['flink-conf.yaml']).toContain(
        'jobmanager.rpc.address: orders\n',
      );
    });

    it('sets ports, memory and slots, then the user keys', () => {
      const config = flinkConfig(
        render({
          jobManager: { resources: { memory: '2Gi' } },
          taskManager: { resources: { memory: '4Gi' }, slots: 3 },
          flinkConfiguration: {
            'state.backend.type': 'rocksdb',
            'state.backend': 'legacy',
            'state.backend.incremental': true,
          },
        }),
      );
      expect(config).toMatchObject({
        'jobmanager.rpc.address': 'orders',
        'jobmanager.rpc.port': 6123,
        'blob.server.port': 6124,
        'rest.port': 8081,
        'taskmanager.rpc.port': 6122,
        'jobmanager.memory.process.size': '2048m',
        'taskmanager.memory.process.size': '4096m',
        'taskmanager.numberOfTaskSlots': 3,
        // A key that is also a prefix of others survives nesting.
        'state.backend': 'legacy',
        'state.backend.type': 'rocksdb',
        'state.backend.incremental': true,
      });
    });

    it('rolls the pods when the configuration changes', () => {
      const hash = (objects: FlinkClusterObject[]) =>
        find<StatefulSet>(objects, 'StatefulSet', 'orders-taskmanager').spec!
          .template.metadata!.annotations![CONFIG_HASH_ANNOTATION];
      const before = hash(
        render({ flinkConfiguration: { 'pipeline.name': 'a' } }),
      );
      expect(before).toMatch(/^[0-9a-f]{16}$/);
      expect(
        hash(render({ flinkConfiguration: { 'pipeline.name': 'a' } })),
      ).toBe(before);
      expect(
        hash(render({ flinkConfiguration: { 'pipeline.name': 'b' } })),
      ).not.toBe(before);
    });
  });

  describe('application mode', () => {
    const job = {
      jarURI: 'local:///opt/flink/usrlib/job.jar',
      entryClass: 'com.example.Job',
      args: ['--input', 'kafka'],
      parallelism: 2,
      initialSavepointPath: 's3://sp/savepoint-1',
      allowNonRestoredState: true,
    };

    it('runs standalone-job with the class, savepoint options and job args', () => {
      const objects = render({
        mode: 'application',
        job,
        taskManager: { replicas: 2 },
      });
      expect(
        mainContainer(find<Deployment>(objects, 'Deployment', 'orders')).args,
      ).toEqual([
        'standalone-job',
        '--job-classname',
        'com.example.Job',
        '--fromSavepoint',
        's3://sp/savepoint-1',
        '--allowNonRestoredState',
        '--input',
        'kafka',
      ]);
      expect(flinkConfig(objects)['parallelism.default']).toBe(2);
    });

    it('fetches an http(s) jar into usrlib with an init container', () => {
      const jm = find<Deployment>(
        render({
          mode: 'application',
          job: {
            jarURI: 'https://repo.example.com/job-1.0.jar',
            entryClass: 'com.example.Job',
          },
        }),
        'Deployment',
        'orders',
      );
      const [init] = jm.spec!.template.spec!.initContainers!;
      expect(init.args).toEqual([
        '-fsSL',
        '--retry',
        '3',
        '-o',
        '/opt/flink/usrlib/job-1.0.jar',
        'https://repo.example.com/job-1.0.jar',
      ]);
      expect(init.volumeMounts).toEqual([
        { name: 'flink-usrlib', mountPath: '/opt/flink/usrlib' },
      ]);
      expect(mainContainer(jm).volumeMounts).toContainEqual({
        name: 'flink-usrlib',
        mountPath: '/opt/flink/usrlib',
      });
      expect(jm.spec!.template.spec!.volumes).toContainEqual({
        name: 'flink-usrlib',
        emptyDir: {},
      });
    });
  });

  describe('Kubernetes HA', () => {
    const objects = render({
      highAvailability: { storageDir: 's3://ha/orders' },
      jobManager: { replicas: 2 },
    });

    it('grants exactly configmaps in the namespace to the pods (leader election locks ConfigMaps, not Leases)', () => {
      const role = find<Role>(objects, 'Role', 'orders');
      expect(role.rules!.map(r => [r.apiGroups, r.resources])).toEqual([
        [[''], ['configmaps']],
      ]);
      const binding = find<RoleBinding>(objects, 'RoleBinding', 'orders');
      expect(binding.subjects).toEqual([
        { kind: 'ServiceAccount', name: 'orders', namespace: 'streaming' },
      ]);
      for (const name of ['orders', 'orders-taskmanager']) {
        const workload = objects.find(
          o => o.metadata!.name === name && 'spec' in o && o.kind !== 'Service',
        ) as StatefulSet;
        expect(workload.spec!.template.spec).toMatchObject({
          serviceAccountName: 'orders',
          automountServiceAccountToken: true,
        });
      }
    });

    it('advertises the JobManager pod IP and sets the HA keys', () => {
      const jm = find<Deployment>(objects, 'Deployment', 'orders');
      expect(mainContainer(jm).args).toEqual([
        'jobmanager',
        '-D',
        'jobmanager.rpc.address=$(POD_IP)',
      ]);
      expect(jm.spec!.replicas).toBe(2);
      expect(jm.spec!.strategy).toEqual({ type: 'RollingUpdate' });
      const config = flinkConfig(objects);
      expect(config).toMatchObject({
        'high-availability.type': 'kubernetes',
        'high-availability.storageDir': 's3://ha/orders',
        'high-availability.cluster-id': 'orders',
        'kubernetes.cluster-id': 'orders',
        'kubernetes.namespace': 'streaming',
      });
      expect(config).not.toHaveProperty('jobmanager.rpc.address');
    });

    it('binds a ServiceAccount the platform gives instead of creating one', () => {
      const withAccount = render({
        highAvailability: { storageDir: 's3://ha/x' },
        podTemplate: { serviceAccountName: 'platform-flink' },
      });
      expect(withAccount.some(o => o.kind === 'ServiceAccount')).toBe(false);
      expect(
        find<RoleBinding>(withAccount, 'RoleBinding', 'orders').subjects![0]
          .name,
      ).toBe('platform-flink');
    });

    it('gives pods no API token without HA, and a Recreate JobManager', () => {
      const plain = render({});
      const jm = find<Deployment>(plain, 'Deployment', 'orders');
      expect(jm.spec!.template.spec!.automountServiceAccountToken).toBe(false);
      expect(jm.spec!.strategy).toEqual({ type: 'Recreate' });
      expect(plain.some(o => o.kind === 'Role')).toBe(false);
    });
  });

  it('renders probes, resources and the REST Service', () => {
    const objects = render({
      taskManager: { resources: { cpu: '2', memory: '4Gi' } },
      rest: {
        serviceType: 'NodePort',
        nodePort: 30081,
        annotations: { 'example.com/lb': 'internal' },
      },
    });
    const jm = mainContainer(find<Deployment>(objects, 'Deployment', 'orders'));
    expect(jm.readinessProbe!.httpGet).toEqual({
      path: '/config',
      port: 'rest',
    });
    expect(jm.livenessProbe!.tcpSocket).toEqual({ port: 'rpc' });
    const tm = mainContainer(
      find<StatefulSet>(objects, 'StatefulSet', 'orders-taskmanager'),
    );
    expect(tm.readinessProbe!.tcpSocket).toEqual({ port: 'rpc' });
    // A slow start (a busy node) is not killed by liveness: the startup probe gives 5 minutes.
    for (const c of [jm, tm]) {
      expect(c.startupProbe).toEqual({
        tcpSocket: { port: 'rpc' },
        periodSeconds: 5,
        failureThreshold: 60,
      });
      expect(c.livenessProbe!.initialDelaySeconds).toBeUndefined();
    }
    expect(tm.resources).toEqual({
      requests: { cpu: '2', memory: '4Gi' },
      limits: { cpu: '2', memory: '4Gi' },
    });
    // A failing Flink process leaves the end of its log as the termination message.
    expect([jm, tm].map(c => c.terminationMessagePolicy)).toEqual([
      'FallbackToLogsOnError',
      'FallbackToLogsOnError',
    ]);
    const rest = find<Service>(objects, 'Service', 'orders-rest');
    expect(rest.spec).toMatchObject({
      type: 'NodePort',
      ports: [
        { name: 'rest', port: 8081, targetPort: 'rest', nodePort: 30081 },
      ],
    });
    expect(rest.metadata!.annotations).toEqual({
      'example.com/lb': 'internal',
    });
  });

  it('applies the pod-template extras to both components', () => {
    const objects = render({
      podTemplate: {
        labels: { team: 'risk' },
        annotations: { 'prometheus.io/scrape': 'true' },
        nodeSelector: { pool: 'flink' },
        tolerations: [
          {
            key: 'dedicated',
            operator: 'Equal',
            value: 'flink',
            effect: 'NoSchedule',
          },
        ],
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [],
            },
          },
        },
        imagePullSecrets: ['registry'],
        priorityClassName: 'critical',
        env: [{ name: 'TZ', value: 'UTC' }],
        securityContext: { runAsUser: 10001, fsGroup: 10001 },
      },
    });
    for (const name of ['orders', 'orders-taskmanager']) {
      const workload = objects.find(
        o =>
          o.metadata!.name === name &&
          (o.kind === 'Deployment' || o.kind === 'StatefulSet'),
      ) as Deployment;
      const template = workload.spec!.template;
      expect(template.metadata!.labels).toMatchObject({
        team: 'risk',
        app: 'orders',
      });
      expect(template.metadata!.annotations).toMatchObject({
        'prometheus.io/scrape': 'true',
      });
      expect(template.spec).toMatchObject({
        nodeSelector: { pool: 'flink' },
        tolerations: [
          {
            key: 'dedicated',
            operator: 'Equal',
            value: 'flink',
            effect: 'NoSchedule',
          },
        ],
        imagePullSecrets: [{ name: 'registry' }],
        priorityClassName: 'critical',
        securityContext: { runAsUser: 10001, runAsGroup: 9999, fsGroup: 10001 },
      });
      expect(template.spec!.affinity!.nodeAffinity).toBeDefined();
      expect(template.spec!.containers[0].env).toContainEqual({
        name: 'TZ',
        value: 'UTC',
      });
    }
  });

  it('renders a disruption budget for the TaskManagers when asked', () => {
    const budget = find<PodDisruptionBudget>(
      render({
        taskManager: { podDisruptionBudget: { maxUnavailable: '10%' } },
      }),
      'PodDisruptionBudget',
      'orders-taskmanager',
    );
    expect(budget.spec).toEqual({
      maxUnavailable: '10%',
      selector: {
        matchLabels: {
          app: 'orders',
          component: 'taskmanager',
          type: 'flink-standalone-kubernetes',
        },
      },
    });
  });

  it('writes a YAML stream that reads back to the same objects', () => {
    const objects = render({
      taskManager: { volumeClaimTemplates: [tmVolume] },
    });
    const text = toYaml(objects);
    expect(text.startsWith('---\napiVersion: v1\nkind: ConfigMap\n')).toBe(
      true,
    );
    expect(fromYaml(text)).toEqual(JSON.parse(JSON.stringify(objects)));
  });
});

describe('what Flink itself reads from the rendered objects', () => {
  const workloads = (objects: FlinkClusterObject[]) =>
    objects.filter(
      (o): o is StatefulSet | Deployment =>
        o.kind === 'StatefulSet' || o.kind === 'Deployment',
    );
  const applicationJob = {
    jarURI: 'local:///opt/flink/usrlib/job.jar',
    entryClass: 'com.example.Job',
  };

  it('passes every dynamic property as two tokens, -D then key=value (jobmanager.sh takes a lone -Dkey=value for a host name)', () => {
    const modes: Partial<ClusterSpecInput>[] = [
      {},
      { mode: 'application', job: applicationJob },
    ];
    for (const mode of modes) {
      const objects = render({
        ...mode,
        highAvailability: { storageDir: 's3://ha/orders' },
        jobManager: {
          workload: 'StatefulSet',
          volumeClaimTemplates: [jmVolume],
        },
        taskManager: { volumeClaimTemplates: [tmVolume] },
      });
      for (const workload of workloads(objects)) {
        const args = mainContainer(workload).args!;
        expect(args.filter(a => /^-D./.test(a))).toEqual([]);
        const properties = args.flatMap((arg, i) =>
          arg === '-D' ? [args[i + 1]] : [],
        );
        expect(properties.length).toBeGreaterThan(0);
        for (const property of properties)
          expect(property).toMatch(/^[a-z.-]+=\S+$/);
      }
    }
  });

  it('keeps an application JobManager running after its job ends, so a restart does not run the job again', () => {
    const plain = flinkConfig(
      render({ mode: 'application', job: applicationJob }),
    );
    expect(plain['execution.shutdown-on-application-finish']).toBe(false);
    // Without HA, Flink refuses an application that sets the next key.
    expect(plain).not.toHaveProperty(
      'execution.submit-failed-job-on-application-error',
    );
    const withHa = flinkConfig(
      render({
        mode: 'application',
        job: applicationJob,
        highAvailability: { storageDir: 's3://ha/orders' },
      }),
    );
    expect(withHa).toMatchObject({
      'execution.shutdown-on-application-finish': false,
      'execution.submit-failed-job-on-application-error': true,
    });
    expect(flinkConfig(render({}))).not.toHaveProperty(
      'execution.shutdown-on-application-finish',
    );
  });

  it('gives each HA cluster its own cluster id, so clusters sharing a storage dir never mix', () => {
    expect(
      flinkConfig(
        render({
          highAvailability: { storageDir: 's3://ha/shared' },
        }),
      )['high-availability.cluster-id'],
    ).toBe('orders');
  });

  it('keeps the resource id of every StatefulSet pod with claims, so it reuses its working dir', () => {
    const objects = render({
      jobManager: { workload: 'StatefulSet', volumeClaimTemplates: [jmVolume] },
      taskManager: { volumeClaimTemplates: [tmVolume], localRecovery: false },
    });
    const jm = find<StatefulSet>(objects, 'StatefulSet', 'orders');
    expect(mainContainer(jm).args).toEqual([
      'jobmanager',
      '-D',
      'jobmanager.resource-id=$(POD_NAME)',
    ]);
    const tm = find<StatefulSet>(objects, 'StatefulSet', 'orders-taskmanager');
    expect(mainContainer(tm).args).toEqual([
      'taskmanager',
      '-D',
      'taskmanager.resource-id=$(POD_NAME)',
    ]);
    expect(flinkConfig(objects)).not.toHaveProperty(
      'execution.state-recovery.from-local',
    );
    expect(flinkConfig(objects)).not.toHaveProperty('taskmanager.slot.timeout');
    // A Deployment pod gets a new claim with a new name: a fresh identity is right.
    const deployment = render({
      taskManager: { workload: 'Deployment', volumeClaimTemplates: [tmVolume] },
    });
    expect(
      mainContainer(
        find<Deployment>(deployment, 'Deployment', 'orders-taskmanager'),
      ).args,
    ).toEqual(['taskmanager']);
  });

  it('copies the file-system plugins the URIs need into the plugins dir, on the official image', () => {
    const objects = render({
      highAvailability: { storageDir: 's3://ha/orders' },
      flinkConfiguration: {
        'execution.checkpointing.dir': 'gs://cp/orders',
        'execution.checkpointing.savepoint-dir': 's3://sp/orders',
      },
    });
    for (const workload of workloads(objects)) {
      const pod = workload.spec!.template.spec!;
      const copier = pod.initContainers!.find(
        c => c.name === 'enable-file-system-plugins',
      )!;
      expect(copier.image).toBe('flink:2.1');
      expect(copier.command).toEqual(['sh', '-c']);
      expect(copier.args).toEqual([
        'cp /opt/flink/opt/flink-gs-fs-hadoop-*.jar /opt/flink/plugins/flink-gs-fs-hadoop/ && cp /opt/flink/opt/flink-s3-fs-hadoop-*.jar /opt/flink/plugins/flink-s3-fs-hadoop/',
      ]);
      // Same resources as the main container: the pod stays Guaranteed.
      expect(copier.resources).toEqual(mainContainer(workload).resources);
      for (const plugin of ['flink-gs-fs-hadoop', 'flink-s3-fs-hadoop']) {
        const mount = {
          name: `plugin-${plugin}`,
          mountPath: `/opt/flink/plugins/${plugin}`,
        };
        expect(copier.volumeMounts).toContainEqual(mount);
        expect(mainContainer(workload).volumeMounts).toContainEqual(mount);
        expect(pod.volumes).toContainEqual({
          name: `plugin-${plugin}`,
          emptyDir: {},
        });
      }
    }
  });

  it('leaves plugins to an own image, to a spec that enables them itself, and to URIs that need none', () => {
    const copiers = (objects: FlinkClusterObject[]) =>
      workloads(objects).flatMap(w =>
        (w.spec!.template.spec!.initContainers ?? []).filter(
          c => c.name === 'enable-file-system-plugins',
        ),
      );
    const checkpoints = {
      flinkConfiguration: { 'execution.checkpointing.dir': 's3://cp/orders' },
    };
    expect(
      copiers(
        render({ image: 'registry.example.com/flink:2.1-s3', ...checkpoints }),
      ),
    ).toEqual([]);
    expect(
      copiers(
        render({
          ...checkpoints,
          podTemplate: {
            env: [
              {
                name: 'ENABLE_BUILT_IN_PLUGINS',
                value: 'flink-s3-fs-hadoop-2.1.0.jar',
              },
            ],
          },
        }),
      ),
    ).toEqual([]);
    expect(
      copiers(
        render({
          flinkConfiguration: { 'execution.checkpointing.dir': 'hdfs://nn/cp' },
        }),
      ),
    ).toEqual([]);
  });

  it('keeps the jar fetcher next to the plugin copier in application mode', () => {
    const jm = find<Deployment>(
      render({
        mode: 'application',
        job: {
          jarURI: 'https://repo.example.com/job-1.0.jar',
          entryClass: 'com.example.Job',
        },
        highAvailability: { storageDir: 's3://ha/orders' },
      }),
      'Deployment',
      'orders',
    );
    expect(jm.spec!.template.spec!.initContainers!.map(c => c.name)).toEqual([
      'fetch-job-jar',
      'enable-file-system-plugins',
    ]);
  });

  it.each([
    ['1.19', 'flink-conf.yaml'],
    ['2.2', 'config.yaml'],
  ] as const)(
    'carries the Java 17 module options of the distribution config it replaces (Flink %s, %s), under the user JVM options',
    (flinkVersion, _file) => {
      const config = flinkConfig(
        render({
          flinkVersion,
          flinkConfiguration: {
            'env.java.opts.all': '-XX:+HeapDumpOnOutOfMemoryError',
          },
        }),
      );
      const defaults = String(config['env.java.default-opts.all']).split(' ');
      expect(defaults).toContain('--add-opens=java.base/java.util=ALL-UNNAMED');
      expect(defaults).toContain(
        '--add-exports=java.base/sun.net.util=ALL-UNNAMED',
      );
      expect(defaults).toHaveLength(20);
      expect(config['env.java.opts.all']).toBe(
        '-XX:+HeapDumpOnOutOfMemoryError',
      );
    },
  );
});
