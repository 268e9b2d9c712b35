import type { KubernetesObject, V1StatefulSet } from '@kubernetes/client-node';

/** A difference in a StatefulSet field the API server refuses to update. */
export interface ImmutableChange {
  field: 'spec.volumeClaimTemplates' | 'spec.serviceName' | 'spec.selector';
  description: string;
}

/** The parts of a claim template we render, as comparable JSON (the server adds defaults). */
function claimTemplateShape(template: NonNullable<V1StatefulSet['spec']>['volumeClaimTemplates']) {
  return JSON.stringify(
    (template ?? []).map(t => ({
      name: t.metadata?.name,
      labels: sortKeys(t.metadata?.labels),
      annotations: sortKeys(t.metadata?.annotations),
      accessModes: t.spec?.accessModes,
      storageClassName: t.spec?.storageClassName,
      storage: t.spec?.resources?.requests?.storage,
    })),
  );
}

function sortKeys(record: Record<string, string> | undefined) {
  return record ? Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b))) : {};
}

/** What in `desired` an update of `current` would be refused for. */
export function findImmutableChanges(current: KubernetesObject, desired: KubernetesObject): ImmutableChange[] {
  const before = (current as V1StatefulSet).spec;
  const after = (desired as V1StatefulSet).spec;
  if (!before || !after) return [];
  const changes: ImmutableChange[] = [];
  if (claimTemplateShape(before.volumeClaimTemplates) !== claimTemplateShape(after.volumeClaimTemplates)) {
    const names = (s: typeof before) => (s.volumeClaimTemplates ?? []).map(t => t.metadata?.name).join(', ') || 'none';
    changes.push({
      field: 'spec.volumeClaimTemplates',
      description: `the claim templates change (now: ${names(before)}; wanted: ${names(after)}, or a size, class, access mode or label of one)`,
    });
  }
  if ((after.serviceName ?? '') !== (before.serviceName ?? '')) {
    changes.push({
      field: 'spec.serviceName',
      description: `the governing Service changes from "${before.serviceName}" to "${after.serviceName}"`,
    });
  }
  if (JSON.stringify(sortKeys(before.selector?.matchLabels)) !== JSON.stringify(sortKeys(after.selector?.matchLabels))) {
    changes.push({ field: 'spec.selector', description: 'the pod selector changes' });
  }
  return changes;
}
