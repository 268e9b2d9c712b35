import {
  coreServices,
  createBackendPlugin,
} from '@backstage/backend-plugin-api';
import { startTestBackend } from '@backstage/backend-test-utils';
import type { Knex } from 'knex';
import { testDatabaseServiceFactory } from './testDatabases';

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

describe('testDatabaseServiceFactory', () => {
  it('gives each plugin a database of its own and destroys them when the backend stops', async () => {
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

    await backend.stop();

    // A destroyed client has no pool left to hold a timer.
    for (const client of clients) {
      await expect(client.raw('select 1')).rejects.toThrow();
    }
  });
});
