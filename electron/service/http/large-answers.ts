import { promisify } from 'node:util';
import { brotliCompress as brotliCompressCallback, constants as zlibConstants } from 'node:zlib';
import { Negotiator } from '@fastify/accept-negotiator';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

const brotliCompress = promisify(brotliCompressCallback);

/** Above this, an answer (a week of slots is 1.5 MB) is compressed here rather than by @fastify/compress. */
const largeAnswerBytes = 64 * 1024;
/**
 * A week of slots (1.5 MB) at quality 1: 1.6 ms and 52 KB, where quality 3 takes 3.9 ms for
 * 29 KB and quality 4 6.5 ms for 25 KB. The time adds to the answer's latency; the extra
 * kilobytes cost nothing on loopback, where the service answers.
 */
const largeAnswerQuality = 1;

/** The encodings @fastify/compress offers, in its order of preference, negotiated by the same library. */
const encodings = new Negotiator({ supportedValues: ['br', 'gzip', 'deflate', 'identity'] });

// JSON of plain ASCII (the usual case) is its own Latin-1 bytes, which are quicker to write out.
const textBytes = (text: string) => Buffer.from(text, Buffer.byteLength(text) === text.length ? 'latin1' : 'utf8');

/**
 * Compresses a large answer in one piece, with its length as brotli's size hint, turning text
 * into bytes once (@fastify/compress measures it, then streams it through the compressor); an
 * answer already written as bytes (answer-bytes.ts) is compressed as it is. Runs before
 * @fastify/compress, which leaves an answer that already has an encoding alone.
 */
async function compressLargeAnswer(request: FastifyRequest, reply: FastifyReply, payload: unknown) {
  const isText = typeof payload === 'string';
  if (!(isText || Buffer.isBuffer(payload)) || payload.length < largeAnswerBytes || reply.hasHeader('content-encoding')) return payload;
  const acceptEncoding = request.headers['accept-encoding'];
  if (acceptEncoding === undefined || encodings.negotiate(acceptEncoding) !== 'br') return payload;
  const bytes = isText ? textBytes(payload) : payload;
  const compressed = await brotliCompress(bytes, {
    params: { [zlibConstants.BROTLI_PARAM_QUALITY]: largeAnswerQuality, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
  });
  const vary = reply.getHeader('vary');
  reply.header('vary', vary ? `${String(vary)}, accept-encoding` : 'accept-encoding');
  reply.header('content-encoding', 'br');
  return compressed;
}

export function registerLargeAnswerCompression(app: FastifyInstance) {
  app.addHook('onSend', compressLargeAnswer);
}
