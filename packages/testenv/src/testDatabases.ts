import {
  coreServices,
  createServiceFactory,
} from '@backstage/backend-plugin-api';
import knexFactory, { Knex } from 'knex';

/**
 * The database service for a test backend: each plugin gets an in-memory SQLite database of its
 * own (as with the default service and no database configured), destroyed when the backend
 * stops.
 *
 * Why not the default: it never destroys its clients when the backend stops (backend-defaults
 * 0.19's `DatabaseManager.shutdown` calls `includes` on the client's config object, which throws
 * inside a `Promise.allSettled`). Each stopped backend so left its Knex pool's reaping interval
 * behind: a 1-second timer that kept the Jest worker from exiting after the run ("A worker
 * process has failed to exit gracefully").
 *
 * When the backend stops, each client is closed for good (`closeForGood`): later queries never
 * answer, as in a process that has exited.
 *
 * Give such a backend a scheduler of its own too (`mockServices.scheduler.factory()`):
 * backend-test-utils' default scheduler mock is one instance per test file, and each backend's
 * startup runs every task registered in it, those of the file's stopped backends included (their
 * databases closed for good, so that startup would wait forever).
 */
export function testDatabaseServiceFactory() {
  return createServiceFactory({
    service: coreServices.database,
    deps: { rootLifecycle: coreServices.rootLifecycle },
    createRootContext({ rootLifecycle }) {
      const clients: Knex[] = [];
      rootLifecycle.addShutdownHook(async () => {
        await Promise.all(clients.map(closeForGood));
      });
      return clients;
    },
    factory(_deps, clients) {
      const client = knexFactory({
        client: 'better-sqlite3',
        connection: { filename: ':memory:' },
        useNullAsDefault: true,
      });
      clients.push(client);
      return { getClient: async () => client };
    },
  });
}

/** How long a stopping backend's queries in flight get to finish before the pool goes anyway. */
const DRAIN_TIMEOUT_MS = 5_000;

/**
 * Destroys a client's pool (and with it the pool's reaping timer) once the queries in flight have
 * finished; any query after that never answers.
 *
 * Why never answer instead of failing: some upstream plugins' background work outlives the
 * backend's stop by a moment (in production the process exits next). A query that fails there
 * ("Unable to acquire a connection") is a rejection nobody handles, reported against whichever
 * test file the Jest worker runs next. A query that never answers stops that work where it is, as
 * an exited process would.
 */
async function closeForGood(client: Knex): Promise<void> {
  const inner = client.client;
  inner.acquireConnection = () => new Promise(() => {});
  const pool = inner.pool;
  const deadline = Date.now() + DRAIN_TIMEOUT_MS;
  while (
    pool &&
    pool.numUsed() + pool.numPendingAcquires() > 0 &&
    Date.now() < deadline
  ) {
    await new Promise(resolve => setTimeout(resolve, 10));
  }
  await client.destroy();
}
