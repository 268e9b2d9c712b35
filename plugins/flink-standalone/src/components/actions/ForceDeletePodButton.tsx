/** @jsxImportSource react */
import Button from '@material-ui/core/Button';
import DialogContentText from '@material-ui/core/DialogContentText';
import { useApi } from '@backstage/core-plugin-api';
import type { CompoundEntityRef } from '@backstage/catalog-model';
import type { PodStatus } from '@flink-standalone/plugin-flink-standalone-common';
import { flinkStandaloneApiRef } from '../../api';
import { ConfirmationDialog } from './ConfirmationDialog';
import { useConfirmedAction } from './useConfirmedAction';

/**
 * The remedy for a pod stuck Terminating on a lost node: a force delete, after a confirmation
 * that says what it risks when the node is not really gone.
 */
export function ForceDeletePodButton(props: {
  entityRef: CompoundEntityRef;
  pod: PodStatus;
  onDeleted: () => void;
}) {
  const { entityRef, pod, onDeleted } = props;
  const api = useApi(flinkStandaloneApiRef);
  const dialog = useConfirmedAction(onDeleted);
  const forceDelete = () =>
    dialog.run(async () => {
      const result = await api.forceDeletePod(entityRef, pod.name);
      return `Force-deleted pod ${result.pod} (node ${result.node}); its workload creates it again`;
    });

  return (
    <>
      <Button variant="outlined" color="secondary" onClick={dialog.show}>
        Force-delete {pod.name}
      </Button>
      <ConfirmationDialog
        id="flink-force-delete"
        title={`Force-delete pod ${pod.name}?`}
        action={dialog}
        confirmLabel="Force-delete pod"
        color="secondary"
        onConfirm={forceDelete}
      >
        <DialogContentText>{pod.stuckMessage}.</DialogContentText>
        <DialogContentText>
          Force-deleting removes the pod object without waiting for node{' '}
          {pod.node} to confirm its containers stopped, so that the workload
          creates {pod.name} again on the same claim. Do it only if the node is
          really gone (powered off, or its kubelet will never come back): if its
          containers still run, two TaskManagers with one identity may write the
          same claim and register with the JobManager at once.
        </DialogContentText>
      </ConfirmationDialog>
    </>
  );
}
