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
 * behind: a 1-second timer that held the whole backend in the Jest worker's heap (about 250 MB
 * per test file) and kept the worker from exiting after the run ("A worker process has failed
 * to exit gracefully").
 */
export function testDatabaseServiceFactory() {
  return createServiceFactory({
    service: coreServices.database,
    deps: { rootLifecycle: coreServices.rootLifecycle },
    createRootContext({ rootLifecycle }) {
      const clients: Knex[] = [];
      rootLifecycle.addShutdownHook(async () => {
        await Promise.all(clients.map(client => client.destroy()));
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
