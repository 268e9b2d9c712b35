import { z } from 'zod';
import {
  DNS_1035_LABEL,
  DNS_1123_LABEL,
  DNS_1123_SUBDOMAIN,
  ENV_VAR_NAME,
  LABEL_VALUE,
  isImageReference,
  isQualifiedKey,
} from './formats';
import { FLINK_VERSIONS, defaultImage } from './flinkVersions';
import { isQuantity, quantityValue } from './quantity';
import { checkSpecRules } from './rules';

/**
 * The cluster spec a software template fills in. This file is the one place where defaults
 * live: every `.default()` below, and the derived ones in `withDerivedDefaults`.
 */

/**
 * 40, so that `<name>-taskmanager-<ordinal>` and the StatefulSet's revision label fit in 63.
 *
 * @public
 */
export const MAX_NAME_LENGTH = 40;

/**
 * The uid/gid of the `flink` user in the official images.
 *
 * @public
 */
export const FLINK_USER_ID = 9999;

const dns1035Name = z
  .string()
  .max(MAX_NAME_LENGTH, {
    error: `must be at most ${MAX_NAME_LENGTH} characters, so that derived pod names (<name>-taskmanager-<ordinal>) and labels stay within Kubernetes' 63-character limit`,
  })
  .regex(DNS_1035_LABEL, {
    error:
      'must be a DNS-1035 label: lowercase letters, digits and "-", starting with a letter and ending with a letter or digit',
  });

const dns1123Label = (max = 63) =>
  z
    .string()
    .max(max, { error: `must be at most ${max} characters` })
    .regex(DNS_1123_LABEL, {
      error:
        'must be a DNS-1123 label: lowercase letters, digits and "-", starting and ending with a letter or digit',
    });

const dns1123Subdomain = z
  .string()
  .max(253, { error: 'must be at most 253 characters' })
  .regex(DNS_1123_SUBDOMAIN, {
    error:
      'must be a DNS-1123 subdomain: lowercase letters, digits, "-" and "."',
  });

const labelValue = z
  .string()
  .max(63, { error: 'must be at most 63 characters (a label value)' })
  .regex(LABEL_VALUE, {
    error:
      'must be a label value: letters, digits, "-", "_" and ".", alphanumeric at both ends',
  });

/** The rule of label, node-selector and annotation keys (Kubernetes' qualified names). */
export const QUALIFIED_KEY_RULE =
  'must be a label or annotation key: an optional DNS subdomain prefix and "/", then at most 63 characters of letters, digits, "-", "_" and ".", alphanumeric at both ends';

const qualifiedKey = z
  .string()
  .refine(isQualifiedKey, { error: QUALIFIED_KEY_RULE });

/**
 * YAML and JSON maps have no order, so the spec's maps come out sorted: the same spec with its
 * keys in another order renders byte-identical manifests.
 */
function sortedKeys<T>(value: T): T {
  if (Array.isArray(value)) return value.map(sortedKeys) as T;
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map(key => [key, sortedKeys((value as Record<string, unknown>)[key])]),
  ) as T;
}

const labels = z.record(qualifiedKey, labelValue).transform(sortedKeys);
const annotations = z.record(qualifiedKey, z.string()).transform(sortedKeys);

const quantity = (
  what: 'cpu' | 'memory' | 'storage',
  example: string,
  minimum?: string,
) =>
  z
    .string()
    .refine(isQuantity, {
      error: `must be a Kubernetes quantity such as "${example}"`,
      abort: true,
    })
    .refine(value => quantityValue(value) > 0, {
      error: `${what} must be greater than zero`,
      abort: true,
    })
    .refine(
      value => !minimum || quantityValue(value) >= quantityValue(minimum),
      {
        error: `must be at least ${minimum}: Flink's fixed overheads (JVM metaspace and overhead, framework memory) do not fit in less`,
      },
    );

const int = (min: number, max: number, why = '') =>
  z
    .number({ error: 'must be a number' })
    .int({ error: 'must be a whole number' })
    .min(min, { error: `must be at least ${min}${why}` })
    .max(max, { error: `must be at most ${max}${why}` });

const absolutePath = z
  .string()
  .regex(/^\/[^\0:]*$/, { error: 'must be an absolute path without ":"' });

const ACCESS_MODES = [
  'ReadWriteOnce',
  'ReadOnlyMany',
  'ReadWriteMany',
  'ReadWriteOncePod',
] as const;

export const volumeClaimTemplateSchema = z.strictObject({
  /** The volume's name in the pod; claims are named `<name>-<workload>-<ordinal>`. */
  name: dns1123Label(),
  /** Where the volume is mounted; defaults to `/opt/flink/volumes/<name>`. */
  mountPath: absolutePath.optional(),
  storage: quantity('storage', '10Gi'),
  storageClassName: dns1123Subdomain.optional(),
  accessModes: z
    .array(
      z.enum(ACCESS_MODES, {
        error: `must be one of ${ACCESS_MODES.join(', ')}`,
      }),
    )
    .min(1, { error: 'must name at least one access mode' })
    .default(['ReadWriteOnce']),
  labels: labels.default({}),
  annotations: annotations.default({}),
});

const RETENTION = ['Retain', 'Delete'] as const;
const retentionPolicy = z.enum(RETENTION, {
  error: 'must be Retain or Delete',
});

/**
 * Local-recovery state is a copy of checkpoints that live in durable storage, so deleting claims
 * with their cluster (or scaled-away TaskManager) loses nothing and avoids leaked volumes.
 */
const pvcRetentionSchema = z
  .strictObject({
    whenDeleted: retentionPolicy.default('Delete'),
    whenScaled: retentionPolicy.default('Delete'),
  })
  .prefault({});

const resourcesSchema = (
  defaults: { cpu: string; memory: string },
  minimumMemory: string,
) =>
  z
    .strictObject({
      cpu: quantity('cpu', '500m').default(defaults.cpu),
      memory: quantity('memory', '2Gi', minimumMemory).default(defaults.memory),
    })
    .prefault({});

/**
 * The workload kinds a Flink component can run as.
 *
 * @public
 */
export const WORKLOAD_KINDS = ['StatefulSet', 'Deployment'] as const;
const workloadKind = (fallback: (typeof WORKLOAD_KINDS)[number]) =>
  z
    .enum(WORKLOAD_KINDS, { error: 'must be StatefulSet or Deployment' })
    .default(fallback);

const jobManagerSchema = z
  .strictObject({
    workload: workloadKind('Deployment'),
    replicas: int(1, 3, ' (one leader and up to two standbys)').default(1),
    resources: resourcesSchema({ cpu: '1', memory: '1600Mi' }, '768Mi'),
    volumeClaimTemplates: z.array(volumeClaimTemplateSchema).max(8).default([]),
    pvcRetention: pvcRetentionSchema,
  })
  .prefault({});

const podDisruptionBudgetSchema = z.strictObject({
  maxUnavailable: z.union(
    [
      int(0, 1000),
      z.string().regex(/^\d{1,3}%$/, {
        error: 'must be a count or a percentage such as "10%"',
      }),
    ],
    { error: 'must be a count or a percentage such as "10%"' },
  ),
});

const taskManagerSchema = z
  .strictObject({
    workload: workloadKind('StatefulSet'),
    replicas: int(1, 1000).default(1),
    slots: int(1, 1024).default(1),
    resources: resourcesSchema({ cpu: '1', memory: '1728Mi' }, '1Gi'),
    volumeClaimTemplates: z.array(volumeClaimTemplateSchema).max(8).default([]),
    podManagementPolicy: z
      .enum(['Parallel', 'OrderedReady'], {
        error: 'must be Parallel or OrderedReady',
      })
      .default('Parallel'),
    pvcRetention: pvcRetentionSchema,
    /** Defaults to on for StatefulSet TaskManagers with a volume, off otherwise. */
    localRecovery: z.boolean({ error: 'must be true or false' }).optional(),
    podDisruptionBudget: podDisruptionBudgetSchema.optional(),
  })
  .prefault({});

const JAVA_CLASS_NAME = /^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*$/;

/** Jars in the image must be where `standalone-job` puts its user classpath. */
const JAR_URI =
  /^(local:\/\/\/opt\/flink\/usrlib\/[^\s]+\.jar|https?:\/\/[^\s]+\.jar)$/;

const jobSchema = z.strictObject({
  jarURI: z
    .string({ error: 'is required in application mode' })
    .regex(JAR_URI, {
      error:
        'must be local:///opt/flink/usrlib/<file>.jar (a jar in the image, where standalone-job loads the user classpath from) or an http(s):// URL of a .jar (fetched by an init container)',
    }),
  entryClass: z
    .string({ error: 'is required in application mode' })
    .regex(JAVA_CLASS_NAME, {
      error: 'must be a fully qualified Java class name',
    }),
  args: z.array(z.string()).default([]),
  parallelism: int(1, 100_000).optional(),
  initialSavepointPath: z
    .string()
    .regex(/^[a-z][a-z0-9+.-]*:\/\/\S+$/, {
      error: 'must be a URI such as s3://bucket/savepoints/savepoint-1',
    })
    .optional(),
  allowNonRestoredState: z
    .boolean({ error: 'must be true or false' })
    .default(false),
  /** Image of the init container that downloads an http(s) jar. */
  jarFetcherImage: z
    .string()
    .refine(isImageReference, { error: 'must be a valid image reference' })
    .default('curlimages/curl:8.11.1'),
});

const highAvailabilitySchema = z.strictObject({
  storageDir: z
    .string({
      error: 'is required: Kubernetes HA keeps JobManager metadata there',
    })
    .regex(/^[a-z][a-z0-9+.-]*:\/\/\S+$/, {
      error: 'must be a URI of durable storage such as s3://bucket/flink-ha',
    }),
});

/** Dot-separated segments; `$` for Flink's `$internal.*` keys, `_` for env names in keys. */
const FLINK_KEY = /^[A-Za-z0-9_$-]+(\.[A-Za-z0-9_$-]+)*$/;

/** The rule of flinkConfiguration keys. */
export const FLINK_KEY_RULE =
  'must be a Flink configuration key such as state.backend.type: segments of letters, digits, "-", "_" and "$" joined by "."';

const flinkConfigurationSchema = z
  .record(
    z.string().regex(FLINK_KEY, { error: FLINK_KEY_RULE }),
    z.union(
      [
        z.string().regex(/^[^\n\r]*$/, {
          error: 'must be a single line (flink-conf.yaml is line-based)',
        }),
        z.number(),
        z.boolean(),
      ],
      { error: 'must be a string, number or boolean' },
    ),
  )
  .default({});

const tolerationSchema = z.strictObject({
  key: qualifiedKey.optional(),
  operator: z
    .enum(['Exists', 'Equal'], { error: 'must be Exists or Equal' })
    .optional(),
  value: labelValue.optional(),
  effect: z
    .enum(['NoSchedule', 'PreferNoSchedule', 'NoExecute'], {
      error: 'must be NoSchedule, PreferNoSchedule or NoExecute',
    })
    .optional(),
  tolerationSeconds: z.number().int().optional(),
});

/** Affinity terms are passed through as written; the API server validates their shape. */
const affinityTerms = z.record(z.string(), z.unknown()).transform(sortedKeys);
const affinitySchema = z.strictObject({
  nodeAffinity: affinityTerms.optional(),
  podAffinity: affinityTerms.optional(),
  podAntiAffinity: affinityTerms.optional(),
});

const podTemplateSchema = z
  .strictObject({
    labels: labels.default({}),
    annotations: annotations.default({}),
    nodeSelector: labels.default({}),
    tolerations: z.array(tolerationSchema).default([]),
    affinity: affinitySchema.optional(),
    serviceAccountName: dns1123Subdomain.optional(),
    imagePullSecrets: z.array(dns1123Subdomain).default([]),
    priorityClassName: dns1123Subdomain.optional(),
    env: z
      .array(
        z.strictObject({
          name: z.string().regex(ENV_VAR_NAME, {
            error: 'must be an environment variable name',
          }),
          value: z.string(),
        }),
      )
      .default([]),
    securityContext: z
      .strictObject({
        runAsUser: int(0, 2 ** 31 - 1).default(FLINK_USER_ID),
        runAsGroup: int(0, 2 ** 31 - 1).default(FLINK_USER_ID),
        /** Makes every mounted claim writable by the Flink user. */
        fsGroup: int(0, 2 ** 31 - 1).default(FLINK_USER_ID),
        runAsNonRoot: z.boolean().default(true),
      })
      .prefault({}),
  })
  .prefault({});

const restSchema = z
  .strictObject({
    serviceType: z
      .enum(['ClusterIP', 'NodePort', 'LoadBalancer'], {
        error: 'must be ClusterIP, NodePort or LoadBalancer',
      })
      .default('ClusterIP'),
    nodePort: int(30000, 32767, ' (the default NodePort range)').optional(),
    annotations: annotations.default({}),
  })
  .prefault({});

const clusterSpecObject = z.strictObject({
  name: dns1035Name,
  namespace: dns1123Label(),
  /** The Backstage component the cluster belongs to (`backstage.io/kubernetes-id`); defaults to name. */
  component: labelValue.optional(),
  flinkVersion: z.enum(FLINK_VERSIONS, {
    error: `must be one of the supported Flink versions: ${FLINK_VERSIONS.join(', ')}`,
  }),
  image: z
    .string()
    .refine(isImageReference, {
      error:
        'must be a valid image reference such as flink:2.1 or registry.example.com/team/flink:2.1-java17',
    })
    .optional(),
  imagePullPolicy: z
    .enum(['IfNotPresent', 'Always', 'Never'], {
      error: 'must be IfNotPresent, Always or Never',
    })
    .default('IfNotPresent'),
  mode: z
    .enum(['session', 'application'], {
      error: 'must be session or application',
    })
    .default('session'),
  /**
   * `suspended`: no pod runs (both workloads at 0 replicas, claims kept). An upgrade in savepoint
   * mode stops running jobs with a savepoint first, and resuming starts from it.
   */
  state: z
    .enum(['running', 'suspended'], {
      error: 'must be running or suspended',
    })
    .default('running'),
  job: jobSchema.optional(),
  jobManager: jobManagerSchema,
  taskManager: taskManagerSchema,
  highAvailability: highAvailabilitySchema.optional(),
  flinkConfiguration: flinkConfigurationSchema,
  podTemplate: podTemplateSchema,
  rest: restSchema,
});

type ParsedSpecObject = z.output<typeof clusterSpecObject>;

/** Defaults that depend on other fields. */
function withDerivedDefaults(spec: ParsedSpecObject) {
  const mountPaths = <T extends { name: string; mountPath?: string }>(
    templates: T[],
  ) =>
    templates.map(t => ({
      ...t,
      mountPath: t.mountPath ?? `/opt/flink/volumes/${t.name}`,
    }));
  return {
    ...spec,
    component: spec.component ?? spec.name,
    image: spec.image ?? defaultImage(spec.flinkVersion),
    jobManager: {
      ...spec.jobManager,
      volumeClaimTemplates: mountPaths(spec.jobManager.volumeClaimTemplates),
    },
    taskManager: {
      ...spec.taskManager,
      volumeClaimTemplates: mountPaths(spec.taskManager.volumeClaimTemplates),
      localRecovery:
        spec.taskManager.localRecovery ??
        (spec.taskManager.workload === 'StatefulSet' &&
          spec.taskManager.volumeClaimTemplates.length > 0),
    },
  };
}

/** @public */
export const clusterSpecSchema = clusterSpecObject
  // Cross-field rules run even when a field is invalid, so one call reports every problem.
  .superRefine(checkSpecRules, { when: () => true })
  .transform(withDerivedDefaults);

/**
 * What a template or a user writes: every field with a default may be left out.
 *
 * @public
 */
export type ClusterSpecInput = z.input<typeof clusterSpecSchema>;
/**
 * The full spec, with every default applied.
 *
 * @public
 */
export type ClusterSpec = z.output<typeof clusterSpecSchema>;
/** @public */
export type VolumeClaimTemplateSpec =
  ClusterSpec['taskManager']['volumeClaimTemplates'][number];
/** @public */
export type JobManagerSpec = ClusterSpec['jobManager'];
/** @public */
export type TaskManagerSpec = ClusterSpec['taskManager'];
/** @public */
export type WorkloadKind = (typeof WORKLOAD_KINDS)[number];
