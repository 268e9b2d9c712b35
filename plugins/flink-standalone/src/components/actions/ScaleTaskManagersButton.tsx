/** @jsxImportSource react */
import { useState } from 'react';
import Button from '@material-ui/core/Button';
import DialogContentText from '@material-ui/core/DialogContentText';
import TextField from '@material-ui/core/TextField';
import { useApi } from '@backstage/core-plugin-api';
import type { CompoundEntityRef } from '@backstage/catalog-model';
import type { WorkloadStatus } from '@flink-standalone/plugin-flink-standalone-common';
import { flinkStandaloneApiRef } from '../../api';
import { formatClaimRetention } from '../format';
import { ConfirmationDialog } from './ConfirmationDialog';
import { useConfirmedAction } from './useConfirmedAction';

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
  const dialog = useConfirmedAction(onScaled);
  const current = taskManager.replicas.desired;
  const [text, setText] = useState(String(current));
  const replicas = parseReplicas(text);

  const openDialog = () => {
    setText(String(current));
    dialog.show();
  };

  const scale = (to: number) =>
    dialog.run(async () => {
      const result = await api.scaleTaskManagers(entityRef, to);
      return `Scaled ${result.kind} ${result.name} from ${result.previousReplicas} to ${result.replicas} TaskManagers`;
    });

  return (
    <>
      <Button variant="outlined" color="primary" onClick={openDialog}>
        Scale TaskManagers
      </Button>
      <ConfirmationDialog
        id="flink-scale"
        title="Scale TaskManagers"
        action={dialog}
        confirmLabel="Scale"
        color="primary"
        onConfirm={() => replicas !== undefined && scale(replicas)}
        confirmDisabled={replicas === undefined || replicas === current}
      >
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
      </ConfirmationDialog>
    </>
  );
}
