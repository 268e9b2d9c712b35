import type { KubernetesObject } from '@kubernetes/client-node';
import type { FlinkKubernetesCluster } from '../cluster/ClusterRegistry';
import { isNotFound } from '../kube/errors';
import { ObjectRef, refOf, resourcePath } from '../kube/resources';
import {
  roleCreatedInThisDryRun,
  serverSideApply,
  sortForApply,
} from './applyCluster';

/** @public */
export interface FieldChange {
  /** JSON path such as `spec.replicas` or `data["config.yaml"]`. */
  path: string;
  before?: unknown;
  after?: unknown;
}

/** @public */
export interface ObjectDiff extends ObjectRef {
  action: 'create' | 'update' | 'unchanged';
  changes: FieldChange[];
}

/** Server-maintained parts of an object: never a difference a user caused. */
function comparable(
  object: KubernetesObject | undefined,
): Record<string, unknown> {
  if (!object) return {};
  const { metadata = {}, ...rest } = object as KubernetesObject & {
    status?: unknown;
  };
  const { labels, annotations } = metadata;
  const {
    status: _status,
    apiVersion: _apiVersion,
    kind: _kind,
    ...body
  } = rest as Record<string, unknown>;
  return { metadata: { labels, annotations }, ...body };
}

function formatPath(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  if (!/^[A-Za-z_$][\w$]*$/.test(key)) return `${path}["${key}"]`;
  return path ? `${path}.${key}` : key;
}

/**
 * Leaf-level differences between two JSON values.
 *
 * @public
 */
export function jsonDiff(
  before: unknown,
  after: unknown,
  path = '',
): FieldChange[] {
  if (JSON.stringify(before) === JSON.stringify(after)) return [];
  const bothObjects =
    typeof before === 'object' &&
    before !== null &&
    typeof after === 'object' &&
    after !== null &&
    Array.isArray(before) === Array.isArray(after);
  if (!bothObjects) return [{ path: path || '(object)', before, after }];
  const keys = new Set([
    ...Object.keys(before as object),
    ...Object.keys(after as object),
  ]);
  return [...keys].flatMap(key => {
    const segment = Array.isArray(before) ? Number(key) : key;
    return jsonDiff(
      (before as any)[key],
      (after as any)[key],
      formatPath(path, segment),
    );
  });
}

/**
 * What applying would change, object by object: a server-side dry run of each object (so
 * defaults and merges are the API server's) compared with what is stored now.
 *
 * @public
 */
export async function diffCluster(
  cluster: FlinkKubernetesCluster,
  objects: readonly KubernetesObject[],
): Promise<ObjectDiff[]> {
  const diffs: ObjectDiff[] = [];
  for (const object of sortForApply(objects)) {
    const ref = refOf(object);
    let current: KubernetesObject | undefined;
    try {
      current = await cluster.http.json<KubernetesObject>({
        path: resourcePath(ref.kind, ref.namespace, ref.name),
      });
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
    // As in a dry-run apply: a new binding's Role of this same apply is not stored yet.
    const wouldBe =
      !current &&
      roleCreatedInThisDryRun(
        object,
        diffs.filter(d => d.action === 'create'),
      )
        ? object
        : await serverSideApply(cluster, object, {
            dryRun: true,
            force: true,
          });
    const changes = jsonDiff(comparable(current), comparable(wouldBe));
    let action: ObjectDiff['action'] = 'create';
    if (current) action = changes.length > 0 ? 'update' : 'unchanged';
    diffs.push({ ...ref, action, changes });
  }
  return diffs;
}
