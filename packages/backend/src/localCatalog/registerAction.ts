import { readFile } from 'node:fs/promises';
import { isAbsolute, relative, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { stringifyEntityRef } from '@backstage/catalog-model';
import { ConflictError, InputError, ResponseError } from '@backstage/errors';
import type { CatalogService } from '@backstage/plugin-catalog-node';
import { createTemplateAction } from '@backstage/plugin-scaffolder-node';
import { parseAllDocuments } from 'yaml';
import {
  SCAFFOLDED_LOCATION_TYPE,
  ScaffoldedCatalog,
} from './scaffoldedCatalog';

export const LOCAL_REGISTER_ACTION_ID = 'local:catalog:register';

/**
 * The catalog's answer to a location it has: a ConflictError in process, a 409 ResponseError
 * through the catalog client (the template run again for the same component).
 */
function alreadyRegistered(error: unknown): boolean {
  return (
    error instanceof ConflictError ||
    (error as Error)?.name === 'ConflictError' ||
    (ResponseError.is(error) && error.statusCode === 409)
  );
}

/** The one Component a template's catalog-info.yaml describes. */
function componentOf(
  yaml: string,
  path: string,
): { name: string; ref: string } {
  const entities = parseAllDocuments(yaml).map(d => d.toJS());
  const [entity] = entities;
  if (
    entities.length !== 1 ||
    entity?.kind !== 'Component' ||
    typeof entity.metadata?.name !== 'string'
  ) {
    throw new InputError(
      `${path} must hold exactly one Component entity with metadata.name`,
    );
  }
  if ((entity.metadata.namespace ?? 'default') !== 'default') {
    throw new InputError(
      `${path}: metadata.namespace must be "default" for a scaffolded component`,
    );
  }
  return { name: entity.metadata.name, ref: stringifyEntityRef(entity) };
}

/**
 * The example app's stand-in for publish + catalog:register when a template run has no
 * repository: it keeps the workspace's catalog-info.yaml in the scaffolded catalog folder and
 * registers it with the initiator's credentials, then waits until the catalog serves the
 * component, so the task's "Component in the catalog" link works when the task ends.
 */
export function createLocalRegisterAction(options: {
  catalog: CatalogService;
  scaffolded: ScaffoldedCatalog;
  waitMs?: number;
}) {
  return createTemplateAction({
    id: LOCAL_REGISTER_ACTION_ID,
    description:
      "Registers the workspace's catalog-info.yaml in this Backstage's catalog without a repository (example app only)",
    supportsDryRun: true,
    schema: {
      input: {
        catalogInfoPath: z =>
          z
            .string()
            .optional()
            .describe(
              'Workspace path of the catalog-info.yaml (default catalog-info.yaml)',
            ),
      },
      output: {
        entityRef: z => z.string().describe('The registered component'),
      },
    },
    async handler(ctx) {
      const path = ctx.input.catalogInfoPath ?? 'catalog-info.yaml';
      const file = resolve(ctx.workspacePath, path);
      const inWorkspace = relative(ctx.workspacePath, file);
      if (inWorkspace.startsWith('..') || isAbsolute(inWorkspace)) {
        throw new InputError(
          `catalogInfoPath must stay inside the workspace, got ${path}`,
        );
      }
      const component = componentOf(await readFile(file, 'utf8'), path);
      ctx.output('entityRef', component.ref);
      if (ctx.isDryRun) {
        ctx.logger.info(`[dry run] would register ${component.ref}`);
        return;
      }
      const credentials = await ctx.getInitiatorCredentials();
      await options.scaffolded.write(
        component.name,
        await readFile(file, 'utf8'),
      );
      try {
        await options.catalog.addLocation(
          { type: SCAFFOLDED_LOCATION_TYPE, target: component.name },
          { credentials },
        );
        ctx.logger.info(`Registered ${component.ref}`);
      } catch (error) {
        if (!alreadyRegistered(error)) throw error;
        // Created before (the same name, an earlier run): the catalog rereads the new file.
        await options.catalog
          .refreshEntity(component.ref, { credentials })
          .catch(() => {});
        ctx.logger.info(
          `${component.ref} was registered before; its catalog-info.yaml is updated`,
        );
      }
      const deadline = Date.now() + (options.waitMs ?? 60_000);
      while (
        !(await options.catalog.getEntityByRef(component.ref, { credentials }))
      ) {
        if (Date.now() > deadline) {
          throw new Error(
            `${component.ref} is registered but the catalog did not serve it within ${Math.round((options.waitMs ?? 60_000) / 1000)} s`,
          );
        }
        await sleep(500, undefined, { signal: ctx.signal });
      }
    },
  });
}
