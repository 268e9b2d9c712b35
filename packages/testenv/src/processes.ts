import { ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import readline from 'node:readline';

export interface ProcessSpec {
  name: string;
  command: string;
  args: string[];
  /** Where its output goes (appended). */
  logFile?: string;
  /** Each line of its output, as it comes (for a console); with a log file, it gets them too. */
  onLine?: (line: string) => void;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

/** A child process in its own process group, with its output in a log file or to a callback. */
export class ManagedProcess {
  readonly exited: Promise<number | null>;
  private exitCode: number | null | undefined = undefined;

  private constructor(
    readonly spec: ProcessSpec,
    private readonly child: ChildProcess,
  ) {
    this.exited = new Promise(resolve => {
      child.once('exit', (code, signal) => {
        this.exitCode = code ?? (signal ? -1 : null);
        resolve(this.exitCode);
      });
      child.once('error', () => {
        this.exitCode = -1;
        resolve(-1);
      });
    });
  }

  static start(spec: ProcessSpec): ManagedProcess {
    const { logFile, onLine } = spec;
    const out = logFile && !onLine ? fs.openSync(logFile, 'a') : 'pipe';
    // Detached: Ctrl-C reaches only the owner, which then stops the plane in order.
    const child = spawn(spec.command, spec.args, {
      cwd: spec.cwd,
      env: { ...process.env, ...spec.env },
      stdio: ['ignore', out, out],
      detached: true,
    });
    if (typeof out === 'number') fs.closeSync(out);
    if (onLine) {
      const log = logFile
        ? fs.createWriteStream(logFile, { flags: 'a' })
        : undefined;
      for (const stream of [child.stdout!, child.stderr!]) {
        readline.createInterface({ input: stream }).on('line', line => {
          log?.write(`${line}\n`);
          onLine(line);
        });
      }
    }
    child.unref();
    return new ManagedProcess(spec, child);
  }

  get name(): string {
    return this.spec.name;
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  get alive(): boolean {
    return this.exitCode === undefined && this.pid > 0;
  }

  /** Sends a signal to the whole process group, synchronously (safe in an 'exit' handler). */
  signal(signal: NodeJS.Signals): void {
    if (!this.alive) return;
    try {
      process.kill(-this.pid, signal);
    } catch {
      // already gone
    }
  }

  /** SIGTERM, then SIGKILL after graceMs. */
  async stop(graceMs = 5000): Promise<void> {
    if (!this.alive) return;
    this.signal('SIGTERM');
    const timer = setTimeout(() => this.signal('SIGKILL'), graceMs);
    await this.exited;
    clearTimeout(timer);
  }

  /** SIGKILL, and wait for the exit. */
  async kill(): Promise<void> {
    if (!this.alive) return;
    this.signal('SIGKILL');
    // The child is unref'd: a pending timer keeps Node alive until its exit event arrives.
    const keepAlive = setInterval(() => {}, 1000);
    await this.exited;
    clearInterval(keepAlive);
  }

  logTail(lines = 40): string {
    if (!this.spec.logFile) return '';
    try {
      return fs
        .readFileSync(this.spec.logFile, 'utf8')
        .split('\n')
        .slice(-lines)
        .join('\n');
    } catch {
      return '';
    }
  }
}

/** Whether a process with this pid exists. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Removes a work folder unless FLINK_STANDALONE_KEEP_WORKDIR is set (to read the logs). */
export function removeWorkDir(dir: string): void {
  if (process.env.FLINK_STANDALONE_KEEP_WORKDIR) return;
  fs.rmSync(dir, { recursive: true, force: true });
}

/** Synchronous cleanups run when the owning Node process exits or is interrupted. */
type Cleanup = () => void;
const cleanups = new Set<Cleanup>();
let handlersInstalled = false;

function runCleanups(): void {
  for (const cleanup of [...cleanups]) {
    try {
      cleanup();
    } catch {
      // best effort: the process is going away
    }
  }
  cleanups.clear();
}

function onSignal(signal: NodeJS.Signals): void {
  runCleanups();
  process.exit(signal === 'SIGINT' ? 130 : 143);
}

function installHandlers(): void {
  if (handlersInstalled) return;
  handlersInstalled = true;
  process.on('exit', runCleanups);
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  process.once('SIGHUP', onSignal);
}

/**
 * For a caller that handles SIGINT/SIGTERM itself (the CLI stops gracefully): drops the
 * harness's signal handlers and leaves other listeners (e.g. tsx's signal relay) in place.
 */
export function handleSignalsYourself(): void {
  installHandlers();
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
}

/** Registers a cleanup for process exit; returns a function that unregisters it. */
export function onProcessExit(cleanup: Cleanup): () => void {
  installHandlers();
  cleanups.add(cleanup);
  return () => {
    cleanups.delete(cleanup);
  };
}

/** Thrown from a waitFor() check to stop waiting at once (e.g. the process died). */
export class FatalError extends Error {}

/**
 * Errors no retry can cure: a bug in the check (TypeError and kin), a failed assertion, or a
 * request the API server judged malformed or invalid (400, 422).
 */
export function isUnexpectedError(error: unknown): boolean {
  if (
    error instanceof TypeError ||
    error instanceof ReferenceError ||
    error instanceof SyntaxError ||
    error instanceof RangeError
  ) {
    return true;
  }
  // jest's expect() throws errors that carry the matcher's result.
  if (typeof error === 'object' && error !== null && 'matcherResult' in error) {
    return true;
  }
  const status = (error as { status?: unknown } | null)?.status;
  return (
    error instanceof Error &&
    error.name === 'KubeApiError' &&
    (status === 400 || status === 422)
  );
}

/** What a check returns while the condition does not hold yet. */
type NotYet = undefined | null | false | 0 | '';

/**
 * Polls until check() returns a value that says the condition holds: anything truthy. `0`, `''`,
 * `null`, `false` and `undefined` mean "not yet" (a count of 0 or an empty answer is no
 * success). Errors on the way (a 404 before an object exists, a refused connection while a
 * server starts) are retried and the last one is named on timeout; a `FatalError` or an error
 * `isUnexpectedError` (override with `retryOn`) is thrown at once instead of waiting it out.
 */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | NotYet> | T | NotYet,
  {
    timeoutMs = 30_000,
    intervalMs = 200,
    retryOn = (error: unknown) => !isUnexpectedError(error),
  }: {
    timeoutMs?: number;
    intervalMs?: number;
    retryOn?: (error: unknown) => boolean;
  } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  for (;;) {
    try {
      const value = await check();
      if (value) return value as T;
      last = `last answer: ${JSON.stringify(value) ?? 'undefined'}`;
    } catch (error) {
      if (error instanceof FatalError || !retryOn(error)) throw error;
      last = `last error: ${error instanceof Error ? error.message : String(error)}`;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${what}; ${last}`,
      );
    }
    await new Promise(r => setTimeout(r, intervalMs));
  }
}
