import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigReader } from '@backstage/config';
import { useControlPlane } from '@flink-standalone/testenv';
import { backendToken } from '../__testUtils__/backendAccess';
import { whoAmI } from '../__testUtils__/whoAmI';
import { ClusterRegistry, FlinkKubernetesCluster } from './ClusterRegistry';
import {
  ConfigClusterSupplier,
  ServiceAccountStrategy,
} from './configClusters';

/**
 * Each way config can describe a cluster, used against the real control plane: the API server
 * says who it authenticated (SelfSubjectReview), so a variant that silently used other
 * credentials, or skipped TLS verification, would show.
 */
const plane = useControlPlane();
let token: string;
const opened: FlinkKubernetesCluster[] = [];
afterAll(() => opened.forEach(c => c.http.close()));

beforeAll(async () => {
  token = await backendToken(plane());
});

const dir = mkdtempSync(join(tmpdir(), 'cluster-registry-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
function file(name: string, content: string) {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

/** A registry with one `kubernetes.clusterLocatorMethods` entry named `local`. */
function fromEntry(entry: Record<string, unknown>) {
  const registry = ClusterRegistry.fromConfig(
    new ConfigReader({
      kubernetes: {
        clusterLocatorMethods: [
          {
            type: 'config',
            clusters: [
              {
                name: 'local',
                url: plane().server,
                authProvider: 'serviceAccount',
                serviceAccountToken: token,
                ...entry,
              },
            ],
          },
        ],
      },
    }),
  );
  const cluster = registry.get('local');
  opened.push(cluster);
  return cluster;
}

describe('ClusterRegistry connections, against the real API server', () => {
  it('trusts a PEM CA from caData, a base64 PEM from caData, and a caFile', async () => {
    const ca = plane().admin.ca;
    for (const entry of [
      { caData: ca },
      { caData: Buffer.from(ca).toString('base64') },
      { caFile: file('ca.crt', ca) },
    ]) {
      expect(await whoAmI(fromEntry(entry).http)).toMatch(
        /^system:serviceaccount:/,
      );
    }
  });

  it('refuses the server without its CA (the system roots do not know it)', async () => {
    const error = await whoAmI(fromEntry({}).http).catch(e => e);
    expect(String(error.message ?? error)).toMatch(
      /self[- ]signed|unable to (verify|get local issuer)|certificate/i,
    );
  });

  it("uses the kubeconfig context named in config, not the file's current one", async () => {
    const { server, admin } = plane();
    const kubeconfig = JSON.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [
        {
          name: 'plane',
          cluster: {
            server,
            'certificate-authority-data': Buffer.from(admin.ca).toString(
              'base64',
            ),
          },
        },
      ],
      users: [
        { name: 'admin', user: { token: admin.token } },
        { name: 'backend', user: { token } },
      ],
      contexts: [
        { name: 'as-admin', context: { cluster: 'plane', user: 'admin' } },
        { name: 'as-backend', context: { cluster: 'plane', user: 'backend' } },
      ],
      'current-context': 'as-admin',
    });
    const path = file('kubeconfig', kubeconfig);
    const registry = (context?: string) =>
      ClusterRegistry.fromConfig(
        new ConfigReader({
          flinkStandalone: {
            clusters: [
              { name: 'kc', kubeconfig: { path, ...(context && { context }) } },
            ],
          },
        }),
      );
    const asBackend = registry('as-backend').get('kc');
    const current = registry().get('kc');
    opened.push(asBackend, current);
    expect(await whoAmI(asBackend.http)).toMatch(/^system:serviceaccount:/);
    expect(await whoAmI(current.http)).not.toMatch(/^system:serviceaccount:/);
    expect(() => registry('nope')).toThrow(
      `flinkStandalone cluster "kc": context "nope" is not in ${path}`,
    );
  });

  it("in a pod: the mounted ServiceAccount's token (read per request, as Kubernetes rotates it) and CA", async () => {
    const mount = mkdtempSync(join(dir, 'serviceaccount-'));
    writeFileSync(join(mount, 'token'), token);
    writeFileSync(join(mount, 'ca.crt'), plane().admin.ca);
    const config = new ConfigReader({
      kubernetes: {
        clusterLocatorMethods: [
          {
            type: 'config',
            // No token, no CA: what a backend running in the cluster it manages configures.
            clusters: [{ name: 'in-cluster', url: plane().server }],
          },
        ],
      },
    });
    const options = { serviceAccountDir: mount };
    const cluster = ClusterRegistry.create({
      config,
      clusters: new ConfigClusterSupplier(config, options).clusters(),
      authStrategies: new Map([
        ['serviceAccount', new ServiceAccountStrategy(options)],
      ]),
    }).get('in-cluster');
    opened.push(cluster);
    expect(await whoAmI(cluster.http)).toMatch(/^system:serviceaccount:/);
    // A rotated token is used from the next request on.
    writeFileSync(join(mount, 'token'), plane().admin.token);
    expect(await whoAmI(cluster.http)).not.toMatch(/^system:serviceaccount:/);
  });

  it('outside a pod, without a token: an error naming the cluster and the missing file', async () => {
    const strategy = new ServiceAccountStrategy({
      serviceAccountDir: join(dir, 'not-mounted'),
    });
    await expect(
      strategy.getCredential({
        name: 'prod',
        url: plane().server,
        authProvider: 'serviceAccount',
      }),
    ).rejects.toThrow(
      `kubernetes cluster "prod": no serviceAccountToken is configured and the backend has no ServiceAccount token at ${join(dir, 'not-mounted', 'token')} (it does not run in a cluster)`,
    );
  });
});
