import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, posix } from 'node:path';
import { resolveSafeChildPath } from '@backstage/backend-plugin-api';
import {
  FlinkClusterObject,
  toYaml,
} from '@flink-standalone/plugin-flink-standalone-common';

/** `files`: one file per object; `stream`: one multi-document file for the whole cluster. */
export type ManifestLayout = 'files' | 'stream';

export interface ManifestFile {
  /** Relative to the workspace, with forward slashes. */
  path: string;
  content: string;
}

/**
 * The manifests as files. Per-object names carry the apply order as a number, so
 * `kubectl apply -f <folder>` (which goes by file name) applies them in the same order.
 */
export function manifestFiles(
  objects: FlinkClusterObject[],
  options: { targetPath: string; layout: ManifestLayout; clusterName: string },
): ManifestFile[] {
  if (options.layout === 'stream') {
    return [
      {
        path: posix.join(options.targetPath, `${options.clusterName}.yaml`),
        content: toYaml(objects),
      },
    ];
  }
  const width = String(objects.length).length;
  return objects.map((object, index) => ({
    path: posix.join(
      options.targetPath,
      `${String(index + 1).padStart(width, '0')}-${object.kind!.toLowerCase()}-${object.metadata!.name}.yaml`,
    ),
    content: toYaml([object]),
  }));
}

/** Writes files inside the workspace; a path that leaves it is refused. */
export async function writeWorkspaceFiles(
  workspacePath: string,
  files: ManifestFile[],
): Promise<void> {
  for (const file of files) {
    const target = resolveSafeChildPath(workspacePath, file.path);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, file.content, 'utf8');
  }
}
