/** @jsxImportSource react */
import Box from '@material-ui/core/Box';
import {
  type Entity,
  getCompoundEntityRef,
  stringifyEntityRef,
} from '@backstage/catalog-model';
import { usePermission } from '@backstage/plugin-permission-react';
import {
  type FlinkClusterStatus,
  flinkStandaloneDeletePermission,
  flinkStandalonePodForceDeletePermission,
  flinkStandaloneRolloutUnblockPermission,
  flinkStandaloneScalePermission,
} from '@flink-standalone/plugin-flink-standalone-common';
import { DeleteClusterButton } from './DeleteClusterButton';
import { ForceDeletePodButton } from './ForceDeletePodButton';
import { ScaleTaskManagersButton } from './ScaleTaskManagersButton';
import { UnblockRolloutButton } from './UnblockRolloutButton';

/**
 * Scale, delete and the remedies (while a StatefulSet rollout is blocked, and while a pod is
 * stuck Terminating on a NotReady node): each shown only to users allowed to do it on this entity.
 */
export function ClusterActions(props: {
  entity: Entity;
  status: FlinkClusterStatus;
  onChanged: () => void;
}) {
  const { entity, status, onChanged } = props;
  const resourceRef = stringifyEntityRef(entity);
  const scale = usePermission({
    permission: flinkStandaloneScalePermission,
    resourceRef,
  });
  const remove = usePermission({
    permission: flinkStandaloneDeletePermission,
    resourceRef,
  });
  const unblock = usePermission({
    permission: flinkStandaloneRolloutUnblockPermission,
    resourceRef,
  });
  const forceDelete = usePermission({
    permission: flinkStandalonePodForceDeletePermission,
    resourceRef,
  });
  const blocked = [status.jobManager, status.taskManager].filter(
    w => w?.rolloutBlocked,
  );
  const lost = status.pods.filter(p => p.stuck && p.nodeReady === false);
  const entityRef = getCompoundEntityRef(entity);
  // Nothing to scale or delete before the cluster exists.
  const exists = Boolean(status.jobManager || status.taskManager);
  const unblockable = unblock.allowed ? blocked : [];
  const forceDeletable = forceDelete.allowed ? lost : [];
  if (
    !exists ||
    (!scale.allowed &&
      !remove.allowed &&
      !unblockable.length &&
      !forceDeletable.length)
  )
    return null;
  return (
    <Box display="flex" gridGap={8}>
      {unblockable.map(workload => (
        <UnblockRolloutButton
          key={workload!.name}
          entityRef={entityRef}
          workload={workload!}
          onUnblocked={onChanged}
        />
      ))}
      {forceDeletable.map(pod => (
        <ForceDeletePodButton
          key={pod.name}
          entityRef={entityRef}
          pod={pod}
          onDeleted={onChanged}
        />
      ))}
      {scale.allowed && status.taskManager && (
        <ScaleTaskManagersButton
          entityRef={entityRef}
          taskManager={status.taskManager}
          onScaled={onChanged}
        />
      )}
      {remove.allowed && (
        <DeleteClusterButton
          entityRef={entityRef}
          status={status}
          onDeleted={onChanged}
        />
      )}
    </Box>
  );
}
