import {
  coreServices,
  createBackendPlugin,
} from '@backstage/backend-plugin-api';
import { startTestBackend } from '@backstage/backend-test-utils';
import type { Knex } from 'knex';
import { stopTestBackend, testDatabaseServiceFactory } from './testDatabases';

/** A plugin that creates the same table in its database and hands its client out. */
const pluginWithATable = (pluginId: string, clients: Knex[]) =>
  createBackendPlugin({
    pluginId,
    register(env) {
      env.registerInit({
        deps: { database: coreServices.database },
        async init({ database }) {
          const client = await database.getClient();
          await client.schema.createTable('clusters', table =>
            table.string('name'),
          );
          clients.push(client);
        },
      });
    },
  });

/** The timers keeping this process alive: a Knex pool's reaping interval is one. */
const liveTimers = () =>
  process.getActiveResourcesInfo().filter(resource => resource === 'Timeout')
    .length;

/** Whether a promise has settled once every callback queued so far has run. */
async function settledByNow(promise: Promise<unknown>) {
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  // A query on a destroyed pool fails within microtasks; setImmediate runs after all of them.
  await new Promise(resolve => setImmediate(resolve));
  return settled;
}

describe('testDatabaseServiceFactory', () => {
  it('gives each plugin a database of its own and destroys them when the backend stops', async () => {
    const timersBefore = liveTimers();
    const clients: Knex[] = [];
    const backend = await startTestBackend({
      features: [
        testDatabaseServiceFactory(),
        pluginWithATable('first', clients),
        pluginWithATable('second', clients),
      ],
    });
    // Both created the same table: two databases.
    expect(clients).toHaveLength(2);
    await clients[0]('clusters').insert({ name: 'only-in-first' });
    expect(await clients[1]('clusters').select()).toEqual([]);
    expect(liveTimers()).toBeGreaterThanOrEqual(timersBefore + 2);

    // A query waiting for the connection when the backend stops still gets its answer.
    const transaction = await clients[0].transaction();
    const waiting = clients[0]('clusters').select('name');
    const stopped = backend.stop();
    await transaction('clusters').insert({ name: 'committed-while-stopping' });
    await transaction.commit();
    expect(await waiting).toEqual([
      { name: 'only-in-first' },
      { name: 'committed-while-stopping' },
    ]);
    await stopped;

    // No pool is left to hold a timer, and a query after the stop never answers (a failure would
    // be an unhandled rejection in whatever background work made it).
    expect(liveTimers()).toBe(timersBefore);
    for (const client of clients) {
      expect(await settledByNow(client.raw('select 1'))).toBe(false);
      expect(await settledByNow(client('clusters').select())).toBe(false);
    }
  });
});

/**
 * A plugin whose route reads its database once the backend's stop has reached the databases: a
 * request in flight then waits for a query that never answers.
 */
const pluginReadingWhileStopping = (arrived: () => void) =>
  createBackendPlugin({
    pluginId: 'reader',
    register(env) {
      env.registerInit({
        deps: {
          database: coreServices.database,
          rootLifecycle: coreServices.rootLifecycle,
          httpRouter: coreServices.httpRouter,
        },
        async init({ database, rootLifecycle, httpRouter }) {
          // The database's shutdown hook is added first (on the first client), so it has begun
          // closing for good when this one runs.
          const client = await database.getClient();
          let stopping!: () => void;
          const stopped = new Promise<void>(resolve => (stopping = resolve));
          rootLifecycle.addShutdownHook(() => stopping());
          httpRouter.addAuthPolicy({ path: '/read', allow: 'unauthenticated' });
          httpRouter.use(async (req, res, next) => {
            if (req.path !== '/read') return next();
            arrived();
            await stopped;
            return res.json(await client.raw('select 1 as one'));
          });
        },
      });
    },
  });

describe('stopTestBackend', () => {
  it('stops a backend whose request in flight waits for a database closed for good', async () => {
    const timersBefore = liveTimers();
    let arrived!: () => void;
    const inHandler = new Promise<void>(resolve => (arrived = resolve));
    const backend = await startTestBackend({
      features: [
        testDatabaseServiceFactory(),
        pluginReadingWhileStopping(arrived),
      ],
    });
    const answer = fetch(
      `http://127.0.0.1:${backend.server.port()}/api/reader/read`,
    );
    await inHandler;

    await stopTestBackend(backend);
    // The request's connection was closed under it: it got no answer.
    await expect(answer).rejects.toThrow('fetch failed');
    expect(liveTimers()).toBe(timersBefore);
  }, 30_000);
});
