import type { z } from 'zod';
import {
  ENV_ENABLE_BUILT_IN_PLUGINS,
  enablesPlugin,
  pluginForUri,
  specUris,
} from './fileSystems';
import { CONFIG_HASH_ANNOTATION } from '../render/names';
import { FLINK_VERSIONS, FlinkVersion } from './flinkVersions';
import { asArray, asRecord } from './guards';
import { findOwnedKey, ownedKeyMessage, OwnedWhen } from './ownedKeys';
import {
  ENTRYPOINT_CONFIG_ENV,
  RESERVED_ENV_NAMES,
  isReservedLabel,
} from './reserved';

/**
 * Rules that span fields. They run even when some fields failed their own checks (so a single
 * answer lists every problem), hence every read is guarded: a field may hold its raw input.
 */

type Ctx = z.RefinementCtx;
type Path = (string | number)[];

function problem(ctx: Ctx, path: Path, message: string) {
  ctx.addIssue({ code: 'custom', path, message });
}

export function checkSpecRules(input: unknown, ctx: Ctx): void {
  const spec = asRecord(input);
  checkMode(spec, ctx);
  checkJobManagerReplicas(spec, ctx);
  checkParallelism(spec, ctx);
  checkLocalRecovery(spec, ctx);
  checkVolumes(spec, ctx);
  checkFlinkConfiguration(spec, ctx);
  checkFlink1ConfigValues(spec, ctx);
  checkPodTemplate(spec, ctx);
  checkFileSystemPlugins(spec, ctx);
  checkRest(spec, ctx);
}

function checkMode(spec: Record<string, unknown>, ctx: Ctx) {
  const mode = spec.mode ?? 'session';
  if (mode === 'application' && spec.job === undefined) {
    problem(
      ctx,
      ['job'],
      'is required in application mode: give job.jarURI and job.entryClass',
    );
  }
  if (mode === 'session' && spec.job !== undefined) {
    problem(
      ctx,
      ['job'],
      'is only allowed in application mode: a session cluster runs jobs submitted to it later (set mode: application to deploy this job with the cluster)',
    );
  }
}

function checkJobManagerReplicas(spec: Record<string, unknown>, ctx: Ctx) {
  const replicas = asRecord(spec.jobManager).replicas;
  if (
    typeof replicas === 'number' &&
    replicas > 1 &&
    spec.highAvailability === undefined
  ) {
    problem(
      ctx,
      ['jobManager', 'replicas'],
      'more than one JobManager needs highAvailability: without leader election the JobManagers would not agree on a leader',
    );
  }
}

function checkParallelism(spec: Record<string, unknown>, ctx: Ctx) {
  const parallelism = asRecord(spec.job).parallelism;
  const taskManager = asRecord(spec.taskManager);
  const replicas =
    typeof taskManager.replicas === 'number' ? taskManager.replicas : 1;
  const slots = typeof taskManager.slots === 'number' ? taskManager.slots : 1;
  if (typeof parallelism === 'number' && parallelism > replicas * slots) {
    problem(
      ctx,
      ['job', 'parallelism'],
      `${parallelism} exceeds the ${replicas * slots} task slots of ${replicas} TaskManager(s) × ${slots} slot(s): the job could never be scheduled`,
    );
  }
}

function checkLocalRecovery(spec: Record<string, unknown>, ctx: Ctx) {
  const taskManager = asRecord(spec.taskManager);
  if (
    taskManager.localRecovery === true &&
    asArray(taskManager.volumeClaimTemplates).length === 0
  ) {
    problem(
      ctx,
      ['taskManager', 'localRecovery'],
      'needs a volume to keep state on: add taskManager.volumeClaimTemplates',
    );
  }
}

/** Mount paths the renderer uses itself. */
const RESERVED_MOUNT_PATHS = ['/opt/flink/conf', '/opt/flink/usrlib'];

function checkVolumes(spec: Record<string, unknown>, ctx: Ctx) {
  for (const component of ['jobManager', 'taskManager'] as const) {
    const templates = asArray(
      asRecord(spec[component]).volumeClaimTemplates,
    ).map(asRecord);
    const names = new Set<unknown>();
    const mountPaths = new Set<unknown>();
    templates.forEach((template, index) => {
      const path = [component, 'volumeClaimTemplates', index];
      checkReservedLabels(template.labels, [...path, 'labels'], ctx);
      if (names.has(template.name)) {
        problem(
          ctx,
          [...path, 'name'],
          `"${template.name}" is used by another claim template`,
        );
      }
      names.add(template.name);
      const mountPath =
        template.mountPath ?? `/opt/flink/volumes/${template.name}`;
      if (mountPaths.has(mountPath)) {
        problem(
          ctx,
          [...path, 'mountPath'],
          `"${mountPath}" is used by another claim template`,
        );
      }
      mountPaths.add(mountPath);
      if (
        typeof mountPath === 'string' &&
        RESERVED_MOUNT_PATHS.some(
          p => mountPath === p || mountPath.startsWith(`${p}/`),
        )
      ) {
        problem(
          ctx,
          [...path, 'mountPath'],
          `must not be inside ${RESERVED_MOUNT_PATHS.join(' or ')}, which the renderer mounts`,
        );
      }
    });
  }
}

function checkFlinkConfiguration(spec: Record<string, unknown>, ctx: Ctx) {
  const active = new Set<OwnedWhen>();
  if (asArray(asRecord(spec.taskManager).volumeClaimTemplates).length > 0) {
    active.add('taskManagerVolumes');
  }
  if (asRecord(spec.job).parallelism !== undefined) {
    active.add('jobParallelism');
  }
  if (spec.mode === 'application') {
    active.add('applicationMode');
  }
  for (const key of Object.keys(asRecord(spec.flinkConfiguration))) {
    const owned = findOwnedKey(key, active);
    if (owned) {
      problem(ctx, ['flinkConfiguration', key], ownedKeyMessage(owned));
    }
  }
}

/** The version a (possibly invalid) spec names, if it is a supported one. */
function flinkVersionOf(
  spec: Record<string, unknown>,
): FlinkVersion | undefined {
  return FLINK_VERSIONS.find(v => v === spec.flinkVersion);
}

/**
 * Flink 1.x reads flink-conf.yaml line by line and drops everything from a "#" on as a comment,
 * so a value with "#" would silently arrive cut short. (Emitting config.yaml for 1.19/1.20
 * would avoid it, but changes how every other value is parsed; the 1.x file stays flat.)
 */
function checkFlink1ConfigValues(spec: Record<string, unknown>, ctx: Ctx) {
  const version = flinkVersionOf(spec);
  if (!version?.startsWith('1.')) return;
  const values: [Path, unknown][] = [
    [
      ['highAvailability', 'storageDir'],
      asRecord(spec.highAvailability).storageDir,
    ],
    ...Object.entries(asRecord(spec.flinkConfiguration)).map(
      ([key, value]): [Path, unknown] => [['flinkConfiguration', key], value],
    ),
  ];
  for (const [path, value] of values) {
    if (typeof value === 'string' && value.includes('#')) {
      problem(
        ctx,
        path,
        `must not contain "#" on Flink ${version}: flink-conf.yaml is read line by line and cuts a value at "#" (a comment)`,
      );
    }
  }
}

function checkPodTemplate(spec: Record<string, unknown>, ctx: Ctx) {
  const podTemplate = asRecord(spec.podTemplate);
  checkReservedLabels(podTemplate.labels, ['podTemplate', 'labels'], ctx);
  // The renderer's own annotation would replace the user's without a word.
  if (
    Object.hasOwn(asRecord(podTemplate.annotations), CONFIG_HASH_ANNOTATION)
  ) {
    problem(
      ctx,
      ['podTemplate', 'annotations', CONFIG_HASH_ANNOTATION],
      `"${CONFIG_HASH_ANNOTATION}" is set by the renderer (a hash of the Flink configuration, so a change rolls the pods)`,
    );
  }
  const seen = new Set<string>();
  asArray(podTemplate.env)
    .map(asRecord)
    .forEach((variable, index) => {
      const name = variable.name;
      if (typeof name !== 'string') return;
      const path = ['podTemplate', 'env', index, 'name'];
      if (seen.has(name)) {
        problem(
          ctx,
          path,
          `"${name}" is set twice: the container would keep only one of the values`,
        );
      }
      seen.add(name);
      if (RESERVED_ENV_NAMES.includes(name)) {
        problem(
          ctx,
          path,
          `"${name}" is set by the renderer from the downward API`,
        );
      }
      // hasOwn: a name such as "constructor" is no entry of the table.
      if (Object.hasOwn(ENTRYPOINT_CONFIG_ENV, name)) {
        problem(
          ctx,
          path,
          `"${name}" is read by the image's entrypoint, which writes it into the Flink configuration over the rendered file; ${ENTRYPOINT_CONFIG_ENV[name]}`,
        );
      }
    });
}

/** Labels the renderer sets on the same object; the spec's value would replace or lose to it. */
function checkReservedLabels(labels: unknown, path: Path, ctx: Ctx) {
  for (const key of Object.keys(asRecord(labels))) {
    if (isReservedLabel(key)) {
      problem(
        ctx,
        [...path, key],
        `"${key}" is set by the renderer (selectors and the Backstage Kubernetes plugin rely on it)`,
      );
    }
  }
}

/**
 * An object-store URI needs its file-system plugin. On the official image the renderer copies
 * it into place; a spec that enables built-in plugins itself must name the ones it uses.
 */
function checkFileSystemPlugins(spec: Record<string, unknown>, ctx: Ctx) {
  const env = asArray(asRecord(spec.podTemplate).env).map(asRecord);
  const index = env.findIndex(v => v.name === ENV_ENABLE_BUILT_IN_PLUGINS);
  const enabled = env[index]?.value;
  if (typeof enabled !== 'string') return;
  for (const { path, uri } of specUris(spec)) {
    const plugin = pluginForUri(uri);
    if (plugin && !enablesPlugin(enabled, plugin)) {
      problem(
        ctx,
        ['podTemplate', 'env', index, 'value'],
        `does not enable ${plugin}, which ${uri.slice(0, uri.indexOf('://'))}:// at ${path.join('.')} needs: add ${plugin}-<Flink version of the image>.jar, or (on the official image) leave ${ENV_ENABLE_BUILT_IN_PLUGINS} out and let the renderer put the plugins in place`,
      );
    }
  }
}

function checkRest(spec: Record<string, unknown>, ctx: Ctx) {
  const rest = asRecord(spec.rest);
  if (
    rest.nodePort !== undefined &&
    (rest.serviceType ?? 'ClusterIP') === 'ClusterIP'
  ) {
    problem(
      ctx,
      ['rest', 'nodePort'],
      'needs rest.serviceType NodePort or LoadBalancer',
    );
  }
}
