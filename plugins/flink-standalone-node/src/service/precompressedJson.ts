import { constants, crc32, deflateRawSync } from 'node:zlib';

/**
 * JSON serialized once and compressed once, to be served among parts written per read (see
 * jsonBody). Its compressed form is raw deflate flushed to a byte boundary with no final block
 * (RFC 1951): a gzip answer carries it as is between the per-read parts' stored blocks, and its
 * back-references reach only into itself, since it was compressed alone.
 *
 * @public
 */
export interface PrecompressedJson {
  /** The JSON's UTF-8 bytes. */
  readonly json: Buffer;
  /** The same, as raw deflate flushed to a byte boundary, with no final block. */
  readonly deflated: Buffer;
}

/**
 * An answer's JSON in parts, in order: Buffers written per read (its times, say) and the bulk,
 * serialized and compressed once per change.
 *
 * @public
 */
export type JsonParts = ReadonlyArray<Buffer | PrecompressedJson>;

/**
 * Compresses JSON once, for every answer that carries it (see jsonBody).
 *
 * @public
 */
export function precompressJson(json: Buffer): PrecompressedJson {
  return {
    json,
    // The fastest level: on the main thread once per change of a polled status, where a CPU
    // profile under load found the default level a third of a recompute; for a status of 21
    // pods, 1.6 KB instead of 1.4, in 40 µs instead of 90.
    deflated: deflateRawSync(json, {
      level: constants.Z_BEST_SPEED,
      finishFlush: constants.Z_SYNC_FLUSH,
    }),
  };
}

const plain = (part: Buffer | PrecompressedJson) =>
  Buffer.isBuffer(part) ? part : part.json;

/** A gzip member's header: deflate, no flags, no time, OS unknown (RFC 1952). */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
/** The last deflate block: stored, final, empty. */
const FINAL_EMPTY_BLOCK = Buffer.from([1, 0, 0, 0xff, 0xff]);
/** A stored block holds at most this many bytes (its LEN is 16 bits). */
const STORED_BLOCK_MAX = 0xffff;

/** Bytes as deflate's stored (uncompressed), non-final blocks: small per-read parts need no compressing. */
function storedBlocks(bytes: Buffer): Buffer[] {
  const blocks: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += STORED_BLOCK_MAX) {
    const data = bytes.subarray(at, at + STORED_BLOCK_MAX);
    const header = Buffer.alloc(5);
    header.writeUInt16LE(data.length, 1);
    header.writeUInt16LE(~data.length & 0xffff, 3);
    blocks.push(header, data);
  }
  return blocks;
}

/**
 * The answer's bytes, in order: its JSON, or one gzip member of it (`Content-Encoding: gzip`)
 * whose precompressed parts are not compressed again and whose per-read parts are stored.
 * Browsers ask for compressed answers, and a server compressing each polled status anew would
 * spend on every read what changes only with the cluster.
 *
 * @public
 */
export function jsonBody(
  parts: JsonParts,
  encoding: 'gzip' | 'identity',
): Buffer[] {
  if (encoding === 'identity') return parts.map(plain);
  let crc = 0;
  let length = 0;
  const body: Buffer[] = [GZIP_HEADER];
  for (const part of parts) {
    const bytes = plain(part);
    crc = crc32(bytes, crc);
    length += bytes.length;
    body.push(
      ...(Buffer.isBuffer(part) ? storedBlocks(part) : [part.deflated]),
    );
  }
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE(length % 2 ** 32, 4);
  body.push(FINAL_EMPTY_BLOCK, trailer);
  return body;
}
