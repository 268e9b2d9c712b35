import { ConflictError, InputError, NotAllowedError } from '@backstage/errors';
import type { KubernetesObject, V1RoleBinding } from '@kubernetes/client-node';
import type { FlinkKubernetesCluster } from '../cluster/ClusterRegistry';
import { KubernetesApiError, isNotFound } from '../kube/errors';
import { ObjectRef, describeRef, refOf, resourcePath } from '../kube/resources';
import { findImmutableChanges, ImmutableChange } from './immutable';

/**
 * The field manager of every apply: one owner for every field the renderer sets.
 *
 * @public
 */
export const FIELD_MANAGER = 'flink-standalone';
/**
 * Scale requests own `spec.replicas` under this name, which a later apply takes back.
 *
 * @public
 */
export const SCALE_FIELD_MANAGER = 'flink-standalone-scale';
const OUR_MANAGERS = [FIELD_MANAGER, SCALE_FIELD_MANAGER];

/** Dependency order: what pods need (identity, config) before the workloads that start them. */
const APPLY_ORDER = [
  ['ServiceAccount'],
  ['Role'],
  ['RoleBinding'],
  ['ConfigMap'],
  ['Service'],
  ['StatefulSet', 'Deployment'],
  ['PodDisruptionBudget'],
];

/** @public */
export type ApplyAction = 'created' | 'configured' | 'unchanged' | 'recreated';

/** @public */
export interface AppliedObject extends ObjectRef {
  action: ApplyAction;
  resourceVersion?: string;
  /** What a dry run could not check. */
  note?: string;
}

/** @public */
export interface ApplyProgress {
  type: 'applying' | 'applied' | 'recreating';
  object: ObjectRef;
  action?: ApplyAction;
  index: number;
  total: number;
}

/** @public */
export interface ApplyOptions {
  /** Server-side dry run (`dryRun=All`): validated and defaulted by the API server, nothing stored. */
  dryRun?: boolean;
  /** Take over fields owned by other field managers. */
  force?: boolean;
  /**
   * When a StatefulSet's immutable fields change: delete it with orphan propagation (pods and
   * claims stay) and create it again, so the same ordinals keep their claims.
   */
  recreate?: boolean;
  onProgress?: (progress: ApplyProgress) => void;
  signal?: AbortSignal;
}

/** @public */
export interface ApplyResult {
  dryRun: boolean;
  objects: AppliedObject[];
}

/**
 * Which objects an apply that failed part-way did and did not apply.
 *
 * @public
 */
export interface ApplyReport {
  applied: string[];
  failed: { object: string; message: string };
  notApplied: string[];
}

/** @public */
export interface FieldConflict {
  field: string;
  manager: string;
  message: string;
}

/**
 * Another field manager owns fields this apply sets.
 *
 * @public
 */
export class FieldConflictError extends ConflictError {
  constructor(
    message: string,
    readonly conflicts: FieldConflict[],
  ) {
    super(message);
  }
}

/**
 * A change Kubernetes refuses on an existing StatefulSet (any field but replicas, template, update strategy and the like).
 *
 * @public
 */
export class ImmutableFieldError extends ConflictError {
  constructor(
    message: string,
    readonly changes: ImmutableChange[],
  ) {
    super(message);
  }
}

/**
 * The partial-failure report of an error thrown by `applyCluster`, if it has one.
 *
 * @public
 */
export function applyReportOf(error: unknown): ApplyReport | undefined {
  return (error as { applyReport?: ApplyReport })?.applyReport;
}

/** @public */
export function sortForApply<T extends KubernetesObject>(
  objects: readonly T[],
): T[] {
  const rank = (o: T) => {
    const index = APPLY_ORDER.findIndex(kinds => kinds.includes(o.kind ?? ''));
    return index < 0 ? APPLY_ORDER.length : index;
  };
  // Stable: the renderer's order (JobManager before TaskManagers) survives within a kind.
  return objects
    .map((o, i) => [o, i] as const)
    .sort((a, b) => rank(a[0]) - rank(b[0]) || a[1] - b[1])
    .map(([o]) => o);
}

async function readCurrent(
  cluster: FlinkKubernetesCluster,
  ref: ObjectRef,
): Promise<KubernetesObject | undefined> {
  try {
    return await cluster.http.json<KubernetesObject>({
      path: resourcePath(ref.kind, ref.namespace, ref.name),
    });
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

/**
 * One server-side apply request.
 *
 * @public
 */
export function serverSideApply<T extends KubernetesObject>(
  cluster: FlinkKubernetesCluster,
  object: T,
  options: {
    dryRun?: boolean;
    force?: boolean;
    fieldManager?: string;
    signal?: AbortSignal;
  },
): Promise<T> {
  const ref = refOf(object);
  return cluster.http.json<T>({
    method: 'PATCH',
    path: resourcePath(ref.kind, ref.namespace, ref.name),
    query: {
      fieldManager: options.fieldManager ?? FIELD_MANAGER,
      force: options.force || undefined,
      dryRun: options.dryRun ? 'All' : undefined,
    },
    // JSON is YAML, which is what the apply patch type expects.
    contentType: 'application/apply-patch+yaml',
    body: object,
    signal: options.signal,
  });
}

function conflictsOf(error: KubernetesApiError): FieldConflict[] {
  return error.causes
    .filter(cause => cause.reason === 'FieldManagerConflict')
    .map(cause => ({
      field: cause.field ?? '',
      manager:
        /conflict with "([^"]+)"/.exec(cause.message ?? '')?.[1] ?? 'unknown',
      message: cause.message ?? '',
    }));
}

async function applyOne(
  cluster: FlinkKubernetesCluster,
  object: KubernetesObject,
  options: ApplyOptions,
): Promise<KubernetesObject> {
  try {
    return await serverSideApply(cluster, object, options);
  } catch (error) {
    if (
      !(error instanceof KubernetesApiError) ||
      error.statusCode !== 409 ||
      options.force
    )
      throw error;
    const conflicts = conflictsOf(error);
    // Fields our own scale requests own are ours to take back.
    if (
      conflicts.length > 0 &&
      conflicts.every(c => OUR_MANAGERS.includes(c.manager))
    ) {
      return serverSideApply(cluster, object, { ...options, force: true });
    }
    const ref = refOf(object);
    throw new FieldConflictError(
      `${describeRef(ref)}: fields are owned by another field manager: ${conflicts
        .map(c => `${c.field} (${c.manager})`)
        .join(', ')}. Apply with force to take them over.`,
      conflicts,
    );
  }
}

async function waitUntilGone(
  cluster: FlinkKubernetesCluster,
  ref: ObjectRef,
  signal?: AbortSignal,
) {
  for (let attempt = 0; attempt < 600; attempt++) {
    signal?.throwIfAborted();
    if (!(await readCurrent(cluster, ref))) return;
    await new Promise(resolve => setTimeout(resolve, 100));
  }
  throw new Error(`${describeRef(ref)} was not deleted within 60 s`);
}

/** Deletes a StatefulSet but leaves its pods and claims, so the new one adopts them. */
async function deleteOrphaning(
  cluster: FlinkKubernetesCluster,
  ref: ObjectRef,
  signal?: AbortSignal,
) {
  await cluster.http.json({
    method: 'DELETE',
    path: resourcePath(ref.kind, ref.namespace, ref.name),
    body: {
      kind: 'DeleteOptions',
      apiVersion: 'v1',
      propagationPolicy: 'Orphan',
    },
    signal,
  });
  await waitUntilGone(cluster, ref, signal);
}

function explainImmutable(ref: ObjectRef, changes: ImmutableChange[]): string {
  return `${describeRef(ref)}: ${changes.map(c => c.description).join('; ')}. Kubernetes does not allow changing ${changes
    .map(c => c.field)
    .join(
      ', ',
    )} of an existing StatefulSet. Apply with recreate to delete the StatefulSet with orphan propagation and create it again: its pods keep running and every ordinal keeps its claim.`;
}

/** Unchanged when the API server kept the resourceVersion: a no-op apply does not bump it. */
function actionOf(
  current: KubernetesObject | undefined,
  resourceVersion?: string,
): ApplyAction {
  if (!current) return 'created';
  return current.metadata?.resourceVersion === resourceVersion
    ? 'unchanged'
    : 'configured';
}

/**
 * A new RoleBinding to a Role that the same dry run creates: the API server checks a binding
 * against its Role, which a dry run does not store, so only a real apply can check it.
 */
export function roleCreatedInThisDryRun(
  object: KubernetesObject,
  created: readonly ObjectRef[],
): boolean {
  if (object.kind !== 'RoleBinding') return false;
  const { roleRef } = object as V1RoleBinding;
  return created.some(o => o.kind === 'Role' && o.name === roleRef.name);
}

/** The error to throw for a failure, with the partial-failure report on it. */
function failure(
  error: unknown,
  ref: ObjectRef,
  applied: AppliedObject[],
  rest: KubernetesObject[],
): Error {
  const report: ApplyReport = {
    applied: applied.map(describeRef),
    failed: { object: describeRef(ref), message: (error as Error).message },
    notApplied: rest.map(o => describeRef(refOf(o))),
  };
  const summary = ` (applied: ${report.applied.join(', ') || 'none'}; not applied: ${report.notApplied.join(', ') || 'none'})`;
  let result: Error;
  if (
    error instanceof ConflictError ||
    error instanceof InputError ||
    error instanceof NotAllowedError
  ) {
    result = error;
    result.message += summary;
  } else if (
    error instanceof KubernetesApiError &&
    (error.statusCode === 422 || error.statusCode === 400)
  ) {
    result = new InputError(
      `${describeRef(ref)} was refused by the API server: ${error.message}${summary}`,
    );
  } else if (error instanceof KubernetesApiError && error.statusCode === 403) {
    result = new NotAllowedError(
      `${describeRef(ref)}: ${error.message}${summary}`,
    );
  } else {
    result = new Error(
      `Applying ${describeRef(ref)} failed: ${(error as Error).message}${summary}`,
    );
  }
  return Object.assign(result, { applyReport: report });
}

/**
 * Server-side applies a Flink cluster's objects in dependency order. Re-applying the same
 * objects changes nothing. A failure part-way says which objects were applied and which not;
 * applying again converges.
 *
 * @public
 */
export async function applyCluster(
  cluster: FlinkKubernetesCluster,
  objects: readonly KubernetesObject[],
  options: ApplyOptions = {},
): Promise<ApplyResult> {
  const ordered = sortForApply(objects);
  const applied: AppliedObject[] = [];
  for (const [index, object] of ordered.entries()) {
    const ref = refOf(object);
    const progress = (p: Omit<ApplyProgress, 'object' | 'index' | 'total'>) =>
      options.onProgress?.({ ...p, object: ref, index, total: ordered.length });
    try {
      options.signal?.throwIfAborted();
      progress({ type: 'applying' });
      const current = await readCurrent(cluster, ref);
      let action: ApplyAction | undefined;
      if (current && ref.kind === 'StatefulSet') {
        const changes = findImmutableChanges(current, object);
        if (changes.length > 0) {
          if (!options.recreate)
            throw new ImmutableFieldError(
              explainImmutable(ref, changes),
              changes,
            );
          progress({ type: 'recreating' });
          if (!options.dryRun)
            await deleteOrphaning(cluster, ref, options.signal);
          action = 'recreated';
        }
      }
      if (
        options.dryRun &&
        !current &&
        roleCreatedInThisDryRun(
          object,
          applied.filter(o => o.action === 'created'),
        )
      ) {
        // The API server checks a new binding against its Role, which a dry run did not store.
        applied.push({
          ...ref,
          action: 'created',
          note: `its Role ${(object as V1RoleBinding).roleRef.name} does not exist yet, so the API server can only check this binding on a real apply`,
        });
        progress({ type: 'applied', action: 'created' });
        continue;
      }
      const result =
        action === 'recreated' && options.dryRun
          ? current!
          : await applyOne(cluster, object, options);
      const resourceVersion = result.metadata?.resourceVersion;
      action ??= actionOf(current, resourceVersion);
      applied.push({ ...ref, action, resourceVersion });
      progress({ type: 'applied', action });
    } catch (error) {
      throw failure(error, ref, applied, ordered.slice(index + 1));
    }
  }
  return { dryRun: !!options.dryRun, objects: applied };
}
