import type {
  Container,
  PersistentVolumeClaimSpec,
  PodTemplateSpec,
  Volume,
} from 'kubernetes-types/core/v1';
import {
  ENV_ENABLE_BUILT_IN_PLUGINS,
  isOfficialImage,
  requiredPlugins,
  specUris,
} from '../spec/fileSystems';
import { configFileName } from '../spec/flinkVersions';
import { ENV_POD_IP, ENV_POD_NAME } from '../spec/reserved';
import type {
  ClusterSpec,
  JobManagerSpec,
  TaskManagerSpec,
  VolumeClaimTemplateSpec,
  WorkloadKind,
} from '../spec';
import { FlinkComponent, claimLabels, clusterLabels } from './labels';
import {
  CONFIG_HASH_ANNOTATION,
  CONFIG_MOUNT_PATH,
  CONFIG_VOLUME,
  MAIN_CONTAINER,
  PORTS,
  USRLIB_PATH,
  USRLIB_VOLUME,
  clusterObjectNames,
} from './names';
import { podServiceAccount } from './serviceAccount';
import { LOG4J_FILE } from './configMap';

/** What every pod-template step may look at. */
export interface PodContext {
  spec: ClusterSpec;
  component: FlinkComponent;
  workload: WorkloadKind;
  configHash: string;
}

/**
 * One concern of a pod template (resources, config volume, claims, probes, …). The template is
 * the result of applying every step in order to an empty pod, like the operator's decorators.
 */
type PodStep = (pod: PodTemplateSpec, ctx: PodContext) => PodTemplateSpec;

const POD_STEPS: PodStep[] = [
  mainContainer,
  resources,
  flinkConfigVolume,
  downwardApiEnv,
  claimVolumes,
  userJar,
  fileSystemPlugins,
  serviceAccount,
  probes,
  podTemplateExtras,
];

export function renderPodTemplate(ctx: PodContext): PodTemplateSpec {
  return POD_STEPS.reduce<PodTemplateSpec>((pod, step) => step(pod, ctx), {
    metadata: { labels: {}, annotations: {} },
    spec: { containers: [] },
  });
}

function updateMain(
  pod: PodTemplateSpec,
  update: (c: Container) => Container,
): PodTemplateSpec {
  const [main, ...sidecars] = pod.spec!.containers;
  return {
    ...pod,
    spec: { ...pod.spec!, containers: [update(main), ...sidecars] },
  };
}

function addVolumes(pod: PodTemplateSpec, volumes: Volume[]): PodTemplateSpec {
  return {
    ...pod,
    spec: { ...pod.spec!, volumes: [...(pod.spec!.volumes ?? []), ...volumes] },
  };
}

function addInitContainer(
  pod: PodTemplateSpec,
  container: Container,
): PodTemplateSpec {
  return {
    ...pod,
    spec: {
      ...pod.spec!,
      initContainers: [...(pod.spec!.initContainers ?? []), container],
    },
  };
}

function mainContainer(pod: PodTemplateSpec, ctx: PodContext): PodTemplateSpec {
  const { spec, component } = ctx;
  const ports =
    component === 'jobmanager'
      ? [
          { name: 'rpc', containerPort: PORTS.jobManagerRpc },
          { name: 'blob-server', containerPort: PORTS.blobServer },
          { name: 'rest', containerPort: PORTS.rest },
        ]
      : [{ name: 'rpc', containerPort: PORTS.taskManagerRpc }];
  const container: Container = {
    name: MAIN_CONTAINER,
    image: spec.image,
    imagePullPolicy: spec.imagePullPolicy,
    args:
      component === 'jobmanager' ? jobManagerArgs(spec) : taskManagerArgs(spec),
    ports,
    // Flink writes no termination message: when the process fails, the kubelet keeps the end
    // of its log instead, so a CrashLoopBackOff can say why (the observer shows it).
    terminationMessagePolicy: 'FallbackToLogsOnError',
  };
  return {
    metadata: {
      labels: { ...clusterLabels(spec, component) },
      annotations: { [CONFIG_HASH_ANNOTATION]: ctx.configHash },
    },
    spec: { ...pod.spec!, containers: [container] },
  };
}

/**
 * A Flink dynamic property as bin/jobmanager.sh, taskmanager.sh and standalone-job.sh take it:
 * two tokens. jobmanager.sh reads a second argument other than exactly `-D` as a (legacy) host
 * name, so a lone `-Dkey=value` would become the value of jobmanager.rpc.address.
 */
function dynamicProperty(key: string, value: string): string[] {
  return ['-D', `${key}=${value}`];
}

/**
 * A StatefulSet pod comes back under its own name, to its own claims: with the pod name as
 * resource id it also finds its working dir there (`<dir>/jm_<id>`, `<dir>/tm_<id>`: local
 * state, RocksDB files), instead of starting a fresh one next to the old one each restart.
 */
function keepsIdentityOnClaims(
  component: JobManagerSpec | TaskManagerSpec,
): boolean {
  return (
    component.workload === 'StatefulSet' &&
    component.volumeClaimTemplates.length > 0
  );
}

/** Dynamic properties carry what differs per pod; Kubernetes expands `$(VAR)` in args. */
function jobManagerArgs(spec: ClusterSpec): string[] {
  const perPod = [
    ...(spec.highAvailability
      ? dynamicProperty('jobmanager.rpc.address', `$(${ENV_POD_IP})`)
      : []),
    ...(keepsIdentityOnClaims(spec.jobManager)
      ? dynamicProperty('jobmanager.resource-id', `$(${ENV_POD_NAME})`)
      : []),
  ];
  if (spec.mode === 'session' || !spec.job) {
    return ['jobmanager', ...perPod];
  }
  const { job } = spec;
  return [
    'standalone-job',
    ...perPod,
    '--job-classname',
    job.entryClass,
    ...(job.initialSavepointPath
      ? ['--fromSavepoint', job.initialSavepointPath]
      : []),
    ...(job.allowNonRestoredState ? ['--allowNonRestoredState'] : []),
    ...job.args,
  ];
}

function taskManagerArgs(spec: ClusterSpec): string[] {
  // The pod name as resource id keeps a TaskManager's identity (and its local state
  // directory) across restarts of the same StatefulSet ordinal.
  const stable =
    spec.taskManager.localRecovery || keepsIdentityOnClaims(spec.taskManager);
  return stable
    ? [
        'taskmanager',
        ...dynamicProperty('taskmanager.resource-id', `$(${ENV_POD_NAME})`),
      ]
    : ['taskmanager'];
}

function resources(
  pod: PodTemplateSpec,
  { spec, component }: PodContext,
): PodTemplateSpec {
  const { cpu, memory } = (
    component === 'jobmanager' ? spec.jobManager : spec.taskManager
  ).resources;
  // Requests equal limits: Flink sizes its memory pools to the limit, and Guaranteed QoS
  // keeps the kubelet from evicting a TaskManager under node pressure.
  return updateMain(pod, c => ({
    ...c,
    resources: { requests: { cpu, memory }, limits: { cpu, memory } },
  }));
}

function flinkConfigVolume(
  pod: PodTemplateSpec,
  { spec }: PodContext,
): PodTemplateSpec {
  const configFile = configFileName(spec.flinkVersion);
  const withMount = updateMain(pod, c => ({
    ...c,
    volumeMounts: [
      ...(c.volumeMounts ?? []),
      { name: CONFIG_VOLUME, mountPath: CONFIG_MOUNT_PATH },
    ],
  }));
  return addVolumes(withMount, [
    {
      name: CONFIG_VOLUME,
      configMap: {
        name: clusterObjectNames(spec.name).configMap,
        items: [
          { key: configFile, path: configFile },
          { key: LOG4J_FILE, path: LOG4J_FILE },
        ],
      },
    },
  ]);
}

function downwardApiEnv(pod: PodTemplateSpec): PodTemplateSpec {
  return updateMain(pod, c => ({
    ...c,
    env: [
      {
        name: ENV_POD_NAME,
        valueFrom: {
          fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' },
        },
      },
      {
        name: ENV_POD_IP,
        valueFrom: {
          fieldRef: { apiVersion: 'v1', fieldPath: 'status.podIP' },
        },
      },
      ...(c.env ?? []),
    ],
  }));
}

/** Where Flink loads plugins from; a distribution keeps the built-in ones in OPT_PATH. */
const PLUGINS_PATH = '/opt/flink/plugins';
const OPT_PATH = '/opt/flink/opt';

/**
 * Puts the file-system plugins the spec's URIs need (`s3://`, `gs://`, …) where Flink loads
 * them: an init container of the same image copies each jar from /opt/flink/opt into a volume
 * mounted at /opt/flink/plugins/<plugin>. The image's own ENABLE_BUILT_IN_PLUGINS would need
 * the exact jar name, with the patch version a tag such as `flink:2.1` does not tell. Not done
 * for other images (they bring their plugins) nor when the spec enables plugins itself.
 */
function fileSystemPlugins(
  pod: PodTemplateSpec,
  { spec }: PodContext,
): PodTemplateSpec {
  const plugins = requiredPlugins(specUris(spec));
  const enablesItself = spec.podTemplate.env.some(
    v => v.name === ENV_ENABLE_BUILT_IN_PLUGINS,
  );
  if (plugins.length === 0 || !isOfficialImage(spec.image) || enablesItself) {
    return pod;
  }
  const mounts = plugins.map(plugin => ({
    name: `plugin-${plugin}`,
    mountPath: `${PLUGINS_PATH}/${plugin}`,
  }));
  const [main] = pod.spec!.containers;
  const copier: Container = {
    name: 'enable-file-system-plugins',
    image: spec.image,
    imagePullPolicy: spec.imagePullPolicy,
    // A missing jar fails the copy, so the pod stops here with the reason in its log.
    command: ['sh', '-c'],
    args: [
      plugins
        .map(p => `cp ${OPT_PATH}/${p}-*.jar ${PLUGINS_PATH}/${p}/`)
        .join(' && '),
    ],
    // The main container's resources: the pod keeps its QoS class and needs nothing more.
    resources: main.resources,
    volumeMounts: mounts,
  };
  const withMounts = updateMain(pod, c => ({
    ...c,
    volumeMounts: [...(c.volumeMounts ?? []), ...mounts],
  }));
  return addVolumes(
    addInitContainer(withMounts, copier),
    mounts.map(m => ({ name: m.name, emptyDir: {} })),
  );
}

export function claimSpec(
  template: VolumeClaimTemplateSpec,
): PersistentVolumeClaimSpec {
  return {
    accessModes: template.accessModes,
    ...(template.storageClassName && {
      storageClassName: template.storageClassName,
    }),
    resources: { requests: { storage: template.storage } },
  };
}

export function claimTemplates(spec: ClusterSpec, component: FlinkComponent) {
  return (component === 'jobmanager' ? spec.jobManager : spec.taskManager)
    .volumeClaimTemplates;
}

/**
 * Mounts the component's claims. A StatefulSet gets them from its volumeClaimTemplates (one
 * claim per ordinal, kept across restarts); a Deployment gets generic ephemeral volumes (one
 * claim per pod, gone with the pod).
 */
function claimVolumes(
  pod: PodTemplateSpec,
  { spec, component, workload }: PodContext,
): PodTemplateSpec {
  const templates = claimTemplates(spec, component);
  if (templates.length === 0) return pod;
  const withMounts = updateMain(pod, c => ({
    ...c,
    volumeMounts: [
      ...(c.volumeMounts ?? []),
      ...templates.map(t => ({ name: t.name, mountPath: t.mountPath })),
    ],
  }));
  if (workload === 'StatefulSet') return withMounts;
  return addVolumes(
    withMounts,
    templates.map(t => ({
      name: t.name,
      ephemeral: {
        volumeClaimTemplate: {
          metadata: {
            labels: { ...claimLabels(spec, component), ...t.labels },
            ...(Object.keys(t.annotations).length > 0 && {
              annotations: t.annotations,
            }),
          },
          spec: claimSpec(t),
        },
      },
    })),
  );
}

/** Application mode with an http(s) jar: an init container downloads it into usrlib. */
function userJar(pod: PodTemplateSpec, { spec }: PodContext): PodTemplateSpec {
  const job = spec.mode === 'application' ? spec.job : undefined;
  if (!job || job.jarURI.startsWith('local://')) return pod;
  const jarFile = job.jarURI.split('/').pop()!;
  const mount = { name: USRLIB_VOLUME, mountPath: USRLIB_PATH };
  const fetcher: Container = {
    name: 'fetch-job-jar',
    image: job.jarFetcherImage,
    args: [
      '-fsSL',
      '--retry',
      '3',
      '-o',
      `${USRLIB_PATH}/${jarFile}`,
      job.jarURI,
    ],
    volumeMounts: [mount],
  };
  const withMount = updateMain(pod, c => ({
    ...c,
    volumeMounts: [...(c.volumeMounts ?? []), mount],
  }));
  return addVolumes(addInitContainer(withMount, fetcher), [
    { name: USRLIB_VOLUME, emptyDir: {} },
  ]);
}

/** Only Kubernetes HA talks to the API server; otherwise the pods get no token at all. */
function serviceAccount(
  pod: PodTemplateSpec,
  { spec }: PodContext,
): PodTemplateSpec {
  const account = podServiceAccount(spec);
  return {
    ...pod,
    spec: {
      ...pod.spec!,
      ...(account && { serviceAccountName: account }),
      automountServiceAccountToken: spec.highAvailability !== undefined,
    },
  };
}

/**
 * Liveness starts once the RPC port opened (the startup probe), so a JVM that starts slowly on a
 * busy node gets up to 5 minutes instead of being killed mid-start; after that, a minute of
 * refused connections restarts the container.
 */
const RPC_STARTUP_AND_LIVENESS = {
  startupProbe: {
    tcpSocket: { port: 'rpc' },
    periodSeconds: 5,
    failureThreshold: 60,
  },
  livenessProbe: {
    tcpSocket: { port: 'rpc' },
    periodSeconds: 10,
    failureThreshold: 6,
  },
};

function probes(
  pod: PodTemplateSpec,
  { component }: PodContext,
): PodTemplateSpec {
  if (component === 'jobmanager') {
    return updateMain(pod, c => ({
      ...c,
      // Ready when the REST API answers: that is what users and the observer talk to.
      readinessProbe: {
        httpGet: { path: '/config', port: 'rest' },
        periodSeconds: 10,
        failureThreshold: 3,
      },
      ...RPC_STARTUP_AND_LIVENESS,
    }));
  }
  return updateMain(pod, c => ({
    ...c,
    readinessProbe: { tcpSocket: { port: 'rpc' }, periodSeconds: 10 },
    ...RPC_STARTUP_AND_LIVENESS,
  }));
}

/** What a platform team adds: scheduling, pull secrets, env, labels, security context. */
function podTemplateExtras(
  pod: PodTemplateSpec,
  { spec }: PodContext,
): PodTemplateSpec {
  const extras = spec.podTemplate;
  const withEnv = updateMain(pod, c => ({
    ...c,
    env: [...(c.env ?? []), ...extras.env],
    securityContext: { allowPrivilegeEscalation: false },
  }));
  return {
    metadata: {
      labels: { ...extras.labels, ...withEnv.metadata!.labels },
      annotations: { ...extras.annotations, ...withEnv.metadata!.annotations },
    },
    spec: {
      ...withEnv.spec!,
      securityContext: {
        ...extras.securityContext,
        fsGroupChangePolicy: 'OnRootMismatch',
      },
      ...(Object.keys(extras.nodeSelector).length > 0 && {
        nodeSelector: extras.nodeSelector,
      }),
      ...(extras.tolerations.length > 0 && { tolerations: extras.tolerations }),
      ...(extras.affinity && { affinity: extras.affinity }),
      ...(extras.imagePullSecrets.length > 0 && {
        imagePullSecrets: extras.imagePullSecrets.map(name => ({ name })),
      }),
      ...(extras.priorityClassName && {
        priorityClassName: extras.priorityClassName,
      }),
    },
  };
}
