import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as components from './components';
import { ComponentSpec, PlaneLayout } from './components';
import { Faults } from './faults';
import { probe } from './health';
import { certificateCredentials, KubeClient } from './kubeClient';
import { renderKubeconfig, writeKubeconfig } from './kubeconfig';
import { createFakeNodes, defaultNodes, FakeNodeSpec } from './nodes';
import { PlaneBinaryName, resolveBinaries } from './paths';
import { createPki, Pki } from './pki';
import { freePorts } from './ports';
import {
  FatalError,
  ManagedProcess,
  onProcessExit,
  removeWorkDir,
  waitFor,
} from './processes';
import { RealNode, RealNodeOptions, startRealNode } from './realNode';
import { cleanUpRun, removeRunState, RunState, writeRunState } from './state';
import {
  createStorageClasses,
  IMMEDIATE_STORAGE_CLASS,
  RETAIN_STORAGE_CLASS,
  VolumePool,
  VolumePoolOptions,
  WAIT_FOR_FIRST_CONSUMER_STORAGE_CLASS,
} from './storage';

export interface ControlPlaneOptions {
  /** Fake nodes run by kwok: a count (zones zone-a, zone-b, …) or explicit specs. Default 3. */
  nodes?: number | FakeNodeSpec[];
  /**
   * Static PV pool settings; `false` runs no pool (a benchmark whose claims need no volumes: the
   * pool lists every claim twice a second, in the caller's process).
   */
  volumePool?: VolumePoolOptions | false;
  /** Also write the admin kubeconfig here (the work folder always has one). */
  kubeconfigPath?: string;
  /** Progress lines; default silent. */
  log?: (line: string) => void;
  /**
   * The PV binder's sync period: 1 s by default, so static volumes created after their claims
   * bind at once; Kubernetes' default, 15 s, for a plane with thousands of claims (each period
   * re-syncs every claim and volume).
   */
  pvBinderSyncPeriodSeconds?: number;
  /** Give up when the plane is not ready after this long. Default 60 s. */
  readyTimeoutMs?: number;
  /**
   * A real node beside the fake ones (kubelet, containerd, runc, CNI): pods of namespaces made
   * with its `namespaceAnnotations` run real containers. One per machine. Default off.
   */
  realNode?: boolean | RealNodeOptions;
}

/** Admin credentials: a client certificate in group system:masters, and an equivalent token. */
export interface AdminCredentials {
  ca: string;
  cert: string;
  key: string;
  token: string;
}

export interface ControlPlane {
  /** https://127.0.0.1:<port> */
  server: string;
  /** The admin kubeconfig, as text. */
  kubeconfig: string;
  kubeconfigPath: string;
  admin: AdminCredentials;
  /** A REST client acting as the admin. */
  client: KubeClient;
  /** The fake nodes (kwok). */
  nodes: string[];
  /** The real node, when asked for. */
  realNode?: RealNode;
  storageClasses: {
    immediate: string;
    waitForFirstConsumer: string;
    retain: string;
  };
  faults: Faults;
  workDir: string;
  /** Milliseconds from the call to a ready plane. */
  startupMs: number;
  /** The plane's running processes (API server, etcd, controllers, kwok, the real node's). */
  processes(): { name: string; pid: number }[];
  restartApiServer(): Promise<void>;
  stop(): Promise<void>;
}

type Component =
  | 'etcd'
  | 'kube-apiserver'
  | 'kube-controller-manager'
  | 'kube-scheduler'
  | 'kwok';

class Plane {
  readonly processes = new Map<Component, ManagedProcess>();
  readonly stateId: string;
  private unregisterExit: () => void = () => {};
  private volumePool: VolumePool | undefined;
  realNode: RealNode | undefined;
  client!: KubeClient;

  constructor(
    readonly layout: PlaneLayout,
    readonly binaries: Record<PlaneBinaryName, string>,
    readonly server: string,
  ) {
    this.stateId = `control-plane-${process.pid}-${layout.apiServerPort}`;
  }

  start(spec: ComponentSpec): ManagedProcess {
    const proc = ManagedProcess.start({
      name: spec.name,
      command: this.binaries[spec.binary],
      args: spec.args,
      logFile: path.join(this.layout.logDir, `${spec.name}.log`),
    });
    this.processes.set(spec.name as Component, proc);
    this.saveState();
    return proc;
  }

  /** Waits for a component's health check, failing fast (with its log) if it exits. */
  async ready(
    name: Component,
    check: () => Promise<boolean>,
    timeoutMs: number,
  ): Promise<void> {
    const proc = this.processes.get(name)!;
    await waitFor(
      `${name} to be ready`,
      async () => {
        if (!proc.alive) {
          throw new FatalError(`${name} exited`);
        }
        return check();
      },
      { timeoutMs, intervalMs: 100 },
    ).catch(error => {
      throw new Error(
        `${error.message}\n--- ${name} log ---\n${proc.logTail(20)}`,
      );
    });
  }

  state(): RunState {
    return {
      kind: 'control-plane',
      ownerPid: process.pid,
      workDir: this.layout.workDir,
      processes: [
        ...this.processes.values(),
        ...(this.realNode?.processes() ?? []),
      ].map(p => ({ name: p.name, pid: p.pid })),
      server: this.server,
      kubeconfigPath: path.join(this.layout.workDir, 'kubeconfig'),
      realNode: this.realNode?.cleanup,
      startedAt: new Date().toISOString(),
    };
  }

  saveState(): void {
    writeRunState(this.stateId, this.state());
  }

  guardExit(): void {
    this.unregisterExit = onProcessExit(() =>
      cleanUpRun(this.stateId, this.state()),
    );
  }

  startVolumePool(options?: VolumePoolOptions): void {
    const node = this.realNode;
    this.volumePool = new VolumePool(
      this.client,
      options,
      node && {
        nodeName: node.name,
        volumesDir: node.volumesDir,
        isRealNodeNamespace: ns =>
          Object.entries(node.namespaceAnnotations).every(
            ([key, value]) => ns.metadata.annotations?.[key] === value,
          ),
      },
    );
    this.volumePool.start();
  }

  async restartApiServer(timeoutMs: number): Promise<void> {
    await this.processes.get('kube-apiserver')?.stop();
    this.start(components.apiServer(this.layout));
    await this.ready('kube-apiserver', () => this.apiServerReady(), timeoutMs);
  }

  async apiServerReady(): Promise<boolean> {
    const { status } = await this.client.raw('GET', '/readyz');
    return status === 200;
  }

  /** Stops in reverse order of start, then removes the work folder. */
  async stop(): Promise<void> {
    await this.volumePool?.stop();
    // The real node deletes its pods through the API server before it stops.
    await this.realNode?.stop().catch(() => undefined);
    this.client?.close();
    // Clients of the API server first (together), then the API server, then its storage.
    const clients: Component[] = [
      'kwok',
      'kube-scheduler',
      'kube-controller-manager',
    ];
    await Promise.all(
      clients.map(name => this.processes.get(name)?.stop(2000)),
    );
    await this.processes.get('kube-apiserver')?.stop(2000);
    await this.processes.get('etcd')?.stop(2000);
    removeWorkDir(this.layout.workDir);
    removeRunState(this.stateId);
    this.unregisterExit();
  }
}

function componentKubeconfig(
  file: string,
  server: string,
  pki: Pki,
  pair: { certFile: string; keyFile: string },
  name: string,
): string {
  const creds = certificateCredentials(server, { caFile: pki.caFile, ...pair });
  writeKubeconfig(
    file,
    renderKubeconfig({
      clusterName: 'testenv',
      server,
      ca: creds.ca,
      user: { name, cert: creds.cert, key: creds.key },
    }),
  );
  return file;
}

async function planLayout(
  workDir: string,
): Promise<{ layout: PlaneLayout; server: string }> {
  const logDir = path.join(workDir, 'logs');
  fs.mkdirSync(logDir, { recursive: true });
  const [pki, ports] = await Promise.all([
    createPki(path.join(workDir, 'pki')),
    freePorts(6),
  ]);
  const [
    etcdClientPort,
    etcdPeerPort,
    apiServerPort,
    controllerManagerPort,
    schedulerPort,
    kwokPort,
  ] = ports;
  const server = `https://127.0.0.1:${apiServerPort}`;
  const kubeconfigs = {
    controllerManager: componentKubeconfig(
      path.join(workDir, 'controller-manager.kubeconfig'),
      server,
      pki,
      pki.controllerManager,
      'system:kube-controller-manager',
    ),
    scheduler: componentKubeconfig(
      path.join(workDir, 'scheduler.kubeconfig'),
      server,
      pki,
      pki.scheduler,
      'system:kube-scheduler',
    ),
    kwok: componentKubeconfig(
      path.join(workDir, 'kwok.kubeconfig'),
      server,
      pki,
      pki.kwok,
      'kwok',
    ),
  };
  const layout: PlaneLayout = {
    workDir,
    logDir,
    pki,
    etcdClientPort,
    etcdPeerPort,
    apiServerPort,
    controllerManagerPort,
    schedulerPort,
    kwokPort,
    kubeconfigs,
  };
  return { layout, server };
}

function nodeSpecs(nodes: ControlPlaneOptions['nodes']): FakeNodeSpec[] {
  return Array.isArray(nodes) ? nodes : defaultNodes(nodes ?? 3);
}

async function defaultServiceAccountExists(
  client: KubeClient,
): Promise<boolean> {
  return Boolean(
    await client.find('/api/v1/namespaces/default/serviceaccounts/default'),
  );
}

/**
 * Starts etcd, kube-apiserver (client-certificate and token authn, RBAC), kube-controller-manager,
 * kube-scheduler and kwok with fake nodes on 127.0.0.1, plus the storage classes and PV pool,
 * and resolves when all of it is ready.
 */
export async function startControlPlane(
  options: ControlPlaneOptions = {},
): Promise<ControlPlane> {
  const started = Date.now();
  const log = options.log ?? (() => {});
  const timeoutMs = options.readyTimeoutMs ?? 60_000;
  const binaries = resolveBinaries();
  const workDir = fs.mkdtempSync(
    path.join(os.tmpdir(), 'flink-standalone-k8s-'),
  );
  const { layout, server } = await planLayout(workDir).catch(error => {
    removeWorkDir(workDir);
    throw error;
  });
  const plane = new Plane(layout, binaries, server);
  plane.guardExit();
  const elapsed = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;
  try {
    plane.start(components.etcd(layout));
    const etcdHealth = `http://127.0.0.1:${layout.etcdClientPort}/health`;
    await plane.ready(
      'etcd',
      async () => (await probe(etcdHealth)) === 200,
      timeoutMs,
    );
    log(`etcd ready (${elapsed()})`);

    plane.start(components.apiServer(layout));
    const adminFiles = { caFile: layout.pki.caFile, ...layout.pki.admin };
    plane.client = new KubeClient(certificateCredentials(server, adminFiles));
    await plane.ready(
      'kube-apiserver',
      () => plane.apiServerReady(),
      timeoutMs,
    );
    log(`kube-apiserver ready at ${server} (${elapsed()})`);

    plane.start(
      components.controllerManager(layout, options.pvBinderSyncPeriodSeconds),
    );
    plane.start(components.scheduler(layout));
    plane.start(components.kwok(layout));
    await createStorageClasses(plane.client);
    const nodes = await createFakeNodes(
      plane.client,
      nodeSpecs(options.nodes),
      timeoutMs,
    );
    log(`kwok: ${nodes.length} nodes Ready (${elapsed()})`);
    if (options.realNode) {
      plane.realNode = await startRealNode(
        {
          client: plane.client,
          server,
          pki: layout.pki,
          apiServerPort: layout.apiServerPort,
          workDir,
          log,
          timeoutMs,
        },
        options.realNode === true ? {} : options.realNode,
      );
      plane.saveState();
    }
    if (options.volumePool !== false) plane.startVolumePool(options.volumePool);
    const healthz = (port: number) => async () =>
      (await probe(`https://127.0.0.1:${port}/healthz`)) === 200;
    await plane.ready(
      'kube-controller-manager',
      healthz(layout.controllerManagerPort),
      timeoutMs,
    );
    await plane.ready(
      'kube-scheduler',
      healthz(layout.schedulerPort),
      timeoutMs,
    );
    await plane.ready(
      'kube-controller-manager',
      () => defaultServiceAccountExists(plane.client),
      timeoutMs,
    );
    log(`controllers and scheduler ready (${elapsed()})`);

    const admin: AdminCredentials = {
      ca: plane.client.credentials.ca,
      cert: plane.client.credentials.cert!,
      key: plane.client.credentials.key!,
      token: layout.pki.adminToken,
    };
    const kubeconfig = renderKubeconfig({
      clusterName: 'flink-standalone-testenv',
      server,
      ca: admin.ca,
      user: { name: 'testenv-admin', cert: admin.cert, key: admin.key },
    });
    const kubeconfigPath = path.join(workDir, 'kubeconfig');
    writeKubeconfig(kubeconfigPath, kubeconfig);
    if (options.kubeconfigPath)
      writeKubeconfig(options.kubeconfigPath, kubeconfig);
    const restartApiServer = () => plane.restartApiServer(timeoutMs);
    return {
      server,
      kubeconfig,
      kubeconfigPath: options.kubeconfigPath ?? kubeconfigPath,
      admin,
      client: plane.client,
      nodes,
      realNode: plane.realNode,
      storageClasses: {
        immediate: IMMEDIATE_STORAGE_CLASS,
        waitForFirstConsumer: WAIT_FOR_FIRST_CONSUMER_STORAGE_CLASS,
        retain: RETAIN_STORAGE_CLASS,
      },
      faults: new Faults(plane.client, restartApiServer),
      workDir,
      startupMs: Date.now() - started,
      processes: () => plane.state().processes,
      restartApiServer,
      stop: () => plane.stop(),
    };
  } catch (error) {
    await plane.stop().catch(() => undefined);
    throw error;
  }
}
