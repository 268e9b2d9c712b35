import fs from 'node:fs';
import path from 'node:path';
import { runStateDir } from './paths';
import { cleanUpRealNodeHost } from './realNode/host';
import type { RealNodeCleanup } from './realNode';

/** What `k8s:down` needs to clean up after an owner that died without stopping its processes. */
export interface RunState {
  kind: 'control-plane' | 'flink-session';
  ownerPid: number;
  workDir: string;
  processes: { name: string; pid: number }[];
  kubeconfigPath?: string;
  server?: string;
  restUrl?: string;
  /** A real node's host changes (network, mounts, cgroups) to undo. */
  realNode?: RealNodeCleanup;
  startedAt: string;
}

export function stateFile(id: string): string {
  return path.join(runStateDir(), `${id}.json`);
}

export function writeRunState(id: string, state: RunState): void {
  fs.mkdirSync(runStateDir(), { recursive: true });
  fs.writeFileSync(stateFile(id), `${JSON.stringify(state, null, 2)}\n`);
}

export function removeRunState(id: string): void {
  fs.rmSync(stateFile(id), { force: true });
}

export function readRunStates(): { id: string; state: RunState }[] {
  if (!fs.existsSync(runStateDir())) return [];
  return fs
    .readdirSync(runStateDir())
    .filter(f => f.endsWith('.json'))
    .flatMap(f => {
      try {
        const state = JSON.parse(
          fs.readFileSync(path.join(runStateDir(), f), 'utf8'),
        );
        return [{ id: f.replace(/\.json$/, ''), state: state as RunState }];
      } catch {
        return [];
      }
    });
}

/** Kills the recorded process groups and removes the work folder (sync: safe in exit handlers). */
export function cleanUpRun(id: string, state: RunState): void {
  for (const { pid } of state.processes) {
    for (const target of [-pid, pid]) {
      try {
        process.kill(target, 'SIGKILL');
      } catch {
        // gone already
      }
    }
  }
  if (state.realNode) cleanUpRealNodeHost(state.realNode);
  fs.rmSync(state.workDir, { recursive: true, force: true });
  removeRunState(id);
}
