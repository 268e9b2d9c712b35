import fs from 'node:fs';
import path from 'node:path';
import { SHARED_PLANE_ENV } from '../shared';

export default async function globalTeardown(): Promise<void> {
  await globalThis.flinkStandaloneTestenvPlane?.stop();
  globalThis.flinkStandaloneTestenvPlane = undefined;
  const file = process.env[SHARED_PLANE_ENV];
  if (file) fs.rmSync(path.dirname(file), { recursive: true, force: true });
  delete process.env[SHARED_PLANE_ENV];
}
