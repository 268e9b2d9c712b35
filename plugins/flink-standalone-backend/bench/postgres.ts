/**
 * The catalog's database as production runs it: PostgreSQL (Debian's package, its default
 * settings) in a process of its own, instead of the in-memory SQLite that `startTestBackend`
 * gives by default. Backstage documents SQLite for development only; and it runs in the backend's
 * process, its queries synchronous on the event loop that status requests wait for.
 *
 * A throwaway cluster: `initdb` into a temporary directory, the server on a free loopback port
 * with trust authentication, removed when stopped. PostgreSQL refuses to run as root, so it runs
 * as the package's `postgres` user.
 */
import { execFileSync } from 'node:child_process';
import {
  chownSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
} from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import {
  FatalError,
  freePorts,
  ManagedProcess,
  removeWorkDir,
  waitFor,
} from '@flink-standalone/testenv';
import type { CountedProcess } from './cpuUsage';

/** Where Debian's package puts the server's programs (not on PATH): the newest version. */
function serverBinDir(): string {
  try {
    return dirname(
      realpathSync(
        execFileSync('sh', ['-c', 'command -v postgres'], {
          encoding: 'utf8',
        }).trim(),
      ),
    );
  } catch {
    const versions = existsSync('/usr/lib/postgresql')
      ? readdirSync('/usr/lib/postgresql')
          .filter(v => existsSync(`/usr/lib/postgresql/${v}/bin/postgres`))
          .sort((a, b) => Number(b) - Number(a))
      : [];
    if (versions.length === 0) {
      throw new Error(
        "PostgreSQL's server is not installed: run scripts/ensure-bench-tools.sh (Debian's postgresql package)",
      );
    }
    return `/usr/lib/postgresql/${versions[0]}/bin`;
  }
}

export interface Postgres {
  /** `backend.database` for Backstage's database service. */
  backendDatabase: Record<string, unknown>;
  version: string;
  /**
   * The server's processes now: the postmaster (counting its ended children's CPU time) and its
   * children, one per connection and its background workers.
   */
  processes(): CountedProcess[];
  stop(): Promise<void>;
}

const NAME = 'postgres (the catalog)';

export async function startPostgres(): Promise<Postgres> {
  const bin = serverBinDir();
  const dir = mkdtempSync(join(tmpdir(), 'bench-postgres-'));
  // PostgreSQL refuses root: as root, the server runs as the package's user; else as the caller.
  const asServerUser =
    userInfo().uid === 0
      ? (() => {
          const uid = Number(execFileSync('id', ['-u', 'postgres']));
          const gid = Number(execFileSync('id', ['-g', 'postgres']));
          chownSync(dir, uid, gid);
          return [
            'setpriv',
            `--reuid=${uid}`,
            `--regid=${gid}`,
            '--init-groups',
            '--',
          ];
        })()
      : [];
  const run = (program: string, ...args: string[]) => {
    const [command, ...rest] = [...asServerUser, join(bin, program), ...args];
    return { command, args: rest };
  };
  const data = join(dir, 'data');
  const initdb = run(
    'initdb',
    '-D',
    data,
    '-U',
    'backstage',
    '-A',
    'trust',
    '-E',
    'UTF8',
    '--locale=C',
  );
  execFileSync(initdb.command, initdb.args, { stdio: 'ignore' });
  const [port] = await freePorts(1);
  const server = run(
    'postgres',
    '-D',
    data,
    '-p',
    String(port),
    '-k',
    dir,
    '-c',
    'listen_addresses=127.0.0.1',
  );
  const postmaster = ManagedProcess.start({
    name: NAME,
    ...server,
    logFile: join(dir, 'server.log'),
  });
  try {
    await waitFor(
      'PostgreSQL to accept connections',
      () => {
        if (!postmaster.alive) {
          throw new FatalError(`PostgreSQL exited: ${postmaster.logTail(10)}`);
        }
        // The server's status in its pid file: "ready" once it accepts connections.
        return readFileSync(join(data, 'postmaster.pid'), 'utf8')
          .split('\n')
          .some(line => line.trim() === 'ready');
      },
      { timeoutMs: 30_000 },
    );
  } catch (error) {
    await postmaster.stop();
    removeWorkDir(dir);
    throw error;
  }
  let stopping = false;
  // The catalog's database gone mid-run fails the catalog's reads; say why, from its log.
  void postmaster.exited.then(code => {
    if (!stopping)
      console.error(
        `[bench] ${NAME} exited (${code}) while the benchmark ran: ${postmaster.logTail(30)}`,
      );
  });
  return {
    backendDatabase: {
      client: 'pg',
      connection: { host: '127.0.0.1', port, user: 'backstage' },
    },
    version: readFileSync(join(data, 'PG_VERSION'), 'utf8').trim(),
    processes: () => [
      { name: NAME, pid: postmaster.pid, endedChildren: true },
      ...childrenOf(postmaster.pid).map(pid => ({ name: NAME, pid })),
    ],
    async stop() {
      // Fast shutdown: connected clients are disconnected (SIGTERM would wait for them).
      stopping = true;
      postmaster.signal('SIGINT');
      const timer = setTimeout(() => postmaster.signal('SIGKILL'), 10_000);
      await postmaster.exited;
      clearTimeout(timer);
      removeWorkDir(dir);
    },
  };
}

function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}
