import { randomBytes } from 'node:crypto';
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

function storageClass(
  name: string,
  mode: 'Immediate' | 'WaitForFirstConsumer',
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
    provisioner: 'kubernetes.io/no-provisioner',
    volumeBindingMode: mode,
    // Retain: no-provisioner cannot delete; the pool removes Released volumes itself.
    reclaimPolicy: 'Retain',
    allowVolumeExpansion: true,
  };
}

export async function createStorageClasses(client: KubeClient): Promise<void> {
  await client.create(
    '/apis/storage.k8s.io/v1/storageclasses',
    storageClass(IMMEDIATE_STORAGE_CLASS, 'Immediate', true),
  );
  await client.create(
    '/apis/storage.k8s.io/v1/storageclasses',
    storageClass(
      WAIT_FOR_FIRST_CONSUMER_STORAGE_CLASS,
      'WaitForFirstConsumer',
      false,
    ),
  );
}

function volumeObject(storageClassName: string, capacity: string): KubeObject {
  const name = `pv-${storageClassName}-${randomBytes(4).toString('hex')}`;
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: {
      name,
      labels: {
        [POOL_LABEL]: 'true',
        'testenv.flink-standalone.io/class': storageClassName,
      },
    },
    spec: {
      storageClassName,
      capacity: { storage: capacity },
      accessModes: ['ReadWriteOnce', 'ReadOnlyMany', 'ReadWriteMany'],
      persistentVolumeReclaimPolicy: 'Retain',
      // Never mounted (kwok runs no containers); a hostPath keeps the object valid.
      hostPath: {
        path: `/tmp/flink-standalone-testenv/${name}`,
        type: 'DirectoryOrCreate',
      },
    },
  };
}

const POOL_CLASSES = [
  IMMEDIATE_STORAGE_CLASS,
  WAIT_FOR_FIRST_CONSUMER_STORAGE_CLASS,
];

/**
 * Keeps a pool of static PVs for the two classes, like a provisioner would: every pending claim
 * (without a selector) gets a PV that fits, and `size` spare PVs stay Available per class.
 * Released PVs are deleted, so a new claim never inherits old data.
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
  ) {
    this.size = options.size ?? 4;
    this.capacity = options.capacity ?? '10Gi';
    this.intervalMs = options.intervalMs ?? 500;
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

  /** One pass: delete released PVs, give pending claims a PV, refill the spare PVs. */
  async topUp(): Promise<void> {
    const [volumes, claims] = await Promise.all([
      this.client.list(
        `/api/v1/persistentvolumes?labelSelector=${POOL_LABEL}%3Dtrue`,
      ),
      this.client.list('/api/v1/persistentvolumeclaims'),
    ]);
    for (const pv of volumes.items) {
      if (['Released', 'Failed'].includes(pv.status?.phase)) {
        await this.client.delete(
          `/api/v1/persistentvolumes/${pv.metadata.name}`,
        );
      }
    }
    for (const className of POOL_CLASSES) {
      await this.topUpClass(className, volumes.items, claims.items);
    }
  }

  private async topUpClass(
    className: string,
    volumes: KubeObject[],
    claims: KubeObject[],
  ) {
    const spare = volumes
      .filter(pv => pv.spec.storageClassName === className)
      .filter(
        pv => (pv.status?.phase ?? 'Pending') !== 'Bound' && !pv.spec.claimRef,
      )
      .filter(pv => !['Released', 'Failed'].includes(pv.status?.phase))
      .map(pv => parseQuantity(pv.spec.capacity.storage))
      .sort((a, b) => a - b);
    const waiting = claims.filter(
      c =>
        c.spec.storageClassName === className &&
        c.status?.phase === 'Pending' &&
        !c.spec.volumeName &&
        !c.spec.selector &&
        !c.metadata.deletionTimestamp,
    );
    const toCreate: string[] = [];
    for (const claim of waiting) {
      const request: string = claim.spec.resources?.requests?.storage ?? '1Gi';
      const fit = spare.findIndex(
        capacity => capacity >= parseQuantity(request),
      );
      if (fit >= 0) spare.splice(fit, 1);
      else
        toCreate.push(
          parseQuantity(request) > parseQuantity(this.capacity)
            ? request
            : this.capacity,
        );
    }
    for (let i = spare.length; i < this.size; i++) toCreate.push(this.capacity);
    for (const capacity of toCreate) {
      await this.client.create(
        '/api/v1/persistentvolumes',
        volumeObject(className, capacity),
      );
    }
  }
}
