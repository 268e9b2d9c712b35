import dgram from 'node:dgram';
import net from 'node:net';
import { KubeClient, KubeObject } from '../kubeClient';

/**
 * A stand-in for CoreDNS, for the real node's pods (no CoreDNS image can be pulled here). It
 * answers A queries for Kubernetes' DNS names from the API server:
 * - `<service>.<namespace>.svc.<domain>`: the ready endpoint addresses (kube-proxy does not run,
 *   so a ClusterIP Service answers with its endpoints too; a Service without endpoints answers with
 *   its ClusterIP, which is how pods reach the `kubernetes` Service through the node's DNAT);
 * - `<hostname>.<service>.<namespace>.svc.<domain>`: one StatefulSet pod's address;
 * - `<a-b-c-d>.<namespace>.pod.<domain>`.
 * Anything else is NXDOMAIN (the machine has no upstream resolver to forward to).
 */

export const CLUSTER_DOMAIN = 'cluster.local';
const TTL_SECONDS = 5;

const TYPE_A = 1;
const CLASS_IN = 1;
const RCODE_NXDOMAIN = 3;
const RCODE_FORMERR = 1;

/** What a name resolves to: addresses, or `undefined` for a name that does not exist. */
export type Resolution = string[] | undefined;

export interface ServiceRecords {
  clusterIp?: string;
  endpoints: { ip: string; hostname?: string }[];
}

/** How the responder reads Services and their endpoints (the API server, or a table in tests). */
export type ServiceLookup = (
  namespace: string,
  service: string,
) => Promise<ServiceRecords | undefined>;

/** Resolves one cluster name (lower case, no trailing dot). */
export async function resolveClusterName(
  name: string,
  lookup: ServiceLookup,
  domain = CLUSTER_DOMAIN,
): Promise<Resolution> {
  const suffix = `.${domain}`;
  if (!name.endsWith(suffix)) return undefined;
  const labels = name.slice(0, -suffix.length).split('.');
  const kind = labels[labels.length - 1];
  if (kind === 'pod' && labels.length === 3) {
    const ip = labels[0].replace(/-/g, '.');
    return net.isIPv4(ip) ? [ip] : undefined;
  }
  if (kind !== 'svc' || labels.length < 3 || labels.length > 4)
    return undefined;
  const [namespace, service] = [
    labels[labels.length - 2],
    labels[labels.length - 3],
  ];
  const records = await lookup(namespace, service);
  if (!records) return undefined;
  if (labels.length === 4) {
    const ips = records.endpoints
      .filter(e => e.hostname === labels[0])
      .map(e => e.ip);
    return ips.length ? ips : undefined;
  }
  if (records.endpoints.length)
    return [...new Set(records.endpoints.map(e => e.ip))];
  return records.clusterIp && records.clusterIp !== 'None'
    ? [records.clusterIp]
    : [];
}

/** Services and ready endpoints as the API server has them. */
export function apiServerLookup(client: KubeClient): ServiceLookup {
  return async (namespace, service) => {
    const svc = await client.find(
      `/api/v1/namespaces/${namespace}/services/${service}`,
    );
    if (!svc) return undefined;
    const slices = await client.list(
      `/apis/discovery.k8s.io/v1/namespaces/${namespace}/endpointslices?labelSelector=${encodeURIComponent(
        `kubernetes.io/service-name=${service}`,
      )}`,
    );
    const publishNotReady = Boolean(svc.spec?.publishNotReadyAddresses);
    const endpoints = slices.items.flatMap((slice: KubeObject) =>
      ((slice.endpoints as any[] | undefined) ?? [])
        .filter(e => publishNotReady || e.conditions?.ready !== false)
        .flatMap(e =>
          (e.addresses as string[]).map(ip => ({
            ip,
            hostname: e.hostname as string | undefined,
          })),
        ),
    );
    return { clusterIp: svc.spec?.clusterIP, endpoints };
  };
}

interface Question {
  name: string;
  type: number;
  /** The question section's bytes, echoed in the answer. */
  raw: Buffer;
}

function parseQuestion(query: Buffer): Question | undefined {
  if (query.length < 12 || query.readUInt16BE(4) !== 1) return undefined;
  const labels: string[] = [];
  let offset = 12;
  while (offset < query.length) {
    const length = query[offset];
    if (length === 0) break;
    if (length > 63) return undefined; // compression is not used in questions
    labels.push(
      query.subarray(offset + 1, offset + 1 + length).toString('latin1'),
    );
    offset += length + 1;
  }
  const end = offset + 5;
  if (end > query.length) return undefined;
  return {
    name: labels.join('.').toLowerCase(),
    type: query.readUInt16BE(offset + 1),
    raw: query.subarray(12, end),
  };
}

function header(
  id: number,
  flags: number,
  questions: number,
  answers: number,
): Buffer {
  const h = Buffer.alloc(12);
  h.writeUInt16BE(id, 0);
  h.writeUInt16BE(flags, 2);
  h.writeUInt16BE(questions, 4);
  h.writeUInt16BE(answers, 6);
  return h;
}

function aRecord(ip: string): Buffer {
  const record = Buffer.alloc(16);
  record.writeUInt16BE(0xc00c, 0); // the name: a pointer to the question's
  record.writeUInt16BE(TYPE_A, 2);
  record.writeUInt16BE(CLASS_IN, 4);
  record.writeUInt32BE(TTL_SECONDS, 6);
  record.writeUInt16BE(4, 10);
  ip.split('.').forEach((octet, i) => record.writeUInt8(Number(octet), 12 + i));
  return record;
}

/** The answer to one DNS query message. */
export async function answerQuery(
  query: Buffer,
  lookup: ServiceLookup,
): Promise<Buffer> {
  const id = query.length >= 2 ? query.readUInt16BE(0) : 0;
  const recursionDesired = query.length >= 3 ? query[2] & 0x01 : 0;
  const flags = (rcode: number) =>
    0x8000 | 0x0400 | (recursionDesired << 8) | 0x0080 | rcode;
  const question = parseQuestion(query);
  if (!question) return header(id, flags(RCODE_FORMERR), 0, 0);
  const ips = await resolveClusterName(question.name, lookup).catch(
    () => undefined,
  );
  if (!ips)
    return Buffer.concat([
      header(id, flags(RCODE_NXDOMAIN), 1, 0),
      question.raw,
    ]);
  // A name that exists answers other types (AAAA, …) with no records.
  const answers = question.type === TYPE_A ? ips.map(aRecord) : [];
  return Buffer.concat([
    header(id, flags(0), 1, answers.length),
    question.raw,
    ...answers,
  ]);
}

export interface ClusterDns {
  /** The port it serves on (UDP and TCP). */
  port: number;
  stop(): Promise<void>;
}

/** Serves cluster DNS on `<address>:53`, UDP and TCP, as the kubelet's `clusterDNS`. */
export async function startClusterDns(
  address: string,
  lookup: ServiceLookup,
  port = 53,
): Promise<ClusterDns> {
  const udp = dgram.createSocket('udp4');
  udp.on('message', (message, remote) => {
    void answerQuery(message, lookup).then(answer =>
      udp.send(answer, remote.port, remote.address),
    );
  });
  const tcp = net.createServer(socket => {
    let buffered = Buffer.alloc(0);
    socket.on('error', () => socket.destroy());
    socket.on('data', chunk => {
      buffered = Buffer.concat([buffered, chunk]);
      while (
        buffered.length >= 2 &&
        buffered.length >= 2 + buffered.readUInt16BE(0)
      ) {
        const message = buffered.subarray(2, 2 + buffered.readUInt16BE(0));
        buffered = buffered.subarray(2 + message.length);
        void answerQuery(message, lookup).then(answer => {
          const length = Buffer.alloc(2);
          length.writeUInt16BE(answer.length);
          socket.write(Buffer.concat([length, answer]));
        });
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    udp.once('error', reject);
    udp.bind(port, address, () => resolve());
  });
  // Port 0 (tests): TCP takes the port UDP got.
  const bound = udp.address().port;
  await new Promise<void>((resolve, reject) => {
    tcp.once('error', reject);
    tcp.listen(bound, address, () => resolve());
  });
  udp.unref();
  tcp.unref();
  return {
    port: bound,
    stop: async () => {
      await Promise.all([
        new Promise<void>(resolve => udp.close(() => resolve())),
        new Promise<void>(resolve => tcp.close(() => resolve())),
      ]);
    },
  };
}
