import { readFile } from 'node:fs/promises';
import { InputError } from '@backstage/errors';
import {
  ClusterSpec,
  fromYaml,
  parseClusterSpec,
} from '@flink-standalone/plugin-flink-standalone-common';
import type { ClaimTemplates } from '../claimTemplates/ClaimTemplates';
import { existingWorkspacePath } from './workspace';

/** Where an action finds the cluster spec: inline from the form, or a file in the workspace. */
export interface SpecSource {
  spec?: Record<string, unknown>;
  specFile?: string;
}

async function readSpecFile(workspacePath: string, specFile: string) {
  const path = await existingWorkspacePath(workspacePath, specFile, 'specFile');
  const documents = fromYaml(await readFile(path, 'utf8'));
  if (documents.length !== 1) {
    throw new InputError(
      `specFile ${specFile} must hold exactly one spec; found ${documents.length} YAML documents`,
    );
  }
  return documents[0];
}

/** The spec as written, before claim templates are resolved. */
export async function readSpec(
  workspacePath: string,
  source: SpecSource,
): Promise<unknown> {
  if ((source.spec === undefined) === (source.specFile === undefined)) {
    throw new InputError('Give exactly one of the inputs spec and specFile');
  }
  return source.spec ?? readSpecFile(workspacePath, source.specFile!);
}

export interface LoadedSpec {
  /** The input with claim templates replaced by plain fields: what a GitOps repository keeps. */
  resolved: unknown;
  /** The full spec with every default applied. */
  spec: ClusterSpec;
}

/** Reads, resolves and validates a spec; a `ClusterSpecError` lists every problem. */
export async function loadSpec(
  workspacePath: string,
  source: SpecSource,
  claimTemplates: ClaimTemplates,
): Promise<LoadedSpec> {
  const resolved = claimTemplates.resolve(
    await readSpec(workspacePath, source),
  );
  return { resolved, spec: parseClusterSpec(resolved) };
}
