import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ControlPlane, startControlPlane } from '../controlPlane';
import { SHARED_PLANE_ENV, writeSharedPlaneFile } from '../shared';

declare global {
  // The plane lives in Jest's main process between global setup and teardown. Several Jest
  // projects (packages) may name this setup: they share one plane, counted by users.
  // eslint-disable-next-line no-var
  var flinkStandaloneTestenvPlane:
    { plane: ControlPlane; users: number } | undefined;
}

/** Starts one control plane for the whole test run; tests join it with useControlPlane(). */
export default async function globalSetup(): Promise<void> {
  if (process.env.FLINK_STANDALONE_TESTENV_SHARED === 'false') return;
  const shared = globalThis.flinkStandaloneTestenvPlane;
  if (shared) {
    shared.users += 1;
    return;
  }
  const plane = await startControlPlane({
    log: line => process.stderr.write(`[testenv] ${line}\n`),
    // Real pods for the tests that need them (FLINK_STANDALONE_REAL_NODE=false: fake nodes only).
    realNode: process.env.FLINK_STANDALONE_REAL_NODE !== 'false',
    readyTimeoutMs: 180_000,
  });
  process.stderr.write(
    `[testenv] control plane ready in ${plane.startupMs} ms: ${plane.kubeconfigPath}\n`,
  );
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flink-standalone-jest-'));
  const file = path.join(dir, 'plane.json');
  writeSharedPlaneFile(file, plane);
  process.env[SHARED_PLANE_ENV] = file;
  globalThis.flinkStandaloneTestenvPlane = { plane, users: 1 };
}
