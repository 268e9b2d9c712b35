import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { assetVariable, resolveBinary } from './paths';

function fakeBinary(dir: string, name: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, '#!/bin/sh\n', { mode: 0o755 });
  return file;
}

describe('binary resolution (envtest conventions)', () => {
  const saved = { ...process.env };
  let dir: string;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'testenv-paths-'));
    for (const key of Object.keys(process.env)) {
      if (key.startsWith('TEST_ASSET_')) delete process.env[key];
    }
    delete process.env.KUBEBUILDER_ASSETS;
    delete process.env.FLINK_STANDALONE_BIN_DIR;
    process.env.FLINK_STANDALONE_CACHE = path.join(dir, 'empty-cache');
  });

  afterEach(() => {
    process.env = { ...saved };
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('names the envtest variable of each binary', () => {
    expect(assetVariable('kube-apiserver')).toBe('TEST_ASSET_KUBE_APISERVER');
    expect(assetVariable('etcd')).toBe('TEST_ASSET_ETCD');
  });

  it('prefers TEST_ASSET_<NAME>, then KUBEBUILDER_ASSETS, then FLINK_STANDALONE_BIN_DIR', () => {
    const assets = path.join(dir, 'assets');
    const other = path.join(dir, 'other');
    fs.mkdirSync(assets);
    fs.mkdirSync(other);
    const fromAssets = fakeBinary(assets, 'etcd');
    fakeBinary(other, 'etcd');
    const fromOther = fakeBinary(other, 'kwok');
    const explicit = fakeBinary(dir, 'my-etcd');
    process.env.KUBEBUILDER_ASSETS = assets;
    process.env.FLINK_STANDALONE_BIN_DIR = other;

    expect(resolveBinary('etcd')).toBe(fromAssets);
    expect(resolveBinary('kwok')).toBe(fromOther);
    process.env.TEST_ASSET_ETCD = explicit;
    expect(resolveBinary('etcd')).toBe(explicit);
  });

  it('says where it looked and how to build when a binary is missing', () => {
    expect(() => resolveBinary('kube-scheduler')).toThrow(
      /kube-scheduler not found .*build-binaries.*TEST_ASSET_KUBE_SCHEDULER/,
    );
  });
});
