import {
  coreServices,
  createServiceFactory,
} from '@backstage/backend-plugin-api';
import type { Server } from 'node:http';
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
 * Stop such a backend with `stopTestBackend`: a request in flight when it stops may wait for a
 * query that never answers, and the HTTP server's stop waits for every request in flight.
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

/** How long requests still in flight get once a stopping backend's server has stopped listening. */
const REQUESTS_GRACE_MS = 2_000;

/**
 * Stops a test backend whose databases are `testDatabaseServiceFactory`'s, closing the
 * connections of requests still in flight a moment after its HTTP server stopped listening.
 *
 * Why: the test backend's HTTP server stops as production's does outside development (it closes
 * idle connections, then waits for every request in flight to end), in the same step as the
 * databases close for good. A request whose handler queries a database after that (a plugin's
 * call to the catalog, say) never ends, and the stop would wait for it forever. Production's
 * process exits next, dropping such connections; so does this, as the backend in development
 * mode does at once.
 */
export async function stopTestBackend(backend: {
  server: Pick<Server, 'listening' | 'closeAllConnections'>;
  stop(): Promise<void>;
}): Promise<void> {
  const { server } = backend;
  let stoppedListeningAt: number | undefined;
  const closeLeftovers = setInterval(() => {
    if (server.listening) return;
    stoppedListeningAt ??= Date.now();
    if (Date.now() - stoppedListeningAt >= REQUESTS_GRACE_MS) {
      server.closeAllConnections();
    }
  }, 100);
  try {
    await backend.stop();
  } finally {
    clearInterval(closeLeftovers);
  }
}
