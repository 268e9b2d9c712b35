import { readFile, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { InputError } from '@backstage/errors';
import {
  TYPE_FLINK_STANDALONE,
  fromYaml,
} from '@flink-standalone/plugin-flink-standalone-common';
import type { KubernetesObject } from '@kubernetes/client-node';
import { existingWorkspacePath } from '../actions/workspace';

export interface FlinkManifests {
  objects: KubernetesObject[];
  name: string;
  namespace: string;
}

async function yamlFilesAt(path: string): Promise<string[]> {
  if (!(await stat(path)).isDirectory()) return [path];
  const names = (await readdir(path)).filter(n => /\.ya?ml$/.test(n)).sort();
  return names.map(n => join(path, n));
}

/**
 * The rendered objects of one Flink cluster from a workspace file or folder. Anything else
 * (another app's objects, several clusters or namespaces) is refused: this action applies
 * Flink clusters, not arbitrary manifests.
 */
export async function readManifests(
  workspacePath: string,
  manifestsPath: string,
): Promise<FlinkManifests> {
  const path = await existingWorkspacePath(
    workspacePath,
    manifestsPath,
    'manifestsPath',
  );
  const objects: KubernetesObject[] = [];
  for (const file of await yamlFilesAt(path)) {
    objects.push(
      ...(fromYaml(await readFile(file, 'utf8')) as KubernetesObject[]),
    );
  }
  const foreign = objects.filter(
    o =>
      o.metadata?.labels?.type !== TYPE_FLINK_STANDALONE ||
      !o.metadata?.labels?.app,
  );
  if (objects.length === 0 || foreign.length > 0) {
    throw new InputError(
      `manifestsPath ${manifestsPath} must hold the rendered objects of a Flink cluster (labelled type=${TYPE_FLINK_STANDALONE}); ${
        objects.length === 0
          ? 'it holds none'
          : `not one: ${foreign.map(o => `${o.kind}/${o.metadata?.name}`).join(', ')}`
      }`,
    );
  }
  const names = new Set(objects.map(o => o.metadata!.labels!.app));
  const namespaces = new Set(objects.map(o => o.metadata!.namespace));
  if (names.size !== 1 || namespaces.size !== 1 || namespaces.has(undefined)) {
    throw new InputError(
      `manifestsPath ${manifestsPath} must hold one Flink cluster in one namespace; found clusters ${[...names].join(', ')} in namespaces ${[...namespaces].join(', ')}`,
    );
  }
  return { objects, name: [...names][0], namespace: [...namespaces][0]! };
}
