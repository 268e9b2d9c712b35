import { readFileSync } from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { resolve } from 'node:path';
import type { Request } from 'express';
import {
  BackendFeature,
  BackstageCredentials,
  HttpAuthService,
  LoggerService,
  RootLoggerService,
  coreServices,
  createBackendModule,
  createServiceFactory,
} from '@backstage/backend-plugin-api';
import {
  mockCredentials,
  TestBackend,
  mockServices,
  startTestBackend,
} from '@backstage/backend-test-utils';
import type { Entity } from '@backstage/catalog-model';
import catalogPlugin from '@backstage/plugin-catalog-backend';
import {
  catalogConditions,
  createCatalogConditionalDecision,
} from '@backstage/plugin-catalog-backend/alpha';
import { catalogEntityReadPermission } from '@backstage/plugin-catalog-common/alpha';
import { catalogProcessingExtensionPoint } from '@backstage/plugin-catalog-node';
import {
  AuthorizeResult,
  PolicyDecision,
  isPermission,
} from '@backstage/plugin-permission-common';
import type {
  PermissionPolicy,
  PolicyQuery,
  PolicyQueryUser,
} from '@backstage/plugin-permission-node';
import { policyExtensionPoint } from '@backstage/plugin-permission-node/alpha';
import permissionPlugin from '@backstage/plugin-permission-backend';
import {
  fromYaml,
  flinkStandaloneApplyPermission,
  flinkStandaloneDeletePermission,
  flinkStandalonePodForceDeletePermission,
  flinkStandaloneRolloutUnblockPermission,
  flinkStandaloneScalePermission,
  flinkStandaloneStatusReadPermission,
} from '@flink-standalone/plugin-flink-standalone-common';
import {
  CountingApiProxy,
  InstalledServiceAccount,
  RbacManifestObject,
  SharedControlPlane,
  ServiceAccountOptions,
  credentialLeaks,
  installServiceAccount,
  startCountingApiProxy,
  waitFor,
  stopTestBackend,
  testDatabaseServiceFactory,
} from '@flink-standalone/testenv';
import request from 'supertest';
import { flinkStandalonePlugin } from '../plugin';

/** Owns the test components (`spec.owner`): the conditional decision lets them do everything. */
export const OWNER = 'user:default/owner';
/** Signed in, owns nothing: the conditional decision (isEntityOwner) says no. */
export const NON_OWNER = 'user:default/other';
/** Reads every status, may not scale or delete. */
export const READER = 'user:default/reader';
/** The platform team: the only one who may force-delete a pod stuck on a lost node. */
export const PLATFORM = 'user:default/platform';
/** May not read the entities from the catalog at all (catalog.entity.read denied). */
export const HIDDEN = 'user:default/hidden';

export const BASE = '/api/flink-standalone';
export const TEST_CLUSTER = 'local';

const FLINK_PERMISSIONS = [
  flinkStandaloneStatusReadPermission,
  flinkStandaloneApplyPermission,
  flinkStandaloneScalePermission,
  flinkStandaloneDeletePermission,
  flinkStandaloneRolloutUnblockPermission,
];

/**
 * The test policy: the example app's shape (owners operate their own entities through the
 * catalog's `isEntityOwner` condition, readers only read, force delete for the platform team
 * only), with status reads owner-only too so the conditional decision reaches every entity
 * route, and catalog reads denied to HIDDEN.
 */
export class TestPolicy implements PermissionPolicy {
  async handle(
    query: PolicyQuery,
    user?: PolicyQueryUser,
  ): Promise<PolicyDecision> {
    const userRef = user?.info.userEntityRef;
    if (isPermission(query.permission, catalogEntityReadPermission)) {
      return {
        result:
          userRef === HIDDEN ? AuthorizeResult.DENY : AuthorizeResult.ALLOW,
      };
    }
    if (
      isPermission(query.permission, flinkStandalonePodForceDeletePermission)
    ) {
      return {
        result:
          userRef === PLATFORM ? AuthorizeResult.ALLOW : AuthorizeResult.DENY,
      };
    }
    const flink = FLINK_PERMISSIONS.find(p =>
      isPermission(query.permission, p),
    );
    if (!flink) return { result: AuthorizeResult.ALLOW };
    if (userRef === READER) {
      return {
        result:
          flink === flinkStandaloneStatusReadPermission
            ? AuthorizeResult.ALLOW
            : AuthorizeResult.DENY,
      };
    }
    return createCatalogConditionalDecision(
      flink,
      catalogConditions.isEntityOwner({
        claims: user?.info.ownershipEntityRefs ?? [],
      }),
    );
  }
}

const testPolicyModule = createBackendModule({
  pluginId: 'permission',
  moduleId: 'flink-standalone-test-policy',
  register(reg) {
    reg.registerInit({
      deps: { policy: policyExtensionPoint },
      async init({ policy }) {
        policy.setPolicy(new TestPolicy());
      },
    });
  },
});

/** Puts entities in the real catalog through its processing, as a provider would. */
function catalogModuleEntities(entities: Entity[]) {
  return createBackendModule({
    pluginId: 'catalog',
    moduleId: 'flink-standalone-test-entities',
    register(reg) {
      reg.registerInit({
        deps: { catalog: catalogProcessingExtensionPoint },
        async init({ catalog }) {
          catalog.addEntityProvider({
            getProviderName: () => 'flink-standalone-test-entities',
            connect: connection =>
              connection.applyMutation({
                type: 'full',
                entities: entities.map(entity => ({
                  entity: {
                    ...entity,
                    metadata: {
                      ...entity.metadata,
                      annotations: {
                        ...entity.metadata.annotations,
                        'backstage.io/managed-by-location': 'url:http://test',
                        'backstage.io/managed-by-origin-location':
                          'url:http://test',
                      },
                    },
                  },
                  locationKey: 'flink-standalone-test-entities',
                })),
              }),
          });
        },
      });
    },
  });
}

/**
 * The mock httpAuth, except that a plugin's request on behalf of a user carries that plugin as
 * the actor, as real tokens do: the permission backend refuses a conditional query (the
 * catalog's, for its read filter) that looks like a user's own request. Requests without a token
 * are unauthenticated (the mock's default would be a user).
 */
const oboAwareHttpAuth = createServiceFactory({
  service: coreServices.httpAuth,
  deps: { plugin: coreServices.pluginMetadata },
  factory({ plugin }): HttpAuthService {
    const inner = mockServices.httpAuth({
      pluginId: plugin.getId(),
      defaultCredentials: mockCredentials.none(),
    });
    return {
      credentials: (async (
        req: Request,
        options?: Parameters<HttpAuthService['credentials']>[1],
      ) => {
        const credentials: BackstageCredentials = await inner.credentials(
          req,
          options,
        );
        const token = req.headers.authorization?.match(
          /^Bearer\s+mock-service-token:(.+)$/,
        )?.[1];
        const obo = token && JSON.parse(token).obo;
        return obo &&
          (credentials.principal as { type: string }).type === 'user'
          ? mockCredentials.user(obo, { actor: { subject: 'plugin' } })
          : credentials;
      }) as HttpAuthService['credentials'],
      issueUserCookie: (res, options) => inner.issueUserCookie(res, options),
    };
  },
});

/** Every log line of the backend (all plugins, all levels) with its metadata, as text. */
class CapturingLogger implements RootLoggerService {
  constructor(
    readonly lines: string[],
    private readonly meta: Record<string, unknown> = {},
  ) {}

  private log(level: string, message: string, meta?: unknown) {
    // Errors are captured whole (message and stack): a credential may hide in either.
    const text = JSON.stringify({ ...this.meta, meta }, (_key, value) =>
      value instanceof Error
        ? { name: value.name, message: value.message, stack: value.stack }
        : value,
    );
    this.lines.push(`${level} ${message} ${text}`);
  }
  error(message: string, meta?: Error | object) {
    this.log('error', message, meta);
  }
  warn(message: string, meta?: Error | object) {
    this.log('warn', message, meta);
  }
  info(message: string, meta?: Error | object) {
    this.log('info', message, meta);
  }
  debug(message: string, meta?: Error | object) {
    this.log('debug', message, meta);
  }
  child(meta: Record<string, unknown>): LoggerService {
    return new CapturingLogger(this.lines, { ...this.meta, ...meta });
  }
}

/** The repository's RBAC manifests for the backend (examples/rbac). */
export function rbacManifest(
  file:
    | 'flink-standalone-backend.yaml'
    | 'flink-standalone-backend-namespaced.yaml',
): RbacManifestObject[] {
  return fromYaml(
    readFileSync(resolve(__dirname, '../../../../examples/rbac', file), 'utf8'),
  ) as RbacManifestObject[];
}

/** A ServiceAccount bound only to an examples/rbac manifest, as the backend runs in production. */
export function backendServiceAccount(
  plane: SharedControlPlane,
  file: Parameters<typeof rbacManifest>[0],
  options: ServiceAccountOptions = {},
): Promise<InstalledServiceAccount> {
  return installServiceAccount(plane, rbacManifest(file), {
    namespacePrefix: 'backstage',
    ...options,
  });
}

/** A component of the test catalog: owned by OWNER, on the test cluster. */
export function component(
  name: string,
  annotations: Record<string, string> | undefined,
): Entity {
  return {
    apiVersion: 'backstage.io/v1alpha1',
    kind: 'Component',
    metadata: { name, ...(annotations && { annotations }) },
    spec: { type: 'service', lifecycle: 'production', owner: OWNER },
  };
}

export function flinkAnnotations(namespace: string, cluster: string) {
  return {
    'flink-standalone.backstage.io/kubernetes-cluster': TEST_CLUSTER,
    'flink-standalone.backstage.io/namespace': namespace,
    'flink-standalone.backstage.io/cluster': cluster,
  };
}

export interface FlinkTestBackend {
  server: TestBackend['server'];
  /** Every request the backend made to the API server. */
  proxy: CountingApiProxy;
  /** Every log line so far. */
  logs: string[];
  /** The plugin (`catalog`, `permission`, …) of every request the backend served, in order. */
  served: string[];
  stop(): Promise<void>;
}

/**
 * The flink-standalone plugin with the real catalog (the entities added through its processing),
 * the real permission backend with `TestPolicy`, the given config and root logger, and any other
 * features (the benchmark adds its peer).
 */
export function flinkBackendFeatures(options: {
  entities: Entity[];
  config: Record<string, unknown>;
  logger: RootLoggerService;
  features?: BackendFeature[];
}): BackendFeature[] {
  return [
    flinkStandalonePlugin,
    catalogPlugin,
    catalogModuleEntities(options.entities),
    permissionPlugin,
    testPolicyModule,
    oboAwareHttpAuth,
    createServiceFactory({
      service: coreServices.rootLogger,
      deps: {},
      factory: () => options.logger,
    }),
    mockServices.rootConfig.factory({
      data: { permission: { enabled: true }, ...options.config },
    }),
    ...(options.features ?? []),
  ];
}

/**
 * The flink-standalone plugin in a backend with the real catalog (the entities added through its
 * processing), the real permission backend with `TestPolicy`, and a logger that keeps every
 * line. The config should send Kubernetes requests through the counting proxy.
 */
export async function startFlinkBackend(options: {
  plane: SharedControlPlane;
  entities: Entity[];
  /** `kubernetes` and `flinkStandalone` config, given the URL of the counting proxy. */
  config: (proxyUrl: string) => Record<string, unknown>;
  /** Service factories replacing the test backend's (e.g. a cache shared by replicas). */
  services?: BackendFeature[];
}): Promise<FlinkTestBackend> {
  const proxy = await startCountingApiProxy(options.plane);
  const logs: string[] = [];
  const testBackend = await startTestBackend({
    features: flinkBackendFeatures({
      entities: options.entities,
      config: options.config(proxy.url),
      logger: new CapturingLogger(logs),
      // Databases and a scheduler of this backend's own: the default scheduler mock is one per
      // test file, and each backend's startup would run the file's earlier (stopped) backends'
      // tasks too (see testenv's testDatabaseServiceFactory).
      features: [
        testDatabaseServiceFactory(),
        mockServices.scheduler.factory(),
        ...(options.services ?? []),
      ],
    }),
  });
  const { server } = testBackend;
  const served: string[] = [];
  onPluginRequest(server, plugin => served.push(plugin));
  // The catalog processes its entities in the background: wait until each can be read.
  await waitFor(
    'the test entities in the catalog',
    async () => {
      const response = await request(server)
        .get('/api/catalog/entities/by-query?filter=kind=component&limit=1000')
        .set('Authorization', mockCredentials.user.header(OWNER));
      return (
        response.body.items?.length === options.entities.length || undefined
      );
    },
    { timeoutMs: 60_000 },
  );
  return {
    server,
    proxy,
    logs,
    served,
    stop: async () => {
      await stopTestBackend(testBackend);
      await proxy.close();
    },
  };
}

/**
 * Calls `listener` with the plugin (`catalog`, `permission`, …) of every request the backend's
 * server gets, plugins' calls to each other included (they go through the same server), before
 * Express routes it: it rewrites the URL while routing.
 */
export function onPluginRequest(
  server: Pick<Server, 'prependListener'>,
  listener: (plugin: string, response: ServerResponse) => void,
) {
  server.prependListener(
    'request',
    (req: IncomingMessage, response: ServerResponse) =>
      listener(req.url?.match(/^\/api\/([^/?]+)/)?.[1] ?? 'other', response),
  );
}

/** A supertest request as a user. */
export function as(user: string) {
  return mockCredentials.user.header(user);
}

/** No credential of the cluster in a text (a response body or the logs). */
export function expectNoCredentials(
  text: string,
  credentials: { token: string; ca: string; kubeconfig?: string },
) {
  expect(credentialLeaks(text, credentials)).toEqual([]);
}
