/** @jsxImportSource react */
import { useState } from 'react';
import Button from '@material-ui/core/Button';
import Checkbox from '@material-ui/core/Checkbox';
import Dialog from '@material-ui/core/Dialog';
import DialogActions from '@material-ui/core/DialogActions';
import DialogContent from '@material-ui/core/DialogContent';
import DialogContentText from '@material-ui/core/DialogContentText';
import DialogTitle from '@material-ui/core/DialogTitle';
import FormControlLabel from '@material-ui/core/FormControlLabel';
import Alert from '@material-ui/lab/Alert';
import { alertApiRef, useApi } from '@backstage/core-plugin-api';
import type { CompoundEntityRef } from '@backstage/catalog-model';
import type { FlinkClusterStatus } from '@flink-standalone/plugin-flink-standalone-common';
import { flinkStandaloneApiRef } from '../../api';
import { describeError } from '../format';

/** Deletes the cluster after a confirmation; its claims only when asked to. */
export function DeleteClusterButton(props: {
  entityRef: CompoundEntityRef;
  status: FlinkClusterStatus;
  onDeleted: () => void;
}) {
  const { entityRef, status, onDeleted } = props;
  const api = useApi(flinkStandaloneApiRef);
  const alertApi = useApi(alertApiRef);
  const [open, setOpen] = useState(false);
  const [deleteClaims, setDeleteClaims] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error>();

  const openDialog = () => {
    setDeleteClaims(false);
    setError(undefined);
    setOpen(true);
  };

  const remove = async () => {
    setBusy(true);
    setError(undefined);
    try {
      const result = await api.deleteCluster(entityRef, { deleteClaims });
      alertApi.post({
        message: `Deleted ${result.deleted.length} objects of ${status.name}; ${result.claimsDeleted.length} claims deleted, ${result.claimsKept.length} kept`,
        severity: 'success',
        display: 'transient',
      });
      setOpen(false);
      onDeleted();
    } catch (e) {
      setError(e as Error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button variant="outlined" color="secondary" onClick={openDialog}>
        Delete cluster
      </Button>
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        aria-labelledby="flink-delete-title"
      >
        <DialogTitle id="flink-delete-title">
          Delete Flink cluster {status.name}?
        </DialogTitle>
        <DialogContent>
          <DialogContentText>
            This deletes the JobManager, the TaskManagers and the other objects
            of {status.namespace}/{status.name} on {status.cluster}. Running
            jobs stop.
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
          {error && <Alert severity="error">{describeError(error)}</Alert>}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)}>Cancel</Button>
          <Button
            color="secondary"
            variant="contained"
            onClick={remove}
            disabled={busy}
          >
            Delete
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
