import type { PermissionsService } from '@backstage/backend-plugin-api';
import { parseEntityRef, stringifyEntityRef } from '@backstage/catalog-model';
import { InputError } from '@backstage/errors';
import {
  createTemplateAction,
  type TemplateAction,
} from '@backstage/plugin-scaffolder-node';
import {
  ClusterConditionType,
  ClusterSpec,
  renderCluster,
  UPGRADE_MODES,
  UpgradeMode,
} from '@flink-standalone/plugin-flink-standalone-common';
import {
  ApplyProgress,
  ApplyResult,
  FlinkStandaloneClusterService,
  applyCluster,
  planClusterChange,
  savepointDirectoryOf,
  upgradeCluster,
  waitForReady,
} from '@flink-standalone/plugin-flink-standalone-node';
import type { KubernetesObject } from '@kubernetes/client-node';
import type { ClaimTemplates } from '../claimTemplates/ClaimTemplates';
import { authorizeApply } from '../apply/authorizeApply';
import { FlinkManifests, readManifests } from '../apply/readManifests';
import { applyExamples } from './apply.examples';
import { SpecSource, loadSpec } from './specSource';
import { specInputs } from './specInputs';

/** @public */
export const APPLY_ACTION_ID = 'flink:standalone:apply';
const DEFAULT_TIMEOUT_SECONDS = 600;

/** @public */
export interface ApplyActionOptions {
  claimTemplates: ClaimTemplates;
  /** The backend's cluster service: the same clusters and watch caches as the backend plugin. */
  clusters: FlinkStandaloneClusterService;
  permissions: PermissionsService;
}

/**
 * READY says the JobManager answers; a new cluster is up when its TaskManager pods are ready
 * and its claims bound too. On simulated (kwok) nodes no Flink answers, so there a cluster is up
 * when its pods are Ready and its claims bound: as far as a simulation goes.
 */
const UP_CONDITIONS: ClusterConditionType[] = [
  'JobManagerReady',
  'TaskManagersReady',
  'VolumesBound',
];

type ManifestSource = SpecSource & { manifestsPath?: string };

async function objectsToApply(
  workspacePath: string,
  input: ManifestSource,
  claimTemplates: ClaimTemplates,
): Promise<FlinkManifests & { spec?: ClusterSpec }> {
  const given = [input.spec, input.specFile, input.manifestsPath].filter(
    v => v !== undefined,
  );
  if (given.length !== 1) {
    throw new InputError(
      'Give exactly one of the inputs spec, specFile and manifestsPath',
    );
  }
  if (input.manifestsPath !== undefined) {
    return readManifests(workspacePath, input.manifestsPath);
  }
  const { spec } = await loadSpec(workspacePath, input, claimTemplates);
  return {
    objects: renderCluster(spec) as KubernetesObject[],
    name: spec.name,
    namespace: spec.namespace,
    spec,
  };
}

function entityRefOf(value: string): string {
  try {
    return stringifyEntityRef(
      parseEntityRef(value, {
        defaultKind: 'component',
        defaultNamespace: 'default',
      }),
    );
  } catch (error) {
    throw new InputError(`entityRef: ${(error as Error).message}`);
  }
}

function describeProgress(
  p: ApplyProgress,
  dryRun: boolean,
): string | undefined {
  if (p.type === 'recreating') {
    return `Recreating ${p.object.kind}/${p.object.name} (pods and claims stay)`;
  }
  if (p.type !== 'applied') return undefined;
  return `${dryRun ? '[dry run] ' : ''}${p.object.kind}/${p.object.name} ${p.action} (${p.index + 1}/${p.total})`;
}

/**
 * The apply action's input, as its schema defines it (a type, not an interface: a
 * template action's input and output must be JSON objects).
 *
 * @public
 */
export type ApplyActionInput = {
  cluster: string;
  entityRef: string;
  manifestsPath?: string;
  waitForReady?: boolean;
  timeoutSeconds?: number;
  force?: boolean;
  recreate?: boolean;
  flinkUiUrl?: string;
  spec?: Record<string, any>;
  specFile?: string;
  upgradeMode?: UpgradeMode;
  savepointDirectory?: string;
};

/**
 * The apply action's output, as its schema defines it. Named, so the API report does not
 * depend on the order in which the compiler prints an inferred type's members.
 *
 * @public
 */
export type ApplyActionOutput = {
  name: string;
  namespace: string;
  dryRun: boolean;
  objects: { kind: string; name: string; namespace?: string; action: string }[];
  flinkUiUrl?: string;
  state?: string;
  summary?: string;
  plan?: string[];
  jobEffect?: string;
  savepoints?: string[];
};

/**
 * Server-side applies a Flink cluster and waits until it is READY. A dry-run template run
 * does a server-side dry run. Permission and namespace are checked before Kubernetes is called.
 *
 * @public
 */
export function createApplyAction(
  options: ApplyActionOptions,
): TemplateAction<ApplyActionInput, ApplyActionOutput, 'v2'> {
  return createTemplateAction({
    id: APPLY_ACTION_ID,
    description:
      'Creates or updates a standalone Flink cluster on Kubernetes with server-side apply and waits until it is READY, logging each object applied and the observer state (pods ready, claims bound).',
    examples: applyExamples,
    supportsDryRun: true,
    schema: {
      input: {
        ...specInputs,
        manifestsPath: z =>
          z
            .string()
            .optional()
            .describe(
              'Workspace file or folder of manifests from flink:standalone:render. Give spec, specFile or manifestsPath.',
            ),
        cluster: z =>
          z
            .string()
            .describe(
              'The Kubernetes cluster name, as configured in kubernetes.clusterLocatorMethods or flinkStandalone.clusters',
            ),
        entityRef: z =>
          z
            .string()
            .describe(
              'The catalog component the Flink cluster belongs to; the initiator needs flink.standalone.apply on it',
            ),
        waitForReady: z =>
          z
            .boolean()
            .optional()
            .describe(
              'Wait until the cluster is READY with its TaskManager pods Ready and claims Bound (on simulated nodes: pods and claims only); default true',
            ),
        timeoutSeconds: z =>
          z
            .number()
            .int()
            .positive()
            .optional()
            .describe(
              `How long to wait for READY (default ${DEFAULT_TIMEOUT_SECONDS})`,
            ),
        force: z =>
          z
            .boolean()
            .optional()
            .describe(
              'Take over fields another field manager owns (default false)',
            ),
        recreate: z =>
          z
            .boolean()
            .optional()
            .describe(
              'When StatefulSet claim templates change: recreate the StatefulSet, keeping pods and claims (default false)',
            ),
        flinkUiUrl: z =>
          z
            .string()
            .optional()
            .describe(
              'The Flink UI URL to report, instead of the configured one',
            ),
        upgradeMode: z =>
          z
            .enum(UPGRADE_MODES)
            .optional()
            .describe(
              'How running jobs are treated when the change restarts their pods (default stateless): stateless applies; last-state lets them resume from their latest checkpoint (needs highAvailability when the JobManager restarts); savepoint stops them with a savepoint first and starts the application job from it',
            ),
        savepointDirectory: z =>
          z
            .string()
            .optional()
            .describe(
              "Where upgradeMode savepoint writes savepoints (default: the spec's execution.checkpointing.savepoint-dir or state.savepoints.dir)",
            ),
      },
      output: {
        name: z => z.string(),
        namespace: z => z.string(),
        dryRun: z => z.boolean(),
        objects: z =>
          z
            .array(
              z.object({
                kind: z.string(),
                name: z.string(),
                namespace: z.string().optional(),
                action: z.string(),
              }),
            )
            .describe(
              'Each object applied and what happened: created, configured, unchanged or recreated',
            ),
        flinkUiUrl: z => z.string().optional(),
        state: z =>
          z
            .string()
            .optional()
            .describe(
              'The final observer state (READY after a wait); absent without a wait',
            ),
        summary: z =>
          z.string().optional().describe('The final observer summary line'),
        plan: z =>
          z
            .array(z.string())
            .optional()
            .describe(
              'The change plan, made before applying: the objects that change, the pods that restart and in what order, what happens to running jobs (absent for manifestsPath, which has no spec)',
            ),
        jobEffect: z =>
          z
            .string()
            .optional()
            .describe(
              "The plan's effect on running jobs: none, new-cluster, failover, restore-from-checkpoint, restart-from-savepoint or lost",
            ),
        savepoints: z =>
          z
            .array(z.string())
            .optional()
            .describe(
              "With upgradeMode savepoint: the savepoints the running jobs were stopped with (also in the cluster's savepoint history)",
            ),
      },
    },
    async handler(ctx) {
      const upgradeMode = ctx.input.upgradeMode ?? 'stateless';
      if (
        upgradeMode !== 'stateless' &&
        ctx.input.manifestsPath !== undefined
      ) {
        throw new InputError(
          `upgradeMode: ${upgradeMode} needs spec or specFile (manifestsPath has no spec to plan the upgrade from)`,
        );
      }
      const { objects, name, namespace, spec } = await objectsToApply(
        ctx.workspacePath,
        ctx.input,
        options.claimTemplates,
      );
      const entityRef = entityRefOf(ctx.input.entityRef);
      await authorizeApply(
        options.permissions,
        entityRef,
        await ctx.getInitiatorCredentials(),
      );
      const cluster = (await options.clusters.getClusters()).authorize(
        ctx.input.cluster,
        namespace,
      );
      const dryRun = Boolean(ctx.isDryRun);

      const onProgress = (p: ApplyProgress) => {
        const line = describeProgress(p, dryRun);
        if (line) ctx.logger.info(line);
      };
      let result: ApplyResult;
      if (spec && upgradeMode !== 'stateless' && !dryRun) {
        const upgrade = await upgradeCluster(
          cluster,
          await options.clusters.getObserver(),
          spec,
          {
            mode: upgradeMode,
            savepointDirectory: ctx.input.savepointDirectory,
            force: ctx.input.force,
            recreate: ctx.input.recreate,
            signal: ctx.signal,
            onProgress,
            log: line => ctx.logger.info(line),
          },
        );
        ctx.output('plan', upgrade.plan.lines);
        ctx.output('jobEffect', upgrade.plan.jobs.effect);
        ctx.output(
          'savepoints',
          upgrade.savepoints.map(s => s.path),
        );
        result = upgrade.result;
      } else {
        if (spec && upgradeMode === 'savepoint') {
          // A dry run checks what a real run needs first.
          const directory = savepointDirectoryOf(
            spec,
            ctx.input.savepointDirectory,
          );
          ctx.logger.info(
            `Upgrade mode savepoint: a real run stops running jobs with a savepoint into ${directory} before applying, if the plan restarts their pods.`,
          );
        }
        if (spec) {
          // The plan informs; it does not gate: an apply the dry run cannot predict (a claim
          // template change with recreate) still goes on, and fails or succeeds on its own.
          try {
            const plan = await planClusterChange(
              cluster,
              await options.clusters.getObserver(),
              spec,
            );
            for (const line of plan.lines) ctx.logger.info(`Plan: ${line}`);
            ctx.output('plan', plan.lines);
            ctx.output('jobEffect', plan.jobs.effect);
          } catch (error) {
            ctx.logger.warn(`No change plan: ${(error as Error).message}`);
          }
        }
        result = await applyCluster(cluster, objects, {
          dryRun,
          force: ctx.input.force,
          recreate: ctx.input.recreate,
          signal: ctx.signal,
          onProgress,
        });
      }
      ctx.output('name', name);
      ctx.output('namespace', namespace);
      ctx.output('dryRun', dryRun);
      ctx.output(
        'objects',
        result.objects.map(o => ({
          kind: o.kind,
          name: o.name,
          namespace: o.namespace,
          action: o.action,
        })),
      );
      const flinkUiUrl = options.clusters.flinkUiUrl(
        cluster,
        { namespace, name },
        ctx.input.flinkUiUrl,
      );
      if (flinkUiUrl) ctx.output('flinkUiUrl', flinkUiUrl);
      if (dryRun || ctx.input.waitForReady === false) return;
      if (spec?.state === 'suspended') {
        ctx.logger.info(
          'Suspended: both workloads are at 0 replicas, nothing to wait for.',
        );
        return;
      }

      let summary = '';
      const status = await waitForReady(
        await options.clusters.getObserver(),
        { cluster: cluster.name, namespace, name },
        {
          timeoutMs:
            (ctx.input.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS) * 1000,
          signal: ctx.signal,
          acceptSimulatedNodes: true,
          requireConditions: UP_CONDITIONS,
          onProgress: progress => {
            summary = progress.summary;
            ctx.logger.info(summary);
          },
        },
      );
      ctx.output('state', status.jobManagerDeploymentStatus);
      ctx.output('summary', summary);
    },
  });
}
