/** @jsxImportSource react */
import { useState } from 'react';
import Button from '@material-ui/core/Button';
import Checkbox from '@material-ui/core/Checkbox';
import DialogContentText from '@material-ui/core/DialogContentText';
import FormControlLabel from '@material-ui/core/FormControlLabel';
import { useApi } from '@backstage/core-plugin-api';
import type { CompoundEntityRef } from '@backstage/catalog-model';
import type { FlinkClusterStatus } from '@flink-standalone/plugin-flink-standalone-common';
import { flinkStandaloneApiRef } from '../../api';
import { ConfirmationDialog } from './ConfirmationDialog';
import { useConfirmedAction } from './useConfirmedAction';

/** Deletes the cluster after a confirmation; its claims only when asked to. */
export function DeleteClusterButton(props: {
  entityRef: CompoundEntityRef;
  status: FlinkClusterStatus;
  onDeleted: () => void;
}) {
  const { entityRef, status, onDeleted } = props;
  const api = useApi(flinkStandaloneApiRef);
  const dialog = useConfirmedAction(onDeleted);
  const [deleteClaims, setDeleteClaims] = useState(false);

  const openDialog = () => {
    setDeleteClaims(false);
    dialog.show();
  };

  const remove = () =>
    dialog.run(async () => {
      const result = await api.deleteCluster(entityRef, { deleteClaims });
      return `Deleted ${result.deleted.length} objects of ${status.name}; ${result.claimsDeleted.length} claims deleted, ${result.claimsKept.length} kept`;
    });

  return (
    <>
      <Button variant="outlined" color="secondary" onClick={openDialog}>
        Delete cluster
      </Button>
      <ConfirmationDialog
        id="flink-delete"
        title={`Delete Flink cluster ${status.name}?`}
        action={dialog}
        confirmLabel="Delete"
        color="secondary"
        onConfirm={remove}
      >
        <DialogContentText>
          This deletes the JobManager, the TaskManagers and the other objects of{' '}
          {status.namespace}/{status.name} on {status.cluster}. Running jobs
          stop.
        </DialogContentText>
        <FormControlLabel
          control={
            <Checkbox
              checked={deleteClaims}
              onChange={e => setDeleteClaims(e.target.checked)}
            />
          }
          label={`Also delete the ${status.claims.length} claims (their data, including local recovery state, is lost)`}
        />
      </ConfirmationDialog>
    </>
  );
}
