import dgram from 'node:dgram';
import {
  answerQuery,
  resolveClusterName,
  ServiceLookup,
  ServiceRecords,
  startClusterDns,
} from './clusterDns';

const services: Record<string, ServiceRecords> = {
  'flink/orders': {
    clusterIp: 'None',
    endpoints: [{ ip: '10.89.0.7' }],
  },
  'flink/orders-taskmanager': {
    clusterIp: 'None',
    endpoints: [
      { ip: '10.89.0.8', hostname: 'orders-taskmanager-0' },
      { ip: '10.89.0.9', hostname: 'orders-taskmanager-1' },
    ],
  },
  'flink/orders-rest': {
    clusterIp: '10.0.0.40',
    endpoints: [{ ip: '10.89.0.7' }],
  },
  'flink/idle': { clusterIp: 'None', endpoints: [] },
  'default/kubernetes': { clusterIp: '10.0.0.1', endpoints: [] },
};
const lookup: ServiceLookup = async (namespace, service) =>
  services[`${namespace}/${service}`];

/** A DNS query message for one name and type, as a stub resolver sends it. */
function query(name: string, type = 1, id = 0x1234): Buffer {
  const labels = name
    .split('.')
    .map(label =>
      Buffer.concat([Buffer.from([label.length]), Buffer.from(label)]),
    );
  const header = Buffer.from([
    id >> 8,
    id & 0xff,
    0x01,
    0x00,
    0,
    1,
    0,
    0,
    0,
    0,
    0,
    0,
  ]);
  return Buffer.concat([header, ...labels, Buffer.from([0, 0, type, 0, 1])]);
}

function addresses(answer: Buffer): string[] {
  const count = answer.readUInt16BE(6);
  const questionEnd = answer.indexOf(0, 12) + 5;
  return Array.from({ length: count }, (_, i) => {
    const rdata = questionEnd + i * 16 + 12;
    return [...answer.subarray(rdata, rdata + 4)].join('.');
  });
}

describe('cluster DNS names', () => {
  it('answers a headless Service with its ready endpoints and a ClusterIP Service with its endpoints too', async () => {
    expect(
      await resolveClusterName('orders.flink.svc.cluster.local', lookup),
    ).toEqual(['10.89.0.7']);
    expect(
      await resolveClusterName('orders-rest.flink.svc.cluster.local', lookup),
    ).toEqual(['10.89.0.7']);
  });

  it('answers one StatefulSet pod by hostname and service', async () => {
    expect(
      await resolveClusterName(
        'orders-taskmanager-1.orders-taskmanager.flink.svc.cluster.local',
        lookup,
      ),
    ).toEqual(['10.89.0.9']);
    expect(
      await resolveClusterName(
        'orders-taskmanager-7.orders-taskmanager.flink.svc.cluster.local',
        lookup,
      ),
    ).toBeUndefined();
  });

  it("answers a Service without endpoints with its ClusterIP (the node's DNAT reaches the API server's)", async () => {
    expect(
      await resolveClusterName('kubernetes.default.svc.cluster.local', lookup),
    ).toEqual(['10.0.0.1']);
    expect(
      await resolveClusterName('idle.flink.svc.cluster.local', lookup),
    ).toEqual([]);
  });

  it('answers pod names and refuses names outside the cluster domain', async () => {
    expect(
      await resolveClusterName('10-89-0-7.flink.pod.cluster.local', lookup),
    ).toEqual(['10.89.0.7']);
    expect(
      await resolveClusterName('missing.flink.svc.cluster.local', lookup),
    ).toBeUndefined();
    expect(await resolveClusterName('orders.flink', lookup)).toBeUndefined();
    expect(await resolveClusterName('example.com', lookup)).toBeUndefined();
  });
});

describe('cluster DNS messages', () => {
  it('answers an A query with the id, the question and one record per address', async () => {
    const answer = await answerQuery(
      query('orders-taskmanager.flink.svc.cluster.local'),
      lookup,
    );
    expect(answer.readUInt16BE(0)).toBe(0x1234);
    expect(answer.readUInt16BE(2) & 0x800f).toBe(0x8000); // a response, NOERROR
    expect(addresses(answer)).toEqual(['10.89.0.8', '10.89.0.9']);
  });

  it('answers NXDOMAIN for an unknown name and no records for AAAA of a known one', async () => {
    const unknown = await answerQuery(
      query('missing.flink.svc.cluster.local'),
      lookup,
    );
    expect(unknown.readUInt16BE(2) & 0x000f).toBe(3);
    const aaaa = await answerQuery(
      query('orders.flink.svc.cluster.local', 28),
      lookup,
    );
    expect(aaaa.readUInt16BE(2) & 0x000f).toBe(0);
    expect(aaaa.readUInt16BE(6)).toBe(0);
  });

  it('serves over UDP', async () => {
    const dns = await startClusterDns('127.0.0.1', lookup, 0);
    const socket = dgram.createSocket('udp4');
    try {
      const answer = await new Promise<Buffer>(resolve => {
        socket.once('message', resolve);
        socket.send(
          query('orders.flink.svc.cluster.local'),
          dns.port,
          '127.0.0.1',
        );
      });
      expect(addresses(answer)).toEqual(['10.89.0.7']);
    } finally {
      socket.close();
      await dns.stop();
    }
  });
});
