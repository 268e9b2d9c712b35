import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { ResponseError } from '@backstage/errors';
import { catalogServiceMock } from '@backstage/plugin-catalog-node/testUtils';
import { createMockActionContext } from '@backstage/plugin-scaffolder-node-test-utils';
import { createLocalRegisterAction } from './registerAction';
import { ScaffoldedCatalog } from './scaffoldedCatalog';

const COMPONENT = `apiVersion: backstage.io/v1alpha1
kind: Component
metadata:
  name: orders-dev
spec: { type: service, owner: streaming-team, lifecycle: experimental }
`;

const scratch = mkdtempSync(join(tmpdir(), 'local-register-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function setup(catalogInfo: string) {
  const workspacePath = mkdtempSync(join(scratch, 'workspace-'));
  writeFileSync(join(workspacePath, 'catalog-info.yaml'), catalogInfo);
  const scaffolded = new ScaffoldedCatalog(
    mkdtempSync(join(scratch, 'scaffolded-')),
  );
  const catalog = catalogServiceMock.mock({
    getEntityByRef: async () => ({
      apiVersion: 'backstage.io/v1alpha1',
      kind: 'Component',
      metadata: { name: 'orders-dev' },
    }),
  });
  const action = createLocalRegisterAction({
    catalog,
    scaffolded,
    waitMs: 1000,
  });
  return { workspacePath, scaffolded, catalog, action };
}

describe('local:catalog:register', () => {
  it("keeps the workspace's catalog-info.yaml and registers it as a scaffolded location", async () => {
    const { workspacePath, scaffolded, catalog, action } = setup(COMPONENT);
    const ctx = createMockActionContext({ input: {}, workspacePath });
    await action.handler(ctx as any);

    expect(readFileSync(scaffolded.fileOf('orders-dev'), 'utf8')).toBe(
      COMPONENT,
    );
    expect(catalog.addLocation).toHaveBeenCalledWith(
      { type: 'scaffolded', target: 'orders-dev' },
      expect.anything(),
    );
    expect(ctx.output).toHaveBeenCalledWith(
      'entityRef',
      'component:default/orders-dev',
    );
  });

  it('updates a component registered before: the catalog client answers 409, the catalog reads the file again', async () => {
    const { workspacePath, scaffolded, catalog, action } = setup(COMPONENT);
    catalog.addLocation.mockRejectedValue(
      await ResponseError.fromResponse(
        new Response(
          JSON.stringify({
            error: { name: 'ConflictError', message: 'Location exists' },
            response: { statusCode: 409 },
          }),
          {
            status: 409,
            statusText: 'Conflict',
            headers: { 'content-type': 'application/json' },
          },
        ),
      ),
    );
    catalog.refreshEntity.mockResolvedValue(undefined);
    const ctx = createMockActionContext({ input: {}, workspacePath });
    await action.handler(ctx as any);

    expect(readFileSync(scaffolded.fileOf('orders-dev'), 'utf8')).toBe(
      COMPONENT,
    );
    expect(catalog.refreshEntity).toHaveBeenCalledWith(
      'component:default/orders-dev',
      expect.anything(),
    );
    expect(ctx.output).toHaveBeenCalledWith(
      'entityRef',
      'component:default/orders-dev',
    );
  });

  it('registers nothing in a dry run', async () => {
    const { workspacePath, scaffolded, catalog, action } = setup(COMPONENT);
    const ctx = {
      ...createMockActionContext({ input: {}, workspacePath }),
      isDryRun: true,
    };
    await action.handler(ctx as any);

    expect(await scaffolded.read('orders-dev')).toBeUndefined();
    expect(catalog.addLocation).not.toHaveBeenCalled();
    expect(ctx.output).toHaveBeenCalledWith(
      'entityRef',
      'component:default/orders-dev',
    );
  });

  it.each([
    [
      'a path outside the workspace',
      COMPONENT,
      '../catalog-info.yaml',
      /catalogInfoPath must stay inside the workspace/,
    ],
    [
      'a folder named like the workspace plus a suffix',
      COMPONENT,
      '../{workspace}-other/catalog-info.yaml',
      /must stay inside the workspace/,
    ],
    [
      'two entities',
      `${COMPONENT}---\n${COMPONENT}`,
      undefined,
      /must hold exactly one Component entity/,
    ],
    [
      'another kind',
      COMPONENT.replace('kind: Component', 'kind: System'),
      undefined,
      /exactly one Component/,
    ],
    [
      'another namespace',
      COMPONENT.replace(
        'name: orders-dev',
        'name: orders-dev\n  namespace: payments',
      ),
      undefined,
      /metadata.namespace must be "default"/,
    ],
  ])(
    'refuses %s with an input error, registering nothing',
    async (_, catalogInfo, catalogInfoPath, message) => {
      const { workspacePath, catalog, action } = setup(catalogInfo);
      // {workspace}: the workspace folder's own name, so the path shares its prefix.
      const path = catalogInfoPath?.replace(
        '{workspace}',
        basename(workspacePath),
      );
      const ctx = createMockActionContext({
        input: path ? { catalogInfoPath: path } : {},
        workspacePath,
      });
      await expect(action.handler(ctx as any)).rejects.toMatchObject({
        name: 'InputError',
        message: expect.stringMatching(message),
      });
      expect(catalog.addLocation).not.toHaveBeenCalled();
    },
  );

  it('reads only component names as scaffolded locations, never paths', () => {
    const scaffolded = new ScaffoldedCatalog('/var/scaffolded');
    expect(scaffolded.fileOf('orders-dev')).toBe(
      '/var/scaffolded/orders-dev.yaml',
    );
    expect(() => scaffolded.fileOf('../etc/passwd')).toThrow(
      /must be a component name/,
    );
  });
});
