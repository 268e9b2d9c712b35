import { useState } from 'react';
import { alertApiRef, useApi } from '@backstage/core-plugin-api';

/**
 * The state of an action behind a confirmation dialog: the dialog closes and `onDone` runs only
 * when the action succeeded; otherwise its error stays in the dialog.
 */
export function useConfirmedAction(onDone: () => void) {
  const alertApi = useApi(alertApiRef);
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error>();

  const show = () => {
    setError(undefined);
    setOpen(true);
  };

  /** Runs `action`; its result is the success message. */
  const run = async (action: () => Promise<string>) => {
    setBusy(true);
    setError(undefined);
    try {
      const message = await action();
      alertApi.post({ message, severity: 'success', display: 'transient' });
      setOpen(false);
      onDone();
    } catch (e) {
      setError(e as Error);
    } finally {
      setBusy(false);
    }
  };

  return { open, busy, error, show, close: () => setOpen(false), run };
}

/** What useConfirmedAction answers: the dialog's state and the action's runner. */
export type ConfirmedAction = ReturnType<typeof useConfirmedAction>;
