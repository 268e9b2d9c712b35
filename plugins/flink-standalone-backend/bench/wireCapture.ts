/**
 * The latency "at the wire": each request to the backend timed from the moment its bytes reach
 * the backend's socket to the moment the answer's last bytes leave it, from the kernel's
 * timestamps of the packets on `lo` (tcpdump). It holds everything the backend's side costs (its
 * thread's wait for a core, its event loop, the route) and none of the load generator's own
 * delays in reading the answer, which wrk's figures include: on these 2 shared cores, wrk's
 * thread waits for a core too, where a page in production runs on a machine of its own.
 *
 * On `lo` the kernel timestamps a packet as its sender hands it over, in the sender's system
 * call, whether or not tcpdump runs at that moment: tcpdump's own scheduling does not move the
 * figures, and a capture of headers costs each packet a copy of 128 bytes.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { readFile, readdir, readlink } from 'node:fs/promises';
import { setPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { summarize, type LatencySummary } from './latency';

/** A TCP packet as the capture saw it: when, between which ports, how many bytes of payload. */
export interface TcpPacket {
  atUs: number;
  sourcePort: number;
  destinationPort: number;
  payloadBytes: number;
}

const LINKTYPE_ETHERNET = 1;
const LINKTYPE_LINUX_SLL = 113;
const TCP = 6;

/** The TCP packets of a pcap file (microsecond or nanosecond timestamps, either byte order). */
export function tcpPackets(pcap: Buffer): TcpPacket[] {
  const magic = pcap.readUInt32LE(0);
  const littleEndian = magic === 0xa1b2c3d4 || magic === 0xa1b23c4d;
  if (!littleEndian && ![0xd4c3b2a1, 0x4d3cb2a1].includes(magic)) {
    throw new Error(`not a pcap file (magic ${magic.toString(16)})`);
  }
  const u32 = (at: number) =>
    littleEndian ? pcap.readUInt32LE(at) : pcap.readUInt32BE(at);
  const nanoseconds = magic === 0xa1b23c4d || magic === 0x4d3cb2a1;
  const linkType = u32(20);
  const linkHeader = { [LINKTYPE_ETHERNET]: 14, [LINKTYPE_LINUX_SLL]: 16 }[
    linkType
  ];
  if (linkHeader === undefined) {
    throw new Error(`pcap link type ${linkType} is not Ethernet or Linux SLL`);
  }
  const packets: TcpPacket[] = [];
  for (let at = 24; at + 16 <= pcap.length;) {
    const fraction = u32(at + 4);
    const atUs = u32(at) * 1e6 + (nanoseconds ? fraction / 1000 : fraction);
    const captured = u32(at + 8);
    const frame = pcap.subarray(at + 16, at + 16 + captured);
    at += 16 + captured;
    const packet = tcpOf(
      frame.subarray(linkHeader),
      frame.readUInt16BE(linkHeader - 2),
    );
    if (packet) packets.push({ atUs, ...packet });
  }
  return packets;
}

/** Ports and payload size of an IPv4 or IPv6 TCP packet (headers only are enough); else none. */
function tcpOf(
  ip: Buffer,
  etherType: number,
): Omit<TcpPacket, 'atUs'> | undefined {
  let tcpAt: number;
  let tcpAndPayload: number;
  if (etherType === 0x0800) {
    if (ip[9] !== TCP) return undefined;
    tcpAt = (ip[0] & 0x0f) * 4;
    tcpAndPayload = ip.readUInt16BE(2) - tcpAt;
  } else if (etherType === 0x86dd) {
    // Loopback traffic carries no IPv6 extension headers.
    if (ip[6] !== TCP) return undefined;
    tcpAt = 40;
    tcpAndPayload = ip.readUInt16BE(4);
  } else {
    return undefined;
  }
  return {
    sourcePort: ip.readUInt16BE(tcpAt),
    destinationPort: ip.readUInt16BE(tcpAt + 2),
    payloadBytes: tcpAndPayload - (ip[tcpAt + 12] >> 4) * 4,
  };
}

/** One request of a page at the wire: its connection's port, its first packet, its answer's last. */
export interface WireRequest {
  port: number;
  sentUs: number;
  answeredUs: number;
}

/** A request's time at the wire, in ms. */
export const wireMs = (request: WireRequest) =>
  (request.answeredUs - request.sentUs) / 1000;

/**
 * Each request at the wire: from its first packet to the last packet of its answer (the last one
 * the server sent before the connection's next request). Only connections from `clientPorts`
 * count (the load generator's, not the backend's own calls to its other plugins); an answer
 * still unfinished when the capture stopped is left out.
 */
export function wireRequests(
  packets: TcpPacket[],
  serverPort: number,
  clientPorts: Set<number>,
): WireRequest[] {
  const open = new Map<number, { sentUs: number; answeredUs?: number }>();
  const requests: WireRequest[] = [];
  const close = (port: number) => {
    const request = open.get(port);
    if (request?.answeredUs !== undefined) {
      requests.push({
        port,
        sentUs: request.sentUs,
        answeredUs: request.answeredUs,
      });
    }
  };
  for (const p of packets) {
    if (p.payloadBytes === 0) continue;
    if (p.destinationPort === serverPort && clientPorts.has(p.sourcePort)) {
      const request = open.get(p.sourcePort);
      // A request in more than one packet starts at its first.
      if (request && request.answeredUs === undefined) continue;
      close(p.sourcePort);
      open.set(p.sourcePort, { sentUs: p.atUs });
    } else if (p.sourcePort === serverPort) {
      const request = open.get(p.destinationPort);
      if (request) request.answeredUs = p.atUs;
    }
  }
  // The last answer of each connection: complete unless the capture stopped inside it, which a
  // later packet could not tell; the load generator had stopped asking by then.
  for (const port of open.keys()) close(port);
  return requests;
}

/**
 * Local ports of a process's TCP sockets, once it has at least `expected` of them (its
 * connections made), from /proc. Read with asynchronous calls, on libuv's threads: this runs on
 * the backend's main thread while the phase's first requests arrive, and the kernel takes
 * milliseconds to write out a socket table (read synchronously: about 7 ms a read in a profile, a
 * few reads a phase, at the phase's start).
 */
export async function tcpPortsOf(
  pid: number,
  expected: number,
  timeoutMs = 10_000,
): Promise<Set<number>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ports = await readTcpPortsOf(pid);
    if (ports.size >= expected) return ports;
    if (Date.now() > deadline) {
      throw new Error(
        `process ${pid} has ${ports.size} TCP sockets after ${timeoutMs} ms, expected ${expected}`,
      );
    }
    await new Promise(r => setTimeout(r, 50));
  }
}

async function readTcpPortsOf(pid: number): Promise<Set<number>> {
  const inodes = new Set<string>();
  for (const fd of await readdir(`/proc/${pid}/fd`)) {
    try {
      const socket = /^socket:\[(\d+)\]$/.exec(
        await readlink(`/proc/${pid}/fd/${fd}`),
      );
      if (socket) inodes.add(socket[1]);
    } catch {
      // Closed meanwhile.
    }
  }
  const ports = new Set<number>();
  for (const table of ['tcp', 'tcp6']) {
    for (const line of (await readFile(`/proc/${pid}/net/${table}`, 'utf8'))
      .split('\n')
      .slice(1)) {
      const fields = line.trim().split(/\s+/);
      // local_address is field 1 (hex address:port), the socket's inode field 9.
      if (fields.length > 9 && inodes.has(fields[9])) {
        ports.add(parseInt(fields[1].split(':')[1], 16));
      }
    }
  }
  return ports;
}

/** A running capture of the TCP traffic to and from `serverPort` on `lo`. */
export interface WireCapture {
  /** Stops it; each request of `clientPorts` timed at the wire, and the packets the kernel dropped. */
  stop(
    clientPorts: Set<number>,
    seconds: number,
  ): Promise<LatencySummary & { dropped: number; requests: WireRequest[] }>;
}

export async function startWireCapture(
  serverPort: number,
): Promise<WireCapture> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-wire-'));
  const file = join(dir, 'wire.pcap');
  const tcpdump = spawn(
    'tcpdump',
    [
      '-i',
      'lo',
      '-n',
      '--immediate-mode',
      '-U',
      // Headers only (link, IP, TCP with options); a buffer of 8 MiB holds a phase's packets.
      '-s',
      '128',
      '-B',
      '8192',
      '-w',
      file,
      `tcp port ${serverPort}`,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  tcpdump.stderr.on('data', chunk => (stderr += chunk));
  const exited = new Promise<number | null>(resolve =>
    tcpdump.once('close', resolve),
  );
  // Its reading of the buffer stays behind the backend on the cores; the timestamps are the kernel's.
  setPriority(tcpdump.pid!, 19);
  const deadline = Date.now() + 10_000;
  while (!stderr.includes('listening on')) {
    if (tcpdump.exitCode !== null || Date.now() > deadline) {
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`tcpdump did not start: ${stderr.trim()}`);
    }
    await new Promise(r => setTimeout(r, 20));
  }
  return {
    async stop(clientPorts, seconds) {
      tcpdump.kill('SIGINT');
      const code = await exited;
      try {
        if (code !== 0) throw new Error(`tcpdump exited ${code}: ${stderr}`);
        const dropped = Number(
          /(\d+) packets? dropped by kernel/.exec(stderr)?.[1] ?? NaN,
        );
        const requests = wireRequests(
          tcpPackets(readFileSync(file)),
          serverPort,
          clientPorts,
        );
        return {
          ...summarize(requests.map(wireMs), 0, seconds),
          dropped,
          requests,
        };
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
