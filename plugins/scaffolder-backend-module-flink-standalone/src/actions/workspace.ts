import { stat } from 'node:fs/promises';
import { resolveSafeChildPath } from '@backstage/backend-plugin-api';
import { InputError } from '@backstage/errors';

/**
 * The absolute path of an input's workspace path, which must exist: a typo in a template fails
 * naming the input, not with a bare ENOENT. A path that leaves the workspace is refused.
 */
export async function existingWorkspacePath(
  workspacePath: string,
  path: string,
  inputName: string,
): Promise<string> {
  const absolute = resolveSafeChildPath(workspacePath, path);
  try {
    await stat(absolute);
  } catch {
    throw new InputError(
      `${inputName} ${path} does not exist in the workspace`,
    );
  }
  return absolute;
}
