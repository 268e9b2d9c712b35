import type { RestoreSource } from '@flink-standalone/plugin-flink-standalone-common';

/**
 * The lines a TaskManager logs when a subtask restores keyed state. RocksDB's incremental
 * restore names the handle kind; every backend's full restore names the handle and its path.
 */
const RESTORE_LINE =
  /Starting RocksDB incremental recovery|Starting to restore from state handle/;
/** A local copy: RocksDB's local handle, or a file under the working dir's `localState/`. */
const LOCAL_HANDLE = /IncrementalLocalKeyedStateHandle|\/localState\//;

/** `2026-12-03 11:31:58,525 INFO ...`: Flink's log4j pattern, in the container's zone (UTC). */
const LOG_TIMESTAMP = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2}),(\d{3})/;

/** The JobManager's restore timestamp and a TaskManager's log come from different clocks. */
const CLOCK_SKEW_MS = 2000;

/** The time a Flink log line was written (ms); undefined for continuation lines. */
export function logTimestamp(line: string): number | undefined {
  const match = LOG_TIMESTAMP.exec(line);
  return match ? Date.parse(`${match[1]}T${match[2]}.${match[3]}Z`) : undefined;
}

/**
 * Where a TaskManager's subtasks read their state in the restore that began at `sinceMs`
 * (the job's restore timestamp), from the TaskManager's log: only local copies, only the
 * checkpoint storage, both, or nothing restored on this TaskManager.
 */
export function taskManagerRestoreSource(
  log: string,
  sinceMs: number,
): RestoreSource {
  let local = 0;
  let remote = 0;
  for (const line of log.split('\n')) {
    if (!RESTORE_LINE.test(line)) continue;
    const at = logTimestamp(line);
    if (at === undefined || at < sinceMs - CLOCK_SKEW_MS) continue;
    if (LOCAL_HANDLE.test(line)) local++;
    else remote++;
  }
  if (local && remote) return 'mixed';
  if (local) return 'local';
  return remote ? 'remote' : 'none';
}
