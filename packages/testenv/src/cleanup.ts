import { isAlive } from './processes';
import { cleanUpRun, readRunStates, RunState } from './state';

/**
 * Kills what earlier runs left behind and removes their temp folders. By default only runs
 * whose owner process is gone; with `all`, live owners are stopped too (SIGTERM first).
 */
export async function cleanUpStaleRuns({
  all = false,
}: { all?: boolean } = {}): Promise<{ id: string; state: RunState }[]> {
  const cleaned: { id: string; state: RunState }[] = [];
  for (const { id, state } of readRunStates()) {
    const ownerAlive =
      state.ownerPid !== process.pid && isAlive(state.ownerPid);
    if (ownerAlive && !all) continue;
    if (ownerAlive) {
      process.kill(state.ownerPid, 'SIGTERM');
      await new Promise(r => setTimeout(r, 3000));
    }
    if (state.ownerPid === process.pid && !all) continue;
    cleanUpRun(id, state);
    cleaned.push({ id, state });
  }
  return cleaned;
}
