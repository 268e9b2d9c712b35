/** @jsxImportSource react */
import { useState } from 'react';
import Button from '@material-ui/core/Button';
import Dialog from '@material-ui/core/Dialog';
import DialogActions from '@material-ui/core/DialogActions';
import DialogContent from '@material-ui/core/DialogContent';
import DialogContentText from '@material-ui/core/DialogContentText';
import DialogTitle from '@material-ui/core/DialogTitle';
import TextField from '@material-ui/core/TextField';
import Alert from '@material-ui/lab/Alert';
import { alertApiRef, useApi } from '@backstage/core-plugin-api';
import type { CompoundEntityRef } from '@backstage/catalog-model';
import type { WorkloadStatus } from '@flink-standalone/plugin-flink-standalone-common';
import { flinkStandaloneApiRef } from '../../api';
import { describeError, formatClaimRetention } from '../format';

function parseReplicas(text: string): number | undefined {
  const value = Number(text);
  return text.trim() !== '' && Number.isInteger(value) && value >= 0
    ? value
    : undefined;
}

/** Opens a dialog that asks for the new number of TaskManagers and confirms the change. */
export function ScaleTaskManagersButton(props: {
  entityRef: CompoundEntityRef;
  taskManager: WorkloadStatus;
  onScaled: () => void;
}) {
  const { entityRef, taskManager, onScaled } = props;
  const api = useApi(flinkStandaloneApiRef);
  const alertApi = useApi(alertApiRef);
  const current = taskManager.replicas.desired;
  const [open, setOpen] = useState(false);
  const [text, setText] = useState(String(current));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error>();
  const replicas = parseReplicas(text);

  const openDialog = () => {
    setText(String(current));
    setError(undefined);
    setOpen(true);
  };

  const scale = async () => {
    if (replicas === undefined) return;
    setBusy(true);
    setError(undefined);
    try {
      const result = await api.scaleTaskManagers(entityRef, replicas);
      alertApi.post({
        message: `Scaled ${result.kind} ${result.name} from ${result.previousReplicas} to ${result.replicas} TaskManagers`,
        severity: 'success',
        display: 'transient',
      });
      setOpen(false);
      onScaled();
    } catch (e) {
      setError(e as Error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button variant="outlined" color="primary" onClick={openDialog}>
        Scale TaskManagers
      </Button>
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        aria-labelledby="flink-scale-title"
      >
        <DialogTitle id="flink-scale-title">Scale TaskManagers</DialogTitle>
        <DialogContent>
          <DialogContentText>
            {taskManager.kind} {taskManager.name} runs {current} TaskManagers.
            {taskManager.retention &&
              ` Claims of removed ordinals follow the retention policy (${formatClaimRetention(taskManager.retention)}).`}
          </DialogContentText>
          <TextField
            id="flink-scale-taskmanagers"
            fullWidth
            type="number"
            label="TaskManagers"
            value={text}
            onChange={e => setText(e.target.value)}
            inputProps={{ min: 0, step: 1 }}
            error={replicas === undefined}
            helperText={
              replicas === undefined
                ? 'A whole number, 0 or more'
                : `Scale from ${current} to ${replicas}`
            }
          />
          {error && <Alert severity="error">{describeError(error)}</Alert>}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)}>Cancel</Button>
          <Button
            color="primary"
            variant="contained"
            onClick={scale}
            disabled={busy || replicas === undefined || replicas === current}
          >
            Scale
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
