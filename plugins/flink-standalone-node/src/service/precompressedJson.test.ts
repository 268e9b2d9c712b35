import { randomBytes } from 'node:crypto';
import { constants, gunzipSync, inflateRawSync } from 'node:zlib';
import { jsonBody, precompressJson } from './precompressedJson';

const status = Buffer.from(
  JSON.stringify({
    pods: Array.from({ length: 21 }, (_, i) => ({
      name: `orders-taskmanager-${i}`,
      phase: 'Running',
      claim: { name: `flink-data-orders-taskmanager-${i}`, phase: 'Bound' },
    })),
  }).slice(1),
);

describe('jsonBody', () => {
  it('gives the parts as they are without compression', () => {
    const memo = precompressJson(status);
    const head = Buffer.from('{"observedAt":"2026-12-06T19:00:00.000Z",');
    expect(jsonBody([head, memo], 'identity')).toEqual([head, status]);
  });

  it('gives one gzip member that decodes to the parts in order, the precompressed bulk not compressed again', () => {
    const memo = precompressJson(status);
    const head = Buffer.from(
      '{"status":{"observedAt":"2026-12-06T19:00:00.000Z",',
    );
    const tail = Buffer.from('}');
    const body = jsonBody([head, memo, tail], 'gzip');

    // gunzip checks the trailer too: the CRC-32 and length of what it decoded.
    const decoded = gunzipSync(Buffer.concat(body));
    expect(decoded.toString()).toBe(`${head}${status}${tail}`);
    expect(JSON.parse(decoded.toString()).status.pods).toHaveLength(21);
    expect(body).toContain(memo.deflated);
    expect(Buffer.concat(body).length).toBeLessThan(status.length / 4);
  });

  it('stores a per-read part longer than one stored block holds, and leaves out empty ones', () => {
    // Random bytes do not compress: what is stored must come back byte for byte.
    const long = randomBytes(3 * 0xffff + 17);
    const memo = precompressJson(status);
    const body = jsonBody([Buffer.alloc(0), long, memo, long], 'gzip');
    expect(gunzipSync(Buffer.concat(body))).toEqual(
      Buffer.concat([long, status, long]),
    );
  });

  it('stores the per-read parts between two precompressed ones together, in one chunk', () => {
    const memo = precompressJson(status);
    const parts = ['{"a":', '1,"b":', '2,"c":'].map(p => Buffer.from(p));
    const body = jsonBody([...parts, memo, Buffer.from('}')], 'gzip');
    // The gzip header, the three parts stored, the bulk, the brace stored, the end.
    expect(body).toHaveLength(5);
    expect(gunzipSync(Buffer.concat(body)).toString()).toBe(
      `{"a":1,"b":2,"c":${status}}`,
    );
  });

  it('keeps the bulk as raw deflate with no final block, so that stored blocks may follow it', () => {
    const { deflated } = precompressJson(status);
    expect(
      inflateRawSync(deflated, { finishFlush: constants.Z_SYNC_FLUSH }),
    ).toEqual(status);
    expect(() => inflateRawSync(deflated)).toThrow('unexpected end of file');
    // Flushed to a byte boundary: its last block is an empty stored one (LEN 0, NLEN 0xffff).
    expect([...deflated.subarray(-4)]).toEqual([0, 0, 0xff, 0xff]);
  });
});
