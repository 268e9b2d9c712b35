import type {
  CoreV1Event,
  KubernetesObject,
  V1Node,
  V1PersistentVolumeClaim,
  V1Pod,
  V1ReplicaSet,
} from '@kubernetes/client-node';
import {
  TYPE_FLINK_STANDALONE,
  clusterObjectNames,
} from '@flink-standalone/plugin-flink-standalone-common';
import type { FlinkKubernetesCluster } from '../cluster/ClusterRegistry';
import type { ClusterSnapshot, Workload } from '../observer/types';
import { Informer, InformerOptions } from './Informer';
import {
  Slimmer,
  slimClaim,
  slimEvent,
  slimNode,
  slimPod,
  slimWorkload,
} from './slim';

/** The objects of a snapshot whose events it holds. */
function involvedNames(
  objects: Pick<
    ClusterSnapshot,
    'jobManager' | 'taskManager' | 'pods' | 'claims' | 'replicaSets'
  >,
) {
  const { jobManager, taskManager, pods, claims, replicaSets = [] } = objects;
  const all = [jobManager, taskManager, ...replicaSets, ...pods, ...claims];
  return new Set(all.flatMap(o => (o ? [o.metadata!.name!] : [])));
}

function nodeNamesOf(pods: V1Pod[]): Set<string> {
  return new Set(
    pods.flatMap(p => (p.spec?.nodeName ? [p.spec.nodeName] : [])),
  );
}

/** Kinds whose events can concern a Flink cluster. */
const EVENT_KINDS = [
  'Pod',
  'StatefulSet',
  'Deployment',
  'ReplicaSet',
  'PersistentVolumeClaim',
];

const byApp = (o: KubernetesObject) => {
  const app = o.metadata?.labels?.app;
  return app ? [`${o.metadata?.namespace}/${app}`] : [];
};
const byInvolvedObject = (o: KubernetesObject) => {
  const involved = (o as CoreV1Event).involvedObject;
  return [`${involved.namespace ?? o.metadata?.namespace}/${involved.name}`];
};

interface Scope {
  /** Undefined: cluster-wide. */
  namespace?: string;
  informers: Record<
    | 'StatefulSet'
    | 'Deployment'
    | 'ReplicaSet'
    | 'Pod'
    | 'PersistentVolumeClaim'
    | 'Event',
    Informer
  >;
}

/**
 * What a snapshot was read from (see `ClusterWatchCache.sourcesOf`).
 *
 * @public
 */
export interface SnapshotSources {
  namespace: string;
  appKey: string;
  eventKeys: string[];
  nodeNames: string[];
  nodesMissing: boolean;
}

/** @public */
export interface WatchCacheOptions {
  /** Watch these namespaces only (namespaced RBAC); undefined: the whole cluster. */
  namespaces?: string[];
  /**
   * After each change the cache takes in, with the Flink clusters (`<namespace>/<name>`) whose
   * snapshots it may change; none named: any may change (a watch connected or lost, a node).
   */
  onChange?: (clusters?: string[]) => void;
  minBackoffMs?: number;
  maxBackoffMs?: number;
}

/**
 * The watch cache of one Kubernetes cluster, shared by every entity: list + watch of the Flink
 * clusters' workloads, pods, claims and events (label-selected; events filtered to our kinds),
 * and of nodes. A status read is a lookup in memory: no API request.
 *
 * @public
 */
export class ClusterWatchCache {
  private readonly scopes: Scope[];
  /** Every scope's informers (not the nodes'): read on every status request. */
  private readonly allInformers: Informer[];
  private readonly nodes: Informer;

  constructor(
    readonly cluster: FlinkKubernetesCluster,
    options: WatchCacheOptions = {},
  ) {
    const informer = (
      kind: string,
      namespace: string | undefined,
      slim: Slimmer,
      extra: Partial<InformerOptions> = {},
    ) =>
      new Informer(cluster.http, {
        kind,
        namespace,
        slim,
        onChange:
          options.onChange &&
          (objects => options.onChange!(objects && this.clustersOf(objects))),
        minBackoffMs: options.minBackoffMs,
        maxBackoffMs: options.maxBackoffMs,
        ...extra,
      });
    const labelled = {
      labelSelector: `type=${TYPE_FLINK_STANDALONE}`,
      indexKeys: byApp,
    };
    const namespaces: (string | undefined)[] = options.namespaces ?? [
      undefined,
    ];
    this.scopes = namespaces.map(namespace => ({
      namespace,
      informers: {
        StatefulSet: informer('StatefulSet', namespace, slimWorkload, labelled),
        Deployment: informer('Deployment', namespace, slimWorkload, labelled),
        ReplicaSet: informer('ReplicaSet', namespace, slimWorkload, labelled),
        Pod: informer('Pod', namespace, slimPod, labelled),
        PersistentVolumeClaim: informer(
          'PersistentVolumeClaim',
          namespace,
          slimClaim,
          labelled,
        ),
        Event: informer('Event', namespace, slimEvent, {
          keep: o =>
            EVENT_KINDS.includes((o as CoreV1Event).involvedObject?.kind ?? ''),
          indexKeys: byInvolvedObject,
        }),
      },
    }));
    this.allInformers = this.scopes.flatMap(s => Object.values(s.informers));
    this.nodes = informer('Node', undefined, slimNode, {
      optional: true,
      // Kubelets update their node every few seconds with nothing but heartbeat times.
      ignoreUnchanged: true,
      indexKeys: o => [o.metadata!.name!],
    });
  }

  start(): void {
    for (const informer of [...this.allInformers, this.nodes]) informer.start();
  }

  stop(): void {
    for (const informer of [...this.allInformers, this.nodes]) informer.stop();
  }

  /** Resolves once every informer has listed once; rejects after the timeout. */
  async synced(timeoutMs = 30_000): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new Error(
              `The watch cache of cluster "${this.cluster.name}" did not sync within ${timeoutMs} ms`,
            ),
          ),
        timeoutMs,
      );
    });
    try {
      await Promise.race([
        Promise.all([...this.allInformers, this.nodes].map(i => i.synced())),
        timeout,
      ]);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * The Flink clusters (`<namespace>/<app label>`, as `sourcesOf` keys them) whose snapshots a
   * change of these objects may change: an event's, those of the object it involves, if cached
   * (a snapshot holds the events of its own objects only); undefined for a node, whose pods may
   * be anyone's.
   */
  private clustersOf(objects: KubernetesObject[]): string[] | undefined {
    const clusters = new Set<string>();
    for (const object of objects) {
      if (object.kind === 'Node') return undefined;
      const owner =
        object.kind === 'Event'
          ? this.involvedObject(object as CoreV1Event)
          : object;
      for (const app of owner ? byApp(owner) : []) clusters.add(app);
    }
    return [...clusters];
  }

  private involvedObject(event: CoreV1Event): KubernetesObject | undefined {
    const { kind, namespace, name } = event.involvedObject;
    const informers = this.scopeOf(namespace ?? '')?.informers;
    return informers && name && kind && kind in informers
      ? informers[kind as keyof Scope['informers']].get(namespace, name)
      : undefined;
  }

  /** Disconnected from some watch: answers are as of `lastSyncedAt`. Nodes are optional (RBAC). */
  get stale(): boolean {
    return this.allInformers.some(i => !i.state.connected);
  }

  get lastSyncedAt(): Date | undefined {
    const times = this.allInformers.map(
      i => i.state.lastSyncedAt?.getTime() ?? 0,
    );
    const oldest = Math.min(...times);
    return oldest > 0 ? new Date(oldest) : undefined;
  }

  /** How many objects the cache holds, per kind (for benchmarks and diagnostics). */
  sizes(): Record<string, number> {
    return this.perKind(informer => informer.size);
  }

  /**
   * How many times each kind was listed: once to sync (per namespace watched), then once per
   * relist (after a watch's history was lost, 410 Gone). For benchmarks and diagnostics.
   */
  lists(): Record<string, number> {
    return this.perKind(informer => informer.state.relists);
  }

  /**
   * How many changes each kind brought: objects added, updated or removed, as the watches (or a
   * relist) told them. For benchmarks and diagnostics: which kind keeps statuses recomputing.
   */
  changes(): Record<string, number> {
    return this.perKind(informer => informer.state.changes);
  }

  /** A count of each informer, per kind: summed over the namespaces watched. */
  private perKind(
    count: (informer: Informer) => number,
  ): Record<string, number> {
    const counts: Record<string, number> = { Node: count(this.nodes) };
    for (const scope of this.scopes) {
      for (const [kind, informer] of Object.entries(scope.informers))
        counts[kind] = (counts[kind] ?? 0) + count(informer);
    }
    return counts;
  }

  private scopeOf(namespace: string): Scope | undefined {
    return this.scopes.find(
      s => s.namespace === undefined || s.namespace === namespace,
    );
  }

  /**
   * The change counters a snapshot was read from: the cluster's workloads, pods and claims (by
   * app label), the events of the objects it held, the nodes its pods ran on. Those sets change
   * only with a change counted first, so other clusters' events and pods and node heartbeats of
   * other nodes never make a snapshot look old.
   */
  sourcesOf(snapshot: ClusterSnapshot): SnapshotSources {
    const podNodes = nodeNamesOf(snapshot.pods);
    return {
      namespace: snapshot.namespace,
      appKey: `${snapshot.namespace}/${snapshot.name}`,
      eventKeys: [...involvedNames(snapshot)].map(
        name => `${snapshot.namespace}/${name}`,
      ),
      nodeNames: snapshot.nodes.map(node => node.metadata!.name!),
      nodesMissing: snapshot.nodes.length < podNodes.size,
    };
  }

  /**
   * A cheap key that changes whenever a new snapshot of the same sources may differ, so that a
   * status computed from an earlier snapshot can be reused.
   */
  version(sources: SnapshotSources): string {
    const scope = this.scopeOf(sources.namespace);
    if (!scope) return 'none';
    const { informers } = scope;
    let events = 0;
    for (const key of sources.eventKeys) events += informers.Event.changes(key);
    let nodes = 0;
    for (const name of sources.nodeNames) nodes += this.nodes.changes(name);
    const stale = this.stale;
    return [
      informers.StatefulSet.changes(sources.appKey),
      informers.Deployment.changes(sources.appKey),
      informers.ReplicaSet.changes(sources.appKey),
      informers.Pod.changes(sources.appKey),
      informers.PersistentVolumeClaim.changes(sources.appKey),
      events,
      nodes,
      // A node a pod names that is not cached (yet): any node change may bring it.
      sources.nodesMissing ? this.nodes.changes() : 0,
      stale,
      // While connected, a status does not depend on the time of the last sync; stale, it says it.
      stale ? this.lastSyncedAt?.getTime() : '',
    ].join(':');
  }

  hasJobManager(namespace: string, name: string): boolean {
    const informers = this.scopeOf(namespace)?.informers;
    const workload = clusterObjectNames(name).jobManager;
    return !!(
      informers?.StatefulSet.get(namespace, workload) ??
      informers?.Deployment.get(namespace, workload)
    );
  }

  /** Everything the cache knows about one Flink cluster. */
  snapshot(namespace: string, name: string): ClusterSnapshot {
    const scope = this.scopeOf(namespace);
    const base = {
      cluster: this.cluster.name,
      namespace,
      name,
      stale: this.stale,
      lastSyncedAt: this.lastSyncedAt?.toISOString(),
    };
    if (!scope)
      return {
        ...base,
        pods: [],
        claims: [],
        events: [],
        nodes: [],
        replicaSets: [],
      };
    const { informers } = scope;
    const names = clusterObjectNames(name);
    const workload = (workloadName: string) =>
      (informers.StatefulSet.get(namespace, workloadName) ??
        informers.Deployment.get(namespace, workloadName)) as
        Workload | undefined;
    const appKey = `${namespace}/${name}`;
    const pods = informers.Pod.byIndex(appKey) as V1Pod[];
    const claims = informers.PersistentVolumeClaim.byIndex(
      appKey,
    ) as V1PersistentVolumeClaim[];
    const replicaSets = informers.ReplicaSet.byIndex(appKey) as V1ReplicaSet[];
    const jobManager = workload(names.jobManager);
    const taskManager = workload(names.taskManager);
    const objects = { jobManager, taskManager, pods, claims, replicaSets };
    const events = [...involvedNames(objects)].flatMap(n =>
      informers.Event.byIndex(`${namespace}/${n}`),
    ) as CoreV1Event[];
    const nodes = [...nodeNamesOf(pods)].flatMap(n => {
      const node = this.nodes.get(undefined, n);
      return node ? [node as V1Node] : [];
    });
    return { ...base, ...objects, events, nodes };
  }
}
