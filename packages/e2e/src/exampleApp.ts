import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import {
  FatalError,
  ManagedProcess,
  freePorts,
  waitFor,
} from '@flink-standalone/testenv';

// A private test package, never bundled: its own folder is the right base.
// eslint-disable-next-line no-restricted-syntax
const ROOT = path.resolve(__dirname, '../../..');

export interface ExampleAppOptions {
  /**
   * The kubeconfig the backend's `local` cluster entry uses: a least-privilege ServiceAccount's
   * (examples/rbac), as a real installation has, never the plane's admin.
   */
  kubeconfigPath: string;
  /** Namespaces the template may create Flink clusters in. */
  allowedNamespaces: string[];
  /** Where the processes' logs and the catalog's database go. */
  workDir: string;
  /** catalog-info files the catalog reads besides the example catalog (absolute paths). */
  catalogFiles?: string[];
}

/** app-config.yaml's catalog locations: a later config file replaces an array, so extend a copy. */
function exampleLocations(): object[] {
  const config = parse(
    fs.readFileSync(path.join(ROOT, 'app-config.yaml'), 'utf8'),
  );
  return config.catalog.locations;
}

/**
 * The example Backstage app as `npm start` runs it (packages/backend and packages/app, each with
 * `backstage-cli package start`), on free ports, with a catalog in a file database so that a
 * restarted backend (as another user) still knows the components created before.
 */
export class ExampleApp {
  private backend?: ManagedProcess;
  private frontend?: ManagedProcess;

  private constructor(
    private readonly options: ExampleAppOptions,
    readonly appUrl: string,
    readonly backendUrl: string,
    private readonly configFile: string,
  ) {}

  static async create(options: ExampleAppOptions): Promise<ExampleApp> {
    const [appPort, backendPort] = await freePorts(2);
    const appUrl = `http://localhost:${appPort}`;
    const backendUrl = `http://localhost:${backendPort}`;
    const configFile = path.join(options.workDir, 'app-config.e2e.yaml');
    const config = {
      app: { baseUrl: appUrl },
      backend: {
        baseUrl: backendUrl,
        listen: { port: backendPort },
        cors: { origin: appUrl },
        database: {
          client: 'better-sqlite3',
          connection: { directory: path.join(options.workDir, 'db') },
        },
      },
      catalog: {
        // The example catalog and template, plus the test's own entities.
        locations: [
          ...exampleLocations(),
          ...(options.catalogFiles ?? []).map(target => ({
            type: 'file',
            target,
          })),
        ],
      },
      flinkStandalone: {
        frontend: { refreshIntervalSeconds: 2 },
        clusters: [
          {
            name: 'local',
            kubeconfig: { path: options.kubeconfigPath },
            allowedNamespaces: options.allowedNamespaces,
          },
        ],
      },
    };
    fs.writeFileSync(configFile, stringify(config));
    return new ExampleApp(options, appUrl, backendUrl, configFile);
  }

  private start(
    workspace: 'backend' | 'app',
    env: NodeJS.ProcessEnv = {},
  ): ManagedProcess {
    const configArgs = [
      '--config',
      path.join(ROOT, 'app-config.yaml'),
      '--config',
      this.configFile,
    ];
    // The backend as `backstage-cli package start` runs it (the same entry and TypeScript loader),
    // minus its file watcher: a restart on a file change would lose the test's running tasks.
    const [command, args] =
      workspace === 'backend'
        ? [
            process.execPath,
            [
              '--enable-source-maps',
              '--require',
              path.join(
                ROOT,
                'node_modules/@backstage/cli-node/config/nodeTransform.cjs',
              ),
              'src/index.ts',
              ...configArgs,
            ],
          ]
        : [
            path.join(ROOT, 'node_modules/.bin/backstage-cli'),
            ['package', 'start', ...configArgs],
          ];
    return ManagedProcess.start({
      name: workspace,
      command,
      args,
      cwd: path.join(ROOT, 'packages', workspace),
      logFile: path.join(this.options.workDir, `${workspace}.log`),
      env: {
        // Jest runs with NODE_ENV=test; the app's bundler knows no browserslist for "test".
        NODE_ENV: 'development',
        BROWSER: 'none',
        ESBK_TSCONFIG_PATH: path.join(ROOT, 'tsconfig.json'),
        FLINK_STANDALONE_KUBECONFIG: this.options.kubeconfigPath,
        FLINK_STANDALONE_SCAFFOLDED_CATALOG_DIR: path.join(
          this.options.workDir,
          'scaffolded-catalog',
        ),
        ...env,
      },
    });
  }

  /** Starts (or restarts) the backend, signing guests in as the given catalog user. */
  async startBackend(guestUser = 'user:default/guest'): Promise<void> {
    await this.backend?.stop(10_000);
    this.backend = this.start('backend', {
      FLINK_STANDALONE_GUEST_USER: guestUser,
    });
    await this.waitUntilServed(
      this.backend,
      `${this.backendUrl}/.backstage/health/v1/readiness`,
      180_000,
    );
  }

  async startFrontend(): Promise<void> {
    this.frontend = this.start('app');
    // The first bundle takes a minute or two on 2 cores.
    await this.waitUntilServed(this.frontend, this.appUrl, 400_000);
  }

  private async waitUntilServed(
    process: ManagedProcess,
    url: string,
    timeoutMs: number,
  ) {
    try {
      await waitFor(
        `${process.name} at ${url}`,
        async () => {
          if (!process.alive) throw new FatalError(`${process.name} exited`);
          return (await fetch(url)).ok;
        },
        { timeoutMs, intervalMs: 1000 },
      );
    } catch (error) {
      throw new Error(
        `${(error as Error).message}\n--- ${process.name} log ---\n${process.logTail(60)}`,
      );
    }
  }

  /** The last lines of a process's log, without the backend's one line per HTTP request. */
  logTail(workspace: 'backend' | 'app', lines = 40): string {
    const log =
      (workspace === 'backend' ? this.backend : this.frontend)?.logTail(2000) ??
      '';
    return log
      .split('\n')
      .filter(line => !line.includes('rootHttpRouter'))
      .slice(-lines)
      .join('\n');
  }

  async stop(): Promise<void> {
    await Promise.all([
      this.frontend?.stop(10_000),
      this.backend?.stop(10_000),
    ]);
  }
}

export const newWorkDir = () =>
  fs.mkdtempSync(path.join(os.tmpdir(), 'flink-standalone-e2e-'));
