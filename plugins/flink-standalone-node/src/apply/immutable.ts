import type {
  KubernetesObject,
  V1StatefulSet,
  V1StatefulSetSpec,
} from '@kubernetes/client-node';

/**
 * The StatefulSet spec fields the API server refuses to update. It allows only replicas,
 * ordinals, template, updateStrategy, revisionHistoryLimit, persistentVolumeClaimRetentionPolicy
 * and minReadySeconds ("updates to statefulset spec for fields other than … are forbidden");
 * every other field is here, so a change goes the recreate path instead of a raw 422.
 *
 * @public
 */
export type ImmutableField =
  | 'spec.volumeClaimTemplates'
  | 'spec.serviceName'
  | 'spec.selector'
  | 'spec.podManagementPolicy';

/**
 * A difference in a StatefulSet field the API server refuses to update.
 *
 * @public
 */
export interface ImmutableChange {
  field: ImmutableField;
  description: string;
}

interface ImmutableFieldCheck {
  field: ImmutableField;
  /** The field as comparable JSON; server defaults must compare equal to leaving the field out. */
  shape: (spec: V1StatefulSetSpec) => string;
  describe: (before: V1StatefulSetSpec, after: V1StatefulSetSpec) => string;
}

function sortKeys(record: Record<string, string> | undefined) {
  return record
    ? Object.fromEntries(
        Object.entries(record).sort(([a], [b]) => a.localeCompare(b)),
      )
    : {};
}

/** The parts of a claim template we render, as comparable JSON (the server adds defaults). */
function claimTemplateShape(spec: V1StatefulSetSpec) {
  return JSON.stringify(
    (spec.volumeClaimTemplates ?? []).map(t => ({
      name: t.metadata?.name,
      labels: sortKeys(t.metadata?.labels),
      annotations: sortKeys(t.metadata?.annotations),
      accessModes: t.spec?.accessModes,
      storageClassName: t.spec?.storageClassName,
      storage: t.spec?.resources?.requests?.storage,
    })),
  );
}

const claimNames = (spec: V1StatefulSetSpec) =>
  (spec.volumeClaimTemplates ?? []).map(t => t.metadata?.name).join(', ') ||
  'none';

const IMMUTABLE_FIELDS: ImmutableFieldCheck[] = [
  {
    field: 'spec.volumeClaimTemplates',
    shape: claimTemplateShape,
    describe: (before, after) =>
      `the claim templates change (now: ${claimNames(before)}; wanted: ${claimNames(after)}, or a size, class, access mode or label of one)`,
  },
  {
    field: 'spec.serviceName',
    shape: spec => spec.serviceName ?? '',
    describe: (before, after) =>
      `the governing Service changes from "${before.serviceName}" to "${after.serviceName}"`,
  },
  {
    field: 'spec.selector',
    shape: spec =>
      JSON.stringify([
        sortKeys(spec.selector?.matchLabels),
        spec.selector?.matchExpressions ?? [],
      ]),
    describe: () => 'the pod selector changes',
  },
  {
    field: 'spec.podManagementPolicy',
    // OrderedReady is what the API server stores when the field is left out.
    shape: spec => spec.podManagementPolicy ?? 'OrderedReady',
    describe: (before, after) =>
      `the pod management policy changes from ${before.podManagementPolicy ?? 'OrderedReady'} to ${after.podManagementPolicy ?? 'OrderedReady'}`,
  },
];

/** What in `desired` an update of `current` would be refused for. */
export function findImmutableChanges(
  current: KubernetesObject,
  desired: KubernetesObject,
): ImmutableChange[] {
  const before = (current as V1StatefulSet).spec;
  const after = (desired as V1StatefulSet).spec;
  if (!before || !after) return [];
  return IMMUTABLE_FIELDS.filter(
    check => check.shape(before) !== check.shape(after),
  ).map(check => ({
    field: check.field,
    description: check.describe(before, after),
  }));
}
