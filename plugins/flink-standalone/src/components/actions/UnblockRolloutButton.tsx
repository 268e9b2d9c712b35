/** @jsxImportSource react */
import Button from '@material-ui/core/Button';
import DialogContentText from '@material-ui/core/DialogContentText';
import { useApi } from '@backstage/core-plugin-api';
import type { CompoundEntityRef } from '@backstage/catalog-model';
import type { WorkloadStatus } from '@flink-standalone/plugin-flink-standalone-common';
import { flinkStandaloneApiRef } from '../../api';
import { ConfirmationDialog } from './ConfirmationDialog';
import { useConfirmedAction } from './useConfirmedAction';

const COMPONENT_TITLE = {
  jobmanager: 'JobManager',
  taskmanager: 'TaskManager',
};

/**
 * The remedy for a blocked StatefulSet rollout: deletes the one pod the observer names, after a
 * confirmation that says what the delete costs.
 */
export function UnblockRolloutButton(props: {
  entityRef: CompoundEntityRef;
  workload: WorkloadStatus;
  onUnblocked: () => void;
}) {
  const { entityRef, workload, onUnblocked } = props;
  const block = workload.rolloutBlocked!;
  const api = useApi(flinkStandaloneApiRef);
  const dialog = useConfirmedAction(onUnblocked);
  const title = `Delete pod ${block.pod}?`;
  const unblock = () =>
    dialog.run(async () => {
      const result = await api.unblockRollout(entityRef, block.pod);
      return `Deleted pod ${result.pod}; ${result.workload} recreates it at revision ${result.updateRevision}`;
    });

  return (
    <>
      <Button variant="outlined" color="secondary" onClick={dialog.show}>
        Unblock {COMPONENT_TITLE[workload.component]} rollout
      </Button>
      <ConfirmationDialog
        id="flink-unblock"
        title={title}
        action={dialog}
        confirmLabel="Delete pod"
        color="secondary"
        onConfirm={unblock}
      >
        <DialogContentText>{block.message}.</DialogContentText>
        <DialogContentText>
          Deleting it stops that {COMPONENT_TITLE[workload.component]}: a
          running job fails over once and restarts from its latest checkpoint.
          The StatefulSet then creates the pod again at revision{' '}
          {block.updateRevision}, on the same claim. Only this pod is deleted,
          and only while it still blocks the rollout.
        </DialogContentText>
      </ConfirmationDialog>
    </>
  );
}
