import { parseSavepointHistory, SavepointRecord } from './plan';

const record: SavepointRecord = {
  path: 's3://flink/savepoints/savepoint-1a2b3c',
  time: '2026-12-03T10:00:00.000Z',
  trigger: 'upgrade',
  jobId: '8f4b2ad3c1e0f5a6b7c8d9e0f1a2b3c4',
  jobName: 'orders',
};

describe('parseSavepointHistory', () => {
  it('reads the records an annotation holds, in its order', () => {
    const suspend = {
      ...record,
      path: 's3://x/savepoint-2',
      trigger: 'suspend',
    };
    expect(parseSavepointHistory(JSON.stringify([suspend, record]))).toEqual([
      suspend,
      record,
    ]);
  });

  it('is empty without an annotation, or with one that is not a JSON list', () => {
    expect(parseSavepointHistory(undefined)).toEqual([]);
    expect(parseSavepointHistory('not json')).toEqual([]);
    expect(parseSavepointHistory(JSON.stringify(record))).toEqual([]);
  });

  it('leaves out entries without a path, time or job (a hand edit gone wrong)', () => {
    const { jobId: _jobId, ...withoutJob } = record;
    expect(
      parseSavepointHistory(JSON.stringify([withoutJob, 42, null, record])),
    ).toEqual([record]);
  });
});
