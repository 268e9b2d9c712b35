/** @jsxImportSource react */
import type { ReactNode } from 'react';
import Button from '@material-ui/core/Button';
import Dialog from '@material-ui/core/Dialog';
import DialogActions from '@material-ui/core/DialogActions';
import DialogContent from '@material-ui/core/DialogContent';
import DialogTitle from '@material-ui/core/DialogTitle';
import Alert from '@material-ui/lab/Alert';
import { describeError } from '../format';
import type { ConfirmedAction } from './useConfirmedAction';

/**
 * The dialog every cluster action asks in: what it will do (children), the action's error if
 * it failed, Cancel, and the confirming button (disabled while the action runs).
 */
export function ConfirmationDialog(props: {
  /** Labels the dialog for assistive technology: `<id>-title`. */
  id: string;
  title: ReactNode;
  action: ConfirmedAction;
  confirmLabel: string;
  color: 'primary' | 'secondary';
  onConfirm: () => void;
  /** Besides while the action runs, e.g. an invalid input. */
  confirmDisabled?: boolean;
  children: ReactNode;
}) {
  const { id, title, action, confirmLabel, color, onConfirm } = props;
  return (
    <Dialog
      open={action.open}
      onClose={action.close}
      aria-labelledby={`${id}-title`}
    >
      <DialogTitle id={`${id}-title`}>{title}</DialogTitle>
      <DialogContent>
        {props.children}
        {action.error && (
          <Alert severity="error">{describeError(action.error)}</Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={action.close}>Cancel</Button>
        <Button
          color={color}
          variant="contained"
          onClick={onConfirm}
          disabled={action.busy || props.confirmDisabled}
        >
          {confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
