import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { KubeObject } from '../kubeClient';
import { waitFor } from '../processes';
import { clearDeadNodeLeftovers, mountsUnder } from './host';
import { createRealNodeNamespace, useControlPlane } from '../shared';
import { headlessService, waitForPodReady } from '../testHelpers';

/**
 * The real node itself: real containers (the locally built Flink image, as the Flink user), claims
 * bound to real folders, cluster DNS, logs through the API server, reclaim policies.
 */

const plane = useControlPlane();
let namespace: string;

beforeEach(async () => {
  namespace = await createRealNodeNamespace(plane(), 'node');
});

afterEach(async () => {
  await plane().client.delete(`/api/v1/namespaces/${namespace}`);
});

const IMAGE = 'flink:2.2';
const ns = () => `/api/v1/namespaces/${namespace}`;

/** A StatefulSet of one pod that runs a shell script as the Flink user, with a claim. */
function statefulSet(
  name: string,
  script: string,
  storageClassName?: string,
): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name },
    spec: {
      serviceName: name,
      replicas: 1,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: {
          securityContext: {
            runAsUser: 9999,
            runAsGroup: 9999,
            fsGroup: 9999,
            runAsNonRoot: true,
          },
          terminationGracePeriodSeconds: 1,
          containers: [
            {
              name: 'main',
              image: IMAGE,
              command: ['bash', '-c', script],
              volumeMounts: [{ name: 'data', mountPath: '/data' }],
              resources: {
                requests: { cpu: '50m', memory: '64Mi' },
                limits: { memory: '128Mi' },
              },
              readinessProbe: {
                exec: { command: ['test', '-f', '/tmp/ready'] },
                periodSeconds: 1,
              },
            },
          ],
        },
      },
      volumeClaimTemplates: [
        {
          metadata: { name: 'data' },
          spec: {
            accessModes: ['ReadWriteOnce'],
            resources: { requests: { storage: '1Gi' } },
            ...(storageClassName && { storageClassName }),
          },
        },
      ],
    },
  };
}

function readyPod(name: string, previousUid?: string): Promise<KubeObject> {
  return waitForPodReady(plane().client, namespace, name, {
    previousUid,
    timeoutMs: 60_000,
    intervalMs: 250,
  });
}

async function logOf(pod: string): Promise<string> {
  const { status, text } = await plane().client.raw(
    'GET',
    `${ns()}/pods/${pod}/log`,
  );
  if (status !== 200) throw new Error(`logs of ${pod}: ${status} ${text}`);
  return text;
}

async function volumeOf(claim: string): Promise<KubeObject> {
  const pvc = await plane().client.get(
    `${ns()}/persistentvolumeclaims/${claim}`,
  );
  return plane().client.get(`/api/v1/persistentvolumes/${pvc.spec.volumeName}`);
}

describe('the real node', () => {
  it('runs a real container as the Flink user, on a claim bound to a real folder that survives the pod', async () => {
    const script = [
      'id -u > /tmp/uid',
      'echo "uid=$(id -u) previous=$(cat /data/marker 2>/dev/null || echo none)"',
      'echo "$HOSTNAME" > /data/marker',
      'touch /tmp/ready',
      'exec sleep infinity',
    ].join('; ');
    await plane().client.create(`${ns()}/services`, headlessService('writer'));
    await plane().client.create(
      `/apis/apps/v1/namespaces/${namespace}/statefulsets`,
      statefulSet('writer', script),
    );
    const first = await readyPod('writer-0');

    expect(first.spec.nodeName).toBe(plane().realNode!.name);
    expect(first.status.podIP).toMatch(/^10\.89\.0\./);
    // Logs come from the kubelet through the API server (node address, kubelet client certificate).
    expect(await logOf('writer-0')).toContain('uid=9999 previous=none');
    const pv = await volumeOf('data-writer-0');
    expect(pv.spec.local.path).toBeDefined();
    expect(fs.readFileSync(`${pv.spec.local.path}/marker`, 'utf8')).toBe(
      'writer-0\n',
    );

    // A new pod for the ordinal: the same claim, the data still there.
    await plane().client.delete(`${ns()}/pods/writer-0`);
    await readyPod('writer-0', first.metadata.uid);
    expect(await logOf('writer-0')).toContain('uid=9999 previous=writer-0');
  });

  it('answers cluster DNS names: a headless Service and one StatefulSet pod', async () => {
    // A pod's own record follows its EndpointSlice, which may lag the container start: ask again
    // until it answers (10 s at most), as a resolver's retries would.
    const script = [
      'lookup() { for i in $(seq 50); do getent hosts "$1" && return; sleep 0.2; done; }',
      'lookup "resolver.$NAMESPACE.svc.cluster.local" | head -1',
      'lookup "resolver-0.resolver" | head -1',
      'lookup "kubernetes.default" | head -1',
      'touch /tmp/ready',
      'exec sleep infinity',
    ].join('; ');
    const set = statefulSet('resolver', script);
    set.spec.template.spec.containers[0].env = [
      {
        name: 'NAMESPACE',
        valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } },
      },
    ];
    // DNS answers ready endpoints, and the pod becomes Ready only after it asked: publish it early.
    const service = headlessService('resolver');
    service.spec.publishNotReadyAddresses = true;
    await plane().client.create(`${ns()}/services`, service);
    await plane().client.create(
      `/apis/apps/v1/namespaces/${namespace}/statefulsets`,
      set,
    );
    const pod = await readyPod('resolver-0');

    const lines = (await logOf('resolver-0')).trim().split('\n');
    expect(lines[0]).toMatch(
      new RegExp(`^${pod.status.podIP.replace(/\./g, '\\.')}\\s`),
    );
    expect(lines[1]).toMatch(
      new RegExp(`^${pod.status.podIP.replace(/\./g, '\\.')}\\s`),
    );
    expect(lines[2]).toMatch(/^10\.0\.0\.1\s/);
  });

  it("removes a deleted claim's data with the Delete reclaim policy and keeps it with Retain", async () => {
    const script =
      'echo kept > /data/file; touch /tmp/ready; exec sleep infinity';
    await plane().client.create(
      `/apis/apps/v1/namespaces/${namespace}/statefulsets`,
      statefulSet('deleted', script),
    );
    await plane().client.create(
      `/apis/apps/v1/namespaces/${namespace}/statefulsets`,
      statefulSet('retained', script, plane().storageClasses.retain),
    );
    await Promise.all([readyPod('deleted-0'), readyPod('retained-0')]);
    const [deletedPv, retainedPv] = await Promise.all([
      volumeOf('data-deleted-0'),
      volumeOf('data-retained-0'),
    ]);
    expect(deletedPv.spec.persistentVolumeReclaimPolicy).toBe('Delete');
    expect(retainedPv.spec.persistentVolumeReclaimPolicy).toBe('Retain');
    expect(fs.existsSync(`${deletedPv.spec.local.path}/file`)).toBe(true);

    for (const name of ['deleted', 'retained']) {
      await plane().client.delete(
        `/apis/apps/v1/namespaces/${namespace}/statefulsets/${name}`,
      );
      await waitFor(
        `pod ${name}-0 gone`,
        async () => !(await plane().client.find(`${ns()}/pods/${name}-0`)),
        {
          timeoutMs: 30_000,
        },
      );
      await plane().client.delete(
        `${ns()}/persistentvolumeclaims/data-${name}-0`,
      );
    }
    await waitFor(
      'the Delete volume and its folder removed',
      async () =>
        !(await plane().client.find(
          `/api/v1/persistentvolumes/${deletedPv.metadata.name}`,
        )) && !fs.existsSync(deletedPv.spec.local.path),
      { timeoutMs: 30_000 },
    );
    const retained = await waitFor<KubeObject>(
      'the Retain volume Released',
      async () => {
        const pv = await plane().client.find(
          `/api/v1/persistentvolumes/${retainedPv.metadata.name}`,
        );
        return pv?.status?.phase === 'Released' ? pv : undefined;
      },
    );
    expect(fs.readFileSync(`${retained.spec.local.path}/file`, 'utf8')).toBe(
      'kept\n',
    );
    await plane().client.delete(
      `/api/v1/persistentvolumes/${retainedPv.metadata.name}`,
    );
  });

  it("removes what a killed node left (a DNAT rule to a dead API server, mounts in its folder) and keeps the live node's", async () => {
    const deadDir = fs.mkdtempSync(
      path.join(os.tmpdir(), 'flink-standalone-k8s-killed-'),
    );
    const deadNode = path.join(deadDir, 'node');
    const deadMount = path.join(deadNode, 'pod-volume');
    fs.mkdirSync(deadMount, { recursive: true });
    const deadRule = `-A PREROUTING -d 10.0.0.1/32 -i fsbr0 -p tcp -m tcp --dport 443 -m comment --comment flink-standalone-testenv -j DNAT --to-destination 127.0.0.1:1`;
    const nat = () =>
      execFileSync('iptables', ['-t', 'nat', '-S', 'PREROUTING'], {
        encoding: 'utf8',
      });
    const live = {
      // The shared plane's folder holds its kubeconfig; its node's folder is beside it.
      workDir: path.join(path.dirname(plane().kubeconfigPath), 'node'),
      apiServerPort: Number(new URL(plane().server).port),
    };
    const liveRules = nat()
      .split('\n')
      .filter(line => line.includes(`127.0.0.1:${live.apiServerPort}`));
    expect(liveRules).toHaveLength(1);
    try {
      execFileSync('mount', ['-t', 'tmpfs', 'tmpfs', deadMount]);
      execFileSync('iptables', ['-t', 'nat', ...deadRule.split(' ')]);

      expect(clearDeadNodeLeftovers(live)).toEqual([
        `iptables rule ${deadRule}`,
        `mounts under ${deadNode}`,
      ]);
      expect(nat()).not.toMatch(/127\.0\.0\.1:1$/m);
      expect(mountsUnder(deadDir)).toEqual([]);
      // The live node's rule and mounts are untouched.
      expect(nat()).toContain(liveRules[0]);
      expect(mountsUnder(live.workDir).length).toBeGreaterThan(0);
    } finally {
      // Whatever the function under test left: the test must not leave it either.
      const undo = (command: string, args: string[]) =>
        spawnSync(command, args, { stdio: 'ignore' });
      undo('umount', ['-l', deadMount]);
      undo('iptables', [
        '-t',
        'nat',
        ...deadRule.replace('-A ', '-D ').split(' '),
      ]);
      fs.rmSync(deadDir, { recursive: true, force: true });
    }
  });
});
