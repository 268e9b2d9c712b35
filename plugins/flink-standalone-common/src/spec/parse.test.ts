import { InputError } from '@backstage/errors';
import { fromYaml } from '../render/yaml';
import {
  ClusterSpecError,
  parseClusterSpec,
  validateClusterSpec,
} from './parse';

const minimal = { name: 'orders', namespace: 'streaming', flinkVersion: '2.1' };

/** The problems a spec produces, as "path: message" lines. */
function problemsOf(input: unknown): string[] {
  const result = validateClusterSpec(input);
  if (result.valid) throw new Error('expected the spec to be invalid');
  return result.problems.map(p => `${p.path}: ${p.message}`);
}

function expectProblem(input: unknown, path: string, message: RegExp) {
  const problems = problemsOf(input);
  const match = problems.find(p => p.startsWith(`${path}: `));
  expect(match).toBeDefined();
  expect(match).toMatch(message);
}

describe('parseClusterSpec defaults', () => {
  it('fills every default from a minimal spec', () => {
    const spec = parseClusterSpec(minimal);
    expect(spec).toMatchObject({
      component: 'orders',
      image: 'flink:2.1',
      imagePullPolicy: 'IfNotPresent',
      mode: 'session',
      jobManager: {
        workload: 'Deployment',
        replicas: 1,
        resources: { cpu: '1', memory: '1600Mi' },
        volumeClaimTemplates: [],
        pvcRetention: { whenDeleted: 'Delete', whenScaled: 'Delete' },
      },
      taskManager: {
        workload: 'StatefulSet',
        replicas: 1,
        slots: 1,
        resources: { cpu: '1', memory: '1728Mi' },
        podManagementPolicy: 'Parallel',
        localRecovery: false,
      },
      flinkConfiguration: {},
      podTemplate: {
        securityContext: {
          runAsUser: 9999,
          runAsGroup: 9999,
          fsGroup: 9999,
          runAsNonRoot: true,
        },
      },
      rest: { serviceType: 'ClusterIP' },
    });
    expect(spec.job).toBeUndefined();
    expect(spec.highAvailability).toBeUndefined();
  });

  it('turns local recovery on for StatefulSet TaskManagers with a volume, and mounts it', () => {
    const spec = parseClusterSpec({
      ...minimal,
      taskManager: {
        volumeClaimTemplates: [{ name: 'flink-data', storage: '10Gi' }],
      },
    });
    expect(spec.taskManager.localRecovery).toBe(true);
    expect(spec.taskManager.volumeClaimTemplates[0]).toEqual({
      name: 'flink-data',
      mountPath: '/opt/flink/volumes/flink-data',
      storage: '10Gi',
      accessModes: ['ReadWriteOnce'],
      labels: {},
      annotations: {},
    });
  });

  it('keeps local recovery off for Deployment TaskManagers unless asked for', () => {
    const volumes = [{ name: 'scratch', storage: '10Gi' }];
    const off = parseClusterSpec({
      ...minimal,
      taskManager: { workload: 'Deployment', volumeClaimTemplates: volumes },
    });
    const on = parseClusterSpec({
      ...minimal,
      taskManager: {
        workload: 'Deployment',
        volumeClaimTemplates: volumes,
        localRecovery: true,
      },
    });
    expect(off.taskManager.localRecovery).toBe(false);
    expect(on.taskManager.localRecovery).toBe(true);
  });

  it('does not change its input', () => {
    const input = JSON.parse(
      JSON.stringify({ ...minimal, taskManager: { replicas: 2 } }),
    );
    const copy = JSON.parse(JSON.stringify(input));
    parseClusterSpec(input);
    expect(input).toEqual(copy);
  });
});

describe('parseClusterSpec errors', () => {
  it('throws an InputError that lists every problem with its path', () => {
    const input = {
      name: 'Orders_1',
      namespace: 'Streaming',
      flinkVersion: '1.18',
      taskManager: { replicas: 0, slots: 0, resources: { memory: 'lots' } },
      unexpected: true,
    };
    let thrown: unknown;
    try {
      parseClusterSpec(input);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ClusterSpecError);
    expect(InputError.is(thrown)).toBe(true);
    const error = thrown as ClusterSpecError;
    expect(error.problems.map(p => p.path)).toEqual(
      expect.arrayContaining([
        'name',
        'namespace',
        'flinkVersion',
        'taskManager.replicas',
        'taskManager.slots',
        'taskManager.resources.memory',
        'unexpected',
      ]),
    );
    expect(error.message).toContain('Invalid Flink cluster spec (7 problems)');
    expect(error.message).toContain(
      '  - taskManager.replicas: must be at least 1',
    );
  });

  it('reports cross-field problems together with field problems', () => {
    const problems = problemsOf({
      ...minimal,
      namespace: 'BAD',
      jobManager: { replicas: 2 },
      flinkConfiguration: { 'rest.port': 9000 },
    });
    expect(problems.map(p => p.split(':')[0])).toEqual(
      expect.arrayContaining([
        'namespace',
        'jobManager.replicas',
        'flinkConfiguration."rest.port"',
      ]),
    );
  });

  it.each([
    [
      'name too long',
      { name: 'a'.repeat(41) },
      'name',
      /at most 40 characters.*pod names.*63/,
    ],
    ['name not DNS-1035', { name: '1orders' }, 'name', /DNS-1035 label/],
    ['name with uppercase', { name: 'Orders' }, 'name', /DNS-1035 label/],
    [
      'namespace not DNS-1123',
      { namespace: 'team_a' },
      'namespace',
      /DNS-1123 label/,
    ],
    [
      'unsupported Flink version',
      { flinkVersion: '1.18' },
      'flinkVersion',
      /1\.19, 1\.20, 2\.0, 2\.1, 2\.2, 2\.3/,
    ],
    [
      'Flink version as a number',
      { flinkVersion: 2.1 },
      'flinkVersion',
      /supported Flink versions/,
    ],
    [
      'bad image reference',
      { image: 'flink:2.1 latest' },
      'image',
      /valid image reference/,
    ],
    [
      'image with uppercase path',
      { image: 'Flink:2.1' },
      'image',
      /valid image reference/,
    ],
    [
      'bad pull policy',
      { imagePullPolicy: 'Sometimes' },
      'imagePullPolicy',
      /IfNotPresent, Always or Never/,
    ],
    ['bad mode', { mode: 'batch' }, 'mode', /session or application/],
    [
      'unknown top-level field',
      { replicas: 3 },
      'replicas',
      /not a field of the cluster spec/,
    ],
    [
      'component not a label value',
      { component: 'my component' },
      'component',
      /label value/,
    ],
  ])('%s', (_title, override, path, message) => {
    expectProblem({ ...minimal, ...override }, path, message);
  });

  it.each([
    [
      'cpu not a quantity',
      { resources: { cpu: 'two' } },
      'taskManager.resources.cpu',
      /Kubernetes quantity such as "500m"/,
    ],
    [
      'zero cpu',
      { resources: { cpu: '0' } },
      'taskManager.resources.cpu',
      /greater than zero/,
    ],
    [
      'memory not a quantity',
      { resources: { memory: '2GB' } },
      'taskManager.resources.memory',
      /Kubernetes quantity/,
    ],
    [
      'memory below Flink minimum',
      { resources: { memory: '512Mi' } },
      'taskManager.resources.memory',
      /at least 1Gi/,
    ],
    [
      'replicas above 1000',
      { replicas: 1001 },
      'taskManager.replicas',
      /at most 1000/,
    ],
    ['replicas zero', { replicas: 0 }, 'taskManager.replicas', /at least 1/],
    [
      'fractional replicas',
      { replicas: 1.5 },
      'taskManager.replicas',
      /whole number/,
    ],
    ['slots zero', { slots: 0 }, 'taskManager.slots', /at least 1/],
    [
      'bad workload',
      { workload: 'DaemonSet' },
      'taskManager.workload',
      /StatefulSet or Deployment/,
    ],
    [
      'bad pod management',
      { podManagementPolicy: 'Random' },
      'taskManager.podManagementPolicy',
      /Parallel or OrderedReady/,
    ],
    [
      'bad retention',
      { pvcRetention: { whenScaled: 'Keep' } },
      'taskManager.pvcRetention.whenScaled',
      /Retain or Delete/,
    ],
    ['unknown taskManager field', { cpu: 2 }, 'taskManager.cpu', /not a field/],
    [
      'bad budget',
      { podDisruptionBudget: { maxUnavailable: 'half' } },
      'taskManager.podDisruptionBudget.maxUnavailable',
      /percentage/,
    ],
  ])('taskManager: %s', (_title, taskManager, path, message) => {
    expectProblem({ ...minimal, taskManager }, path, message);
  });

  it.each([
    ['replicas above 3', { replicas: 4 }, 'jobManager.replicas', /at most 3/],
    [
      'memory below minimum',
      { resources: { memory: '256Mi' } },
      'jobManager.resources.memory',
      /at least 768Mi/,
    ],
    [
      'more than one without HA',
      { replicas: 2 },
      'jobManager.replicas',
      /needs highAvailability/,
    ],
  ])('jobManager: %s', (_title, jobManager, path, message) => {
    expectProblem({ ...minimal, jobManager }, path, message);
  });

  it.each([
    [
      'storage not a quantity',
      { storage: 'big' },
      'storage',
      /Kubernetes quantity such as "10Gi"/,
    ],
    ['zero storage', { storage: '0Gi' }, 'storage', /greater than zero/],
    [
      'storage class not a DNS subdomain',
      { storageClassName: 'Fast_SSD' },
      'storageClassName',
      /DNS-1123 subdomain/,
    ],
    [
      'bad access mode',
      { accessModes: ['ReadWriteSometimes'] },
      'accessModes[0]',
      /ReadWriteOnce, ReadOnlyMany, ReadWriteMany, ReadWriteOncePod/,
    ],
    [
      'no access mode',
      { accessModes: [] },
      'accessModes',
      /at least one access mode/,
    ],
    ['volume name not a label', { name: 'Data' }, 'name', /DNS-1123 label/],
    [
      'relative mount path',
      { mountPath: 'data' },
      'mountPath',
      /absolute path/,
    ],
    [
      'mount over the config',
      { mountPath: '/opt/flink/conf' },
      'mountPath',
      /must not be inside \/opt\/flink\/conf/,
    ],
  ])('volume claim template: %s', (_title, override, field, message) => {
    const template = { name: 'data', storage: '10Gi', ...override };
    expectProblem(
      { ...minimal, taskManager: { volumeClaimTemplates: [template] } },
      `taskManager.volumeClaimTemplates[0].${field}`,
      message,
    );
  });

  it('rejects two claim templates with one name or one mount path', () => {
    const problems = problemsOf({
      ...minimal,
      jobManager: {
        workload: 'StatefulSet',
        volumeClaimTemplates: [
          { name: 'data', storage: '1Gi' },
          { name: 'data', storage: '1Gi', mountPath: '/other' },
          { name: 'more', storage: '1Gi', mountPath: '/other' },
        ],
      },
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        'jobManager.volumeClaimTemplates[1].name: "data" is used by another claim template',
        'jobManager.volumeClaimTemplates[2].mountPath: "/other" is used by another claim template',
      ]),
    );
  });

  it('asks for a volume when local recovery is turned on without one', () => {
    expectProblem(
      { ...minimal, taskManager: { localRecovery: true } },
      'taskManager.localRecovery',
      /needs a volume/,
    );
  });

  describe('modes', () => {
    const job = {
      jarURI: 'local:///opt/flink/usrlib/job.jar',
      entryClass: 'com.example.Job',
    };

    it('requires a job in application mode', () => {
      expectProblem(
        { ...minimal, mode: 'application' },
        'job',
        /required in application mode.*jarURI.*entryClass/,
      );
    });

    it('requires jarURI and entryClass in the job', () => {
      const problems = problemsOf({ ...minimal, mode: 'application', job: {} });
      expect(problems).toEqual(
        expect.arrayContaining([
          'job.jarURI: is required',
          'job.entryClass: is required',
        ]),
      );
    });

    it('rejects a job in session mode', () => {
      expectProblem(
        { ...minimal, job },
        'job',
        /only allowed in application mode/,
      );
    });

    it.each([
      ['a jar outside usrlib', 'local:///tmp/job.jar'],
      ['an unsupported scheme', 's3://bucket/job.jar'],
      ['something that is not a jar', 'https://example.com/job.zip'],
    ])('rejects %s as jarURI', (_title, jarURI) => {
      expectProblem(
        { ...minimal, mode: 'application', job: { ...job, jarURI } },
        'job.jarURI',
        /usrlib.*http\(s\)/,
      );
    });

    it('rejects an entry class that is not a Java class name', () => {
      expectProblem(
        {
          ...minimal,
          mode: 'application',
          job: { ...job, entryClass: 'com.example.My-Job' },
        },
        'job.entryClass',
        /fully qualified Java class name/,
      );
    });

    it('rejects a parallelism the slots cannot hold', () => {
      expectProblem(
        {
          ...minimal,
          mode: 'application',
          job: { ...job, parallelism: 9 },
          taskManager: { replicas: 2, slots: 4 },
        },
        'job.parallelism',
        /9 exceeds the 8 task slots of 2 TaskManager\(s\) × 4 slot\(s\)/,
      );
    });

    it('accepts a complete application spec', () => {
      const spec = parseClusterSpec({
        ...minimal,
        mode: 'application',
        job: { ...job, parallelism: 1 },
      });
      expect(spec.job).toEqual({
        ...job,
        parallelism: 1,
        args: [],
        allowNonRestoredState: false,
        jarFetcherImage: 'curlimages/curl:8.11.1',
      });
    });
  });

  describe('flinkConfiguration', () => {
    it.each([
      [
        'jobmanager.rpc.address',
        /set by the renderer: it is the JobManager Service/,
      ],
      ['jobmanager.rpc.port', /fixed at 6123/],
      ['taskmanager.rpc.port', /fixed at 6122/],
      ['blob.server.port', /fixed at 6124/],
      ['rest.port', /fixed at 8081/],
      ['taskmanager.resource-id', /use taskManager.localRecovery/],
      [
        'process.taskmanager.working-dir',
        /use taskManager.volumeClaimTemplates/,
      ],
      ['taskmanager.numberOfTaskSlots', /use taskManager.slots/],
      ['taskmanager.memory.process.size', /use taskManager.resources.memory/],
      ['high-availability.type', /use highAvailability/],
      ['kubernetes.cluster-id', /use name/],
    ])('rejects %s, naming the field to use instead', (key, message) => {
      expectProblem(
        { ...minimal, flinkConfiguration: { [key]: 'x' } },
        `flinkConfiguration."${key}"`,
        message,
      );
    });

    const withVolume = {
      volumeClaimTemplates: [{ name: 'data', storage: '1Gi' }],
    };

    it.each([
      'state.backend.local-recovery',
      'execution.state-recovery.from-local',
      'execution.checkpointing.local-backup.enabled',
    ])(
      'rejects %s when TaskManager volumes are managed, and allows it otherwise',
      key => {
        expectProblem(
          {
            ...minimal,
            taskManager: withVolume,
            flinkConfiguration: { [key]: true },
          },
          `flinkConfiguration."${key}"`,
          /use taskManager.localRecovery/,
        );
        expect(
          validateClusterSpec({
            ...minimal,
            flinkConfiguration: { [key]: true },
          }).valid,
        ).toBe(true);
      },
    );

    it.each([
      'taskmanager.state.local.root-dirs',
      'execution.checkpointing.local-backup.dirs',
    ])(
      'rejects %s when TaskManager volumes are managed (local state would leave the claim)',
      key => {
        expectProblem(
          {
            ...minimal,
            taskManager: withVolume,
            flinkConfiguration: { [key]: '/tmp/local-state' },
          },
          `flinkConfiguration."${key}"`,
          /set by the renderer; use taskManager.volumeClaimTemplates \(local state stays in the working dir on the first claim/,
        );
        expect(
          validateClusterSpec({
            ...minimal,
            flinkConfiguration: { [key]: '/tmp/local-state' },
          }).valid,
        ).toBe(true);
      },
    );

    it.each([
      [
        'execution.shutdown-on-application-finish',
        /is false in application mode/,
      ],
      ['execution.submit-failed-job-on-application-error', /application mode/],
    ])(
      'rejects %s in application mode and allows it in a session',
      (key, message) => {
        const job = {
          jarURI: 'local:///opt/flink/usrlib/job.jar',
          entryClass: 'com.example.Job',
        };
        expectProblem(
          {
            ...minimal,
            mode: 'application',
            job,
            flinkConfiguration: { [key]: true },
          },
          `flinkConfiguration."${key}"`,
          message,
        );
        expect(
          validateClusterSpec({
            ...minimal,
            flinkConfiguration: { [key]: true },
          }).valid,
        ).toBe(true);
      },
    );

    it("keeps the Java 17 module options: env.java.default-opts.all is owned, env.java.opts.* are the user's", () => {
      expectProblem(
        {
          ...minimal,
          flinkConfiguration: { 'env.java.default-opts.all': '-Xss4m' },
        },
        'flinkConfiguration."env.java.default-opts.all"',
        /use env.java.opts.all \(it adds to the Java 17 module options/,
      );
      expect(
        validateClusterSpec({
          ...minimal,
          flinkConfiguration: {
            'env.java.opts.all': '-Xss4m',
            'env.java.opts.taskmanager': '-XX:+UseG1GC',
          },
        }).valid,
      ).toBe(true);
    });

    it('rejects "#" in Flink 1.x values, which flink-conf.yaml would cut there, and allows it on 2.x', () => {
      const spec = {
        ...minimal,
        flinkConfiguration: { 'pipeline.name': 'orders #1' },
      };
      expectProblem(
        { ...spec, flinkVersion: '1.20' },
        'flinkConfiguration."pipeline.name"',
        /must not contain "#" on Flink 1.20: flink-conf.yaml is read line by line/,
      );
      expectProblem(
        {
          ...minimal,
          flinkVersion: '1.19',
          highAvailability: { storageDir: 'hdfs://nn/ha#1' },
        },
        'highAvailability.storageDir',
        /must not contain "#"/,
      );
      expect(validateClusterSpec(spec).valid).toBe(true);
    });

    it('rejects multi-line values and keys that are not Flink keys', () => {
      const problems = problemsOf({
        ...minimal,
        flinkConfiguration: { 'env.java.opts.all': 'a\nb', 'bad key': 'x' },
      });
      expect(problems.join('\n')).toMatch(/env\.java\.opts\.all.*single line/);
      expect(problems.join('\n')).toMatch(/Flink configuration key/);
    });

    it('accepts ordinary keys', () => {
      expect(
        validateClusterSpec({
          ...minimal,
          flinkConfiguration: {
            'state.backend.type': 'rocksdb',
            'execution.checkpointing.interval': '30s',
          },
        }).valid,
      ).toBe(true);
    });
  });

  describe('podTemplate and rest', () => {
    it.each([
      [
        { labels: { app: 'other' } },
        'podTemplate.labels.app',
        /set by the renderer/,
      ],
      [
        { labels: { 'app.kubernetes.io/name': 'x' } },
        'podTemplate.labels."app.kubernetes.io/name"',
        /set by the renderer/,
      ],
      [{ labels: { team: 'a b' } }, 'podTemplate.labels.team', /label value/],
      [
        { env: [{ name: 'POD_NAME', value: 'x' }] },
        'podTemplate.env[0].name',
        /downward API/,
      ],
      [
        { env: [{ name: 'FLINK_PROPERTIES', value: 'a: b' }] },
        'podTemplate.env[0].name',
        /"FLINK_PROPERTIES" is read by the image's entrypoint, which writes it into the Flink configuration over the rendered file; use flinkConfiguration instead/,
      ],
      [
        { env: [{ name: 'TASK_MANAGER_NUMBER_OF_TASK_SLOTS', value: '2' }] },
        'podTemplate.env[0].name',
        /use taskManager.slots instead/,
      ],
      [
        { env: [{ name: 'JOB_MANAGER_RPC_ADDRESS', value: 'jm' }] },
        'podTemplate.env[0].name',
        /the renderer sets jobmanager.rpc.address/,
      ],
      [
        { env: [{ name: '1 bad', value: 'x' }] },
        'podTemplate.env[0].name',
        /environment variable name/,
      ],
      [
        { tolerations: [{ key: 'dedicated', effect: 'Sometimes' }] },
        'podTemplate.tolerations[0].effect',
        /NoSchedule/,
      ],
      [
        { serviceAccountName: 'Flink' },
        'podTemplate.serviceAccountName',
        /DNS-1123 subdomain/,
      ],
      [
        { affinity: { nodeAffinty: {} } },
        'podTemplate.affinity.nodeAffinty',
        /not a field/,
      ],
      [
        { securityContext: { runAsUser: -1 } },
        'podTemplate.securityContext.runAsUser',
        /at least 0/,
      ],
    ])('podTemplate %j', (podTemplate, path, message) => {
      expectProblem({ ...minimal, podTemplate }, path, message);
    });

    it('rejects a nodePort on a ClusterIP Service and out of range', () => {
      expectProblem(
        { ...minimal, rest: { nodePort: 30080 } },
        'rest.nodePort',
        /NodePort or LoadBalancer/,
      );
      expectProblem(
        { ...minimal, rest: { serviceType: 'NodePort', nodePort: 80 } },
        'rest.nodePort',
        /at least 30000/,
      );
    });

    it('asks a spec that enables built-in plugins itself to enable the ones its URIs need', () => {
      const enabling = (value: string) => ({
        env: [{ name: 'ENABLE_BUILT_IN_PLUGINS', value }],
      });
      expectProblem(
        {
          ...minimal,
          flinkConfiguration: { 'execution.checkpointing.dir': 'gs://cp/x' },
          podTemplate: enabling('flink-s3-fs-hadoop-2.1.0.jar'),
        },
        'podTemplate.env[0].value',
        /does not enable flink-gs-fs-hadoop, which gs:\/\/ at flinkConfiguration.execution.checkpointing.dir needs: add flink-gs-fs-hadoop-<Flink version of the image>.jar/,
      );
      expect(
        validateClusterSpec({
          ...minimal,
          highAvailability: { storageDir: 's3://ha/orders' },
          podTemplate: enabling(
            'flink-s3-fs-presto-2.1.0.jar;flink-s3-fs-hadoop-2.1.0.jar',
          ),
        }).valid,
      ).toBe(true);
    });

    it('requires a durable storageDir for HA', () => {
      expectProblem(
        { ...minimal, highAvailability: {} },
        'highAvailability.storageDir',
        /is required/,
      );
      expectProblem(
        { ...minimal, highAvailability: { storageDir: '/tmp/ha' } },
        'highAvailability.storageDir',
        /URI of durable storage/,
      );
    });
  });

  describe("map keys: each breaks its map's rule or arrives, none is lost silently", () => {
    // JSON.parse and the YAML parser keep "__proto__" as an own key, as a request body or a
    // spec file brings it; zod's records would drop it without a word.
    const maps: [string, string, RegExp][] = [
      [
        '"flinkConfiguration": {"__proto__": "x", "a.b": "1"}',
        'flinkConfiguration.__proto__',
        /must be a Flink configuration key.*no Flink option is named "__proto__"/,
      ],
      [
        '"podTemplate": {"labels": {"__proto__": "x"}}',
        'podTemplate.labels.__proto__',
        /must be a label or annotation key/,
      ],
      [
        '"podTemplate": {"annotations": {"__proto__": "x"}}',
        'podTemplate.annotations.__proto__',
        /must be a label or annotation key/,
      ],
      [
        '"podTemplate": {"nodeSelector": {"__proto__": "x"}}',
        'podTemplate.nodeSelector.__proto__',
        /must be a label or annotation key/,
      ],
      [
        '"rest": {"annotations": {"__proto__": "x"}}',
        'rest.annotations.__proto__',
        /must be a label or annotation key/,
      ],
      [
        '"taskManager": {"volumeClaimTemplates": [{"name": "d", "storage": "1Gi", "labels": {"__proto__": "x"}}]}',
        'taskManager.volumeClaimTemplates[0].labels.__proto__',
        /must be a label or annotation key/,
      ],
      [
        '"podTemplate": {"affinity": {"nodeAffinity": {"__proto__": {}}}}',
        'podTemplate.affinity.nodeAffinity.__proto__',
        /is not a field Kubernetes knows/,
      ],
      [
        '"podTemplate": {"__proto__": {}}',
        'podTemplate.__proto__',
        /is not a field of the cluster spec/,
      ],
    ];

    it.each(maps)('JSON %s', (json, path, message) => {
      const input = JSON.parse(
        `{"name": "orders", "namespace": "streaming", "flinkVersion": "2.1", ${json}}`,
      );
      expectProblem(input, path, message);
      // One problem per key: a strict object's unknown field is not reported twice.
      expect(
        problemsOf(input).filter(p => p.startsWith(`${path}:`)),
      ).toHaveLength(1);
    });

    it('reports a __proto__ key of a YAML spec file, with the other problems', () => {
      const [input] = fromYaml(
        'name: orders\nnamespace: Streaming\nflinkVersion: "2.1"\npodTemplate:\n  labels:\n    __proto__: x\n    team: a b\n',
      );
      expect(problemsOf(input)).toEqual([
        expect.stringMatching(/^namespace: must be a DNS-1123 label/),
        expect.stringMatching(
          /^podTemplate\.labels\.team: must be a label value/,
        ),
        expect.stringMatching(
          /^podTemplate\.labels\.__proto__: must be a label or annotation key/,
        ),
      ]);
    });

    it('keeps keys that are names of Object.prototype members', () => {
      const spec = parseClusterSpec({
        ...minimal,
        flinkConfiguration: { constructor: 'x', 'toString.a': 1 },
        podTemplate: {
          labels: { constructor: 'x', hasOwnProperty: 'y' },
          annotations: { toString: 'z' },
          nodeSelector: { valueOf: 'v' },
          env: [{ name: 'constructor', value: 'c' }],
        },
      });
      expect(spec.flinkConfiguration).toEqual({
        constructor: 'x',
        'toString.a': 1,
      });
      expect(spec.podTemplate.labels).toEqual({
        constructor: 'x',
        hasOwnProperty: 'y',
      });
      expect(spec.podTemplate.annotations).toEqual({ toString: 'z' });
      expect(spec.podTemplate.nodeSelector).toEqual({ valueOf: 'v' });
      expect(spec.podTemplate.env).toEqual([
        { name: 'constructor', value: 'c' },
      ]);
    });

    it('rejects an environment variable set twice, which the container would keep once', () => {
      expectProblem(
        {
          ...minimal,
          podTemplate: {
            env: [
              { name: 'TZ', value: 'UTC' },
              { name: 'TZ', value: 'CET' },
            ],
          },
        },
        'podTemplate.env[1].name',
        /"TZ" is set twice: the container would keep only one of the values/,
      );
    });

    it("rejects the renderer's config-hash annotation and labels on claims", () => {
      expectProblem(
        {
          ...minimal,
          podTemplate: {
            annotations: { 'flink-standalone.backstage.io/config-hash': 'x' },
          },
        },
        'podTemplate.annotations."flink-standalone.backstage.io/config-hash"',
        /is set by the renderer/,
      );
      expectProblem(
        {
          ...minimal,
          taskManager: {
            volumeClaimTemplates: [
              { name: 'd', storage: '1Gi', labels: { type: 'mine' } },
            ],
          },
        },
        'taskManager.volumeClaimTemplates[0].labels.type',
        /is set by the renderer/,
      );
    });
  });
});
