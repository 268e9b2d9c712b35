import { FlinkSession, startFlinkSession } from './flink';
import { waitFor } from './processes';

describe.each(['2.2', '1.20'])('a real Flink %s session cluster', version => {
  let session: FlinkSession;

  beforeAll(async () => {
    session = await startFlinkSession({ version, taskManagers: 2 });
  }, 300_000);

  afterAll(async () => {
    await session?.stop();
  });

  it('answers the REST endpoints the observer reads', async () => {
    const overview = await session.rest('/overview');
    expect(overview).toMatchObject({
      taskmanagers: 2,
      'slots-total': 2,
      'jobs-running': 0,
    });
    expect(overview['flink-version']).toBe(session.version);
    const { taskmanagers } = await session.rest('/taskmanagers');
    expect(taskmanagers.map((tm: { id: string }) => tm.id).sort()).toEqual([
      'taskmanager-0',
      'taskmanager-1',
    ]);
    expect(await session.rest('/jobs/overview')).toEqual({ jobs: [] });
    expect((await session.rest('/config'))['flink-version']).toBe(
      session.version,
    );
  });

  it('drops a killed TaskManager from /overview', async () => {
    await session.killTaskManager(1);
    await waitFor(
      'taskmanagers to drop to 1',
      async () => (await session.rest('/overview')).taskmanagers === 1,
      {
        timeoutMs: 30_000,
      },
    );
  });
});
