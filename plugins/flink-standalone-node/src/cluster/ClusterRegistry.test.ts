import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigReader } from '@backstage/config';
import { ClusterRegistry } from './ClusterRegistry';

const entry = (extra: Record<string, unknown>) =>
  new ConfigReader({
    kubernetes: {
      clusterLocatorMethods: [
        {
          type: 'config',
          clusters: [
            { name: 'prod', url: 'https://prod.example.com', ...extra },
          ],
        },
      ],
    },
  });

const scratch = mkdtempSync(join(tmpdir(), 'registry-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('ClusterRegistry from config', () => {
  it('refuses an authProvider no strategy handles, naming the cluster and the key', () => {
    expect(() =>
      ClusterRegistry.fromConfig(entry({ authProvider: 'aws' })),
    ).toThrow(
      expect.objectContaining({
        name: 'InputError',
        message: expect.stringMatching(
          /cluster "prod": authProvider "aws" has no auth strategy \(built in: serviceAccount/,
        ),
      }),
    );
  });

  it('takes a strategy for that key', () => {
    const registry = ClusterRegistry.create({
      config: new ConfigReader({}),
      clusters: [
        { name: 'prod', url: 'https://prod.example.com', authProvider: 'aws' },
      ],
      authStrategies: new Map([
        [
          'aws',
          { getCredential: async () => ({ type: 'anonymous' as const }) },
        ],
      ]),
    });
    expect(registry.list()).toEqual([{ name: 'prod' }]);
  });

  it('refuses a cluster defined twice', () => {
    const kubeconfig = join(scratch, 'config');
    writeFileSync(
      kubeconfig,
      JSON.stringify({
        clusters: [{ name: 'p', cluster: { server: 'https://p.example.com' } }],
        users: [{ name: 'p', user: { token: 't' } }],
        contexts: [{ name: 'p', context: { cluster: 'p', user: 'p' } }],
        'current-context': 'p',
      }),
    );
    const config = new ConfigReader({
      ...entry({ serviceAccountToken: 't' }).get(),
      flinkStandalone: {
        clusters: [{ name: 'prod', kubeconfig: { path: kubeconfig } }],
      },
    });
    expect(() => ClusterRegistry.fromConfig(config)).toThrow(
      /Kubernetes cluster "prod" is defined twice/,
    );
  });

  it('keeps the flinkUiUrl pattern of a cluster', () => {
    const config = new ConfigReader({
      ...entry({ serviceAccountToken: 't' }).get(),
      flinkStandalone: {
        clusters: [
          { name: 'prod', flinkUiUrl: 'https://flink.example.com/{name}/' },
        ],
      },
    });
    expect(ClusterRegistry.fromConfig(config).get('prod').flinkUiUrl).toBe(
      'https://flink.example.com/{name}/',
    );
  });
});
