import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { KubeClient, KubeObject } from './kubeClient';
import { parseQuantity } from './quantity';

/** The default class: bound by the PV controller as soon as a claim exists. */
export const IMMEDIATE_STORAGE_CLASS = 'standard';
/** Bound when a pod using the claim is scheduled (the scheduler picks the PV). */
export const WAIT_FOR_FIRST_CONSUMER_STORAGE_CLASS = 'standard-wffc';

export const POOL_LABEL = 'testenv.flink-standalone.io/pool';

export interface VolumePoolOptions {
  /** Available PVs kept per class. */
  size?: number;
  /** Capacity of a pool PV; claims asking for more get a PV of their own size. */
  capacity?: string;
  /** How often the pool is checked. */
  intervalMs?: number;
}

/** Like the default class, but a deleted claim's volume (and its data) is kept, Released. */
export const RETAIN_STORAGE_CLASS = 'standard-retain';

/** Where pool volumes of a real node live, and how the pool tells its claims apart. */
export interface RealNodeStorage {
  nodeName: string;
  /** One folder per PV (removed with the PV when the reclaim policy is Delete). */
  volumesDir: string;
  /** Whether a namespace's pods run on the real node (its annotations say so). */
  isRealNodeNamespace(namespace: KubeObject): boolean;
}

function storageClassObject(
  name: string,
  mode: 'Immediate' | 'WaitForFirstConsumer',
  reclaimPolicy: 'Delete' | 'Retain',
  isDefault: boolean,
) {
  return {
    apiVersion: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    metadata: {
      name,
      annotations: isDefault
        ? { 'storageclass.kubernetes.io/is-default-class': 'true' }
        : {},
    },
    // The pool plays the provisioner: it makes a PV per claim and honours the reclaim policy.
    provisioner: 'kubernetes.io/no-provisioner',
    volumeBindingMode: mode,
    reclaimPolicy,
    allowVolumeExpansion: true,
  };
}

const STORAGE_CLASSES = [
  storageClassObject(IMMEDIATE_STORAGE_CLASS, 'Immediate', 'Delete', true),
  storageClassObject(
    WAIT_FOR_FIRST_CONSUMER_STORAGE_CLASS,
    'WaitForFirstConsumer',
    'Delete',
    false,
  ),
  storageClassObject(RETAIN_STORAGE_CLASS, 'Immediate', 'Retain', false),
];

export async function createStorageClasses(client: KubeClient): Promise<void> {
  for (const object of STORAGE_CLASSES) {
    await client.create('/apis/storage.k8s.io/v1/storageclasses', object);
  }
}

type StorageClass = (typeof STORAGE_CLASSES)[number];

function nodeAffinity(key: string, values: string[]) {
  return {
    required: {
      nodeSelectorTerms: [
        { matchExpressions: [{ key, operator: 'In', values }] },
      ],
    },
  };
}

/** A volume for fake nodes: never mounted (kwok runs no containers); hostPath keeps it valid. */
function fakeNodeVolume(name: string): object {
  return {
    hostPath: {
      path: `/tmp/flink-standalone-testenv/${name}`,
      type: 'DirectoryOrCreate',
    },
    // Only fake nodes: a real node mounting it would get a root-owned folder the Flink user cannot write.
    nodeAffinity: nodeAffinity('type', ['kwok']),
  };
}

/** A local volume on the real node: a folder of its own, chowned to the pod's fsGroup on mount. */
function realNodeVolume(name: string, storage: RealNodeStorage): object {
  const dir = path.join(storage.volumesDir, name);
  fs.mkdirSync(dir, { recursive: true });
  return {
    local: { path: dir },
    nodeAffinity: nodeAffinity('kubernetes.io/hostname', [storage.nodeName]),
  };
}

function volumeObject(
  storageClass: StorageClass,
  capacity: string,
  placement: { realNode?: RealNodeStorage; claim?: KubeObject },
): KubeObject {
  const className = storageClass.metadata.name;
  const name = `pv-${className}-${randomBytes(4).toString('hex')}`;
  const { realNode, claim } = placement;
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: {
      name,
      labels: {
        [POOL_LABEL]: 'true',
        'testenv.flink-standalone.io/class': className,
        'testenv.flink-standalone.io/node': realNode
          ? realNode.nodeName
          : 'kwok',
      },
    },
    spec: {
      storageClassName: className,
      capacity: { storage: capacity },
      accessModes: ['ReadWriteOnce', 'ReadOnlyMany', 'ReadWriteMany'],
      persistentVolumeReclaimPolicy: storageClass.reclaimPolicy,
      // Made for one claim: the PV controller binds exactly that claim to it.
      ...(claim && {
        claimRef: {
          apiVersion: 'v1',
          kind: 'PersistentVolumeClaim',
          namespace: claim.metadata.namespace,
          name: claim.metadata.name,
          uid: claim.metadata.uid,
        },
      }),
      ...(realNode ? realNodeVolume(name, realNode) : fakeNodeVolume(name)),
    },
  };
}

const isReleased = (pv: KubeObject) =>
  ['Released', 'Failed'].includes(pv.status?.phase);

/**
 * Plays a provisioner for the storage classes with static PVs: every pending claim (without a
 * selector) gets a PV that fits, and `size` spare PVs stay Available per class and node kind.
 * A Released volume is deleted (its folder too) when its reclaim policy is Delete, and kept with
 * its data when it is Retain; either way no new claim inherits old data.
 *
 * With a real node, claims in namespaces placed on it get local volumes on that node. Claims of
 * an Immediate class are bound before their pod is scheduled, so each gets a volume made for it
 * (pre-bound) on the node its namespace uses, and those classes keep no spares; WaitForFirstConsumer
 * classes keep spares per node kind and the scheduler picks the one that fits the pod's node.
 */
export class VolumePool {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private readonly size: number;
  private readonly capacity: string;
  private readonly intervalMs: number;

  constructor(
    private readonly client: KubeClient,
    options: VolumePoolOptions = {},
    private readonly realNode?: RealNodeStorage,
  ) {
    this.size = options.size ?? 4;
    this.capacity = options.capacity ?? '10Gi';
    this.intervalMs = options.intervalMs ?? (realNode ? 250 : 500);
  }

  start(): void {
    const tick = () => {
      this.running = this.topUp()
        .catch(() => undefined) // the API server may be restarting; try again next tick
        .finally(() => {
          if (this.timer) this.timer = setTimeout(tick, this.intervalMs);
        });
    };
    this.timer = setTimeout(tick, 0);
  }

  async stop(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** One pass: reclaim released PVs, give pending claims a PV, refill the spare PVs. */
  async topUp(): Promise<void> {
    const [volumes, claims, namespaces] = await Promise.all([
      this.client.list(
        `/api/v1/persistentvolumes?labelSelector=${POOL_LABEL}%3Dtrue`,
      ),
      this.client.list('/api/v1/persistentvolumeclaims'),
      this.realNode
        ? this.client.list('/api/v1/namespaces')
        : Promise.resolve({ items: [] as KubeObject[] }),
    ]);
    const realNamespaces = new Set(
      namespaces.items
        .filter(ns => this.realNode?.isRealNodeNamespace(ns))
        .map(ns => ns.metadata.name!),
    );
    for (const pv of volumes.items.filter(isReleased)) {
      if (pv.spec.persistentVolumeReclaimPolicy === 'Delete') {
        await this.client.delete(
          `/api/v1/persistentvolumes/${pv.metadata.name}`,
        );
        if (pv.spec.local?.path)
          fs.rmSync(pv.spec.local.path, { recursive: true, force: true });
      }
    }
    for (const storageClass of STORAGE_CLASSES) {
      await this.topUpClass(
        storageClass,
        volumes.items,
        claims.items,
        realNamespaces,
      );
    }
  }

  private async topUpClass(
    storageClass: StorageClass,
    volumes: KubeObject[],
    claims: KubeObject[],
    realNamespaces: Set<string>,
  ) {
    const className = storageClass.metadata.name;
    const immediate = storageClass.volumeBindingMode === 'Immediate';
    const waiting = claims.filter(
      c =>
        c.spec.storageClassName === className &&
        c.status?.phase === 'Pending' &&
        !c.spec.volumeName &&
        !c.spec.selector &&
        !c.metadata.deletionTimestamp,
    );
    const sizeOf = (claim: KubeObject) => {
      const request: string = claim.spec.resources?.requests?.storage ?? '1Gi';
      return parseQuantity(request) > parseQuantity(this.capacity)
        ? request
        : this.capacity;
    };
    const create = (
      capacity: string,
      placement: { realNode?: RealNodeStorage; claim?: KubeObject },
    ) =>
      this.client.create(
        '/api/v1/persistentvolumes',
        volumeObject(storageClass, capacity, placement),
      );

    if (this.realNode && immediate) {
      // Pre-bound volumes only: a spare could be bound to a claim whose pod runs elsewhere.
      const preBound = new Set(
        volumes.map(pv => pv.spec.claimRef?.uid).filter(Boolean),
      );
      for (const claim of waiting.filter(c => !preBound.has(c.metadata.uid))) {
        const onRealNode = realNamespaces.has(claim.metadata.namespace!);
        await create(sizeOf(claim), {
          claim,
          realNode: onRealNode ? this.realNode : undefined,
        });
      }
      return;
    }
    const kinds: (RealNodeStorage | undefined)[] = this.realNode
      ? [undefined, this.realNode]
      : [undefined];
    for (const realNode of kinds) {
      const nodeLabel = realNode ? realNode.nodeName : 'kwok';
      const spare = volumes
        .filter(pv => pv.spec.storageClassName === className)
        .filter(
          pv =>
            (pv.metadata.labels?.['testenv.flink-standalone.io/node'] ??
              'kwok') === nodeLabel,
        )
        .filter(
          pv =>
            (pv.status?.phase ?? 'Pending') !== 'Bound' && !pv.spec.claimRef,
        )
        .filter(pv => !isReleased(pv))
        .map(pv => parseQuantity(pv.spec.capacity.storage))
        .sort((a, b) => a - b);
      const mine = waiting.filter(
        c => realNamespaces.has(c.metadata.namespace!) === Boolean(realNode),
      );
      const toCreate: string[] = [];
      for (const claim of mine) {
        const fit = spare.findIndex(
          capacity => capacity >= parseQuantity(sizeOf(claim)),
        );
        if (fit >= 0) spare.splice(fit, 1);
        else toCreate.push(sizeOf(claim));
      }
      for (let i = spare.length; i < this.size; i++)
        toCreate.push(this.capacity);
      for (const capacity of toCreate) await create(capacity, { realNode });
    }
  }
}
