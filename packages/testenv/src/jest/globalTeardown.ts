import fs from 'node:fs';
import path from 'node:path';
import { SHARED_PLANE_ENV } from '../shared';

/** Stops the shared plane when the last Jest project that set it up is done. */
export default async function globalTeardown(): Promise<void> {
  const shared = globalThis.flinkStandaloneTestenvPlane;
  if (!shared) return;
  shared.users -= 1;
  if (shared.users > 0) return;
  globalThis.flinkStandaloneTestenvPlane = undefined;
  await shared.plane.stop();
  const file = process.env[SHARED_PLANE_ENV];
  if (file) fs.rmSync(path.dirname(file), { recursive: true, force: true });
  delete process.env[SHARED_PLANE_ENV];
}
