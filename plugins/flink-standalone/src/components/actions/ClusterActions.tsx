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
  flinkStandaloneScalePermission,
} from '@flink-standalone/plugin-flink-standalone-common';
import { DeleteClusterButton } from './DeleteClusterButton';
import { ScaleTaskManagersButton } from './ScaleTaskManagersButton';

/** Scale and delete, each shown only to users allowed to do it on this entity. */
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
  const entityRef = getCompoundEntityRef(entity);
  // Nothing to scale or delete before the cluster exists.
  const exists = Boolean(status.jobManager || status.taskManager);
  if (!exists || (!scale.allowed && !remove.allowed)) return null;
  return (
    <Box display="flex" gridGap={8}>
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
