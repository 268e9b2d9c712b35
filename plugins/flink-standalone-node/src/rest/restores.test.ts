import { taskManagerRestoreSource } from './restores';

const RESTORE_AT = Date.parse('2026-12-03T11:31:58.000Z');

/** Lines as Flink's console pattern writes them (level, logger, thread elided). */
const line = (time: string, message: string) =>
  `2026-12-03 ${time} INFO  org.apache.flink.runtime.state.heap.HeapRestoreOperation [] - ${message}`;
const heapLocal = (time: string) =>
  line(
    time,
    'Starting to restore from state handle: KeyGroupsStateHandle{stateHandle=File State: file:/opt/flink/volumes/flink-data/tm_x-taskmanager-1/localState/aid_1/jid_2/vtx_3_sti_1/chk_4/5e1 [9 bytes]}.',
  );
const heapRemote = (time: string) =>
  line(
    time,
    'Starting to restore from state handle: KeyGroupsStateHandle{stateHandle=RelativeFileStateHandle State: s3://bucket/checkpoints/2/chk-4/5e1}.',
  );
const rocksLocal = (time: string) =>
  line(
    time,
    'Starting RocksDB incremental recovery in operator counter target key-group range 0-63. Use IngestDB=false, Use AsyncCompaction=false, State Handles=[IncrementalLocalKeyedStateHandle{directoryStateHandle=DirectoryStateHandle{directory=/opt/flink/volumes/flink-data/tm_x/localState/aid_1/chk_4}}]',
  );
const rocksRemote = (time: string) =>
  line(
    time,
    'Starting RocksDB incremental recovery in operator counter target key-group range 64-127. Use IngestDB=false, Use AsyncCompaction=false, State Handles=[IncrementalRemoteKeyedStateHandle{backendIdentifier=1, stateHandleId=2}]',
  );

describe('taskManagerRestoreSource', () => {
  it('reads the heap backend: a path under localState/ is local, any other path remote', () => {
    expect(
      taskManagerRestoreSource(heapLocal('11:32:01,100'), RESTORE_AT),
    ).toBe('local');
    expect(
      taskManagerRestoreSource(heapRemote('11:32:01,100'), RESTORE_AT),
    ).toBe('remote');
  });

  it("reads RocksDB's incremental restore by the handle kind it names", () => {
    expect(
      taskManagerRestoreSource(rocksLocal('11:32:01,100'), RESTORE_AT),
    ).toBe('local');
    expect(
      taskManagerRestoreSource(rocksRemote('11:32:01,100'), RESTORE_AT),
    ).toBe('remote');
    expect(
      taskManagerRestoreSource(
        [rocksLocal('11:32:01,100'), rocksRemote('11:32:01,200')].join('\n'),
        RESTORE_AT,
      ),
    ).toBe('mixed');
  });

  it('counts only the restore that began at the given time, not earlier ones in the same log', () => {
    const log = [
      heapRemote('11:20:00,000'), // the first deployment restored from a savepoint
      'unrelated line',
      heapLocal('11:32:00,500'),
    ].join('\n');
    expect(taskManagerRestoreSource(log, RESTORE_AT)).toBe('local');
    // Nothing since: this TaskManager ran no stateful subtask in that restore.
    expect(
      taskManagerRestoreSource(log, Date.parse('2026-12-03T11:40:00Z')),
    ).toBe('none');
  });

  it('allows for clock skew between the JobManager and the TaskManager', () => {
    expect(
      taskManagerRestoreSource(heapLocal('11:31:57,000'), RESTORE_AT),
    ).toBe('local');
    expect(
      taskManagerRestoreSource(heapLocal('11:31:50,000'), RESTORE_AT),
    ).toBe('none');
  });
});
