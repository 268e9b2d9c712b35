/**
 * The benchmark's pages, polling, as wrk (Debian's package; C, one thread on epoll, no garbage
 * collector) in a process of its own: an instrument whose own delays stay out of the figures.
 * The Node clients it replaced (a worker thread of the backend's process) measured their own
 * event loop's delay at 4 ms p99, and each of their GC pauses showed as the route's latency.
 *
 * Each of `clients` connections is an open entity page: it asks for a random entity of
 * `entities`, waits a random 0.5–1.5 × `pollMs` (`pollMs` on average; pages out of step, as
 * independent pages are) and asks again; `pollMs` 0 asks again at once (flat out). Latency is
 * wrk's: from writing the request to the answer's last byte. Each request asks for a compressed
 * answer as Chromium does (wrk counts the bytes; it does not decode them).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LatencySummary, RouteRequest } from './latency';

/** What Chromium sends with every request: the encodings it decodes. */
export const BROWSER_ACCEPT_ENCODING = 'gzip, deflate, br, zstd';

/** Entity pages polling a route. */
export interface PollTask {
  url: string;
  authorization: string;
  request: RouteRequest;
  entities: string[];
  clients: number;
  /** 0: flat out. */
  pollMs: number;
  seconds: number;
}

/** A Lua string literal: JSON's escapes of an ASCII string are Lua's. */
const lua = (text: string) => {
  if (!/^[\x20-\x7e]*$/.test(text))
    throw new Error(`not printable ASCII: ${text.slice(0, 80)}`);
  return JSON.stringify(text);
};

/** The wrk script: random entity per request, the pages' pacing, the figures as one JSON line. */
export function wrkScript(task: PollTask): string {
  const { request } = task;
  return `
local names = { ${task.entities.map(lua).join(', ')} }
local headers = { authorization = ${lua(task.authorization)}, ["accept-encoding"] = ${lua(BROWSER_ACCEPT_ENCODING)} ${request.body ? ', ["content-type"] = "application/json"' : ''} }
local method, path, body = ${lua(request.method)}, ${lua(request.path)}, ${request.body ? lua(request.body) : 'nil'}
local pollMs = ${task.pollMs}

function init(args)
  math.randomseed(os.time())
end

function request()
  local name = names[math.random(#names)]
  local requestBody = body and (body:gsub("{name}", name)) or nil
  return wrk.format(method, (path:gsub("{name}", name)), headers, requestBody)
end

if pollMs > 0 then
  function delay()
    return math.random(math.floor(pollMs / 2), math.floor(pollMs * 3 / 2))
  end
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'BENCH_WRK {"requests":%d,"bytes":%d,"durationUs":%d,"notOk":%d,"connect":%d,"read":%d,"write":%d,"timeout":%d,"p50Us":%d,"p99Us":%d,"maxUs":%d}\\n',
    summary.requests, summary.bytes, summary.duration, e.status, e.connect, e.read, e.write, e.timeout,
    latency:percentile(50), latency:percentile(99), latency.max))
end
`;
}

interface WrkFigures {
  requests: number;
  /** Read from the server: answers with their headers. */
  bytes: number;
  durationUs: number;
  notOk: number;
  connect: number;
  read: number;
  write: number;
  timeout: number;
  p50Us: number;
  p99Us: number;
  maxUs: number;
}

/** The poll task run by wrk: its process (to place it on cores) and its figures when done. */
export function startWrk(task: PollTask): {
  pid: number;
  result: Promise<LatencySummary>;
} {
  const dir = mkdtempSync(join(tmpdir(), 'bench-wrk-'));
  const script = join(dir, 'pages.lua');
  writeFileSync(script, wrkScript(task));
  const wrk = spawn(
    'wrk',
    [
      '--threads=1',
      `--connections=${task.clients}`,
      `--duration=${task.seconds}s`,
      // The peer answers in seconds under this load: a slow answer is a latency, not an error.
      '--timeout=60s',
      `--script=${script}`,
      task.url,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  wrk.stdout.on('data', chunk => (output += chunk));
  wrk.stderr.on('data', chunk => (output += chunk));
  const result = new Promise<LatencySummary>((resolve, reject) => {
    wrk.once('error', reject);
    wrk.once('close', code => {
      rmSync(dir, { recursive: true, force: true });
      const line = output.split('\n').find(l => l.startsWith('BENCH_WRK '));
      if (code !== 0 || !line) {
        reject(new Error(`wrk exited ${code}: ${output.slice(-2000)}`));
        return;
      }
      const f: WrkFigures = JSON.parse(line.slice('BENCH_WRK '.length));
      const errors = f.notOk + f.connect + f.read + f.write + f.timeout;
      resolve({
        samples: f.requests,
        errors,
        firstError: errors
          ? `wrk: ${f.notOk} answers not 2xx/3xx, ${f.connect} connect, ${f.read} read, ${f.write} write errors, ${f.timeout} timeouts`
          : undefined,
        p50: f.p50Us / 1000,
        p99: f.p99Us / 1000,
        max: f.maxUs / 1000,
        perSecond: f.requests / (f.durationUs / 1e6),
        bytesPerAnswer: f.bytes / f.requests,
      });
    });
  });
  return { pid: wrk.pid!, result };
}
