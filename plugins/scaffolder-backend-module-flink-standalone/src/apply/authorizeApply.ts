import type {
  BackstageCredentials,
  PermissionsService,
} from '@backstage/backend-plugin-api';
import { NotAllowedError } from '@backstage/errors';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import { flinkStandaloneApplyPermission } from '@flink-standalone/plugin-flink-standalone-common';

/** Refuses, before any Kubernetes call, an initiator without the apply permission on the entity. */
export async function authorizeApply(
  permissions: PermissionsService,
  entityRef: string,
  credentials: BackstageCredentials,
): Promise<void> {
  const [decision] = await permissions.authorize(
    [{ permission: flinkStandaloneApplyPermission, resourceRef: entityRef }],
    { credentials },
  );
  if (decision.result !== AuthorizeResult.ALLOW) {
    throw new NotAllowedError(
      `Not allowed to apply Flink clusters for ${entityRef} (${flinkStandaloneApplyPermission.name})`,
    );
  }
}
