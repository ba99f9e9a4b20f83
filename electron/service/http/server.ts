import type { Duplex } from 'node:stream';
import { constants as zlibConstants } from 'node:zlib';
import compress from '@fastify/compress';
import Fastify, { type FastifyInstance } from 'fastify';
import { formatValidators } from '../../api/formats.js';
import type { Clock } from '../clock.js';
import type { ServiceConfig } from '../config.js';
import { rememberZoneOffsets } from '../domain/zone-offsets.js';
import { ServiceError } from '../errors.js';
import { handlers } from '../handlers/index.js';
import type { Store } from '../store/database.js';
import { createSignInThrottle } from '../domain/sign-in-throttle.js';
import { registerDocumentation } from './documentation.js';
import { registerHostGuard } from './host-guard.js';
import { replyWithError } from './error-mapper.js';
import { registerLargeAnswerCompression } from './large-answers.js';
import { registerPromptClose } from './prompt-close.js';
import { registerOperations } from './routes.js';

export interface ServiceOptions {
  store: Store;
  clock: Clock;
  config: ServiceConfig;
  logger?: boolean;
}

/** Bodies are JSON whatever the Content-Type says, as on real servers; an empty body is no body. */
function parseJsonBody(_request: unknown, body: string, done: (error: Error | null, value?: unknown) => void) {
  if (body.trim() === '') return done(null, undefined);
  try {
    done(null, JSON.parse(body));
  } catch {
    done(Object.assign(new SyntaxError('The request body is not valid JSON'), { statusCode: 400 }));
  }
}

/** Node's parser refused the request itself: answered on the socket, in the envelope, then closed. */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex) {
  if (!socket.writable) return socket.destroy();
  const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
  const body = JSON.stringify({
    links: [],
    message: tooLarge ? 'The request line and headers are too large.' : 'The request could not be read as HTTP.',
  });
  socket.end(
    `HTTP/1.1 ${tooLarge ? '431 Request Header Fields Too Large' : '400 Bad Request'}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

export async function createServer(options: ServiceOptions): Promise<FastifyInstance> {
  rememberZoneOffsets();
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: 1024 * 1024,
    // No type coercion: JSON bodies carry real types, and coercion would turn a null into 0 or "".
    ajv: { customOptions: { allErrors: true, coerceTypes: false, formats: formatValidators } },
    // Never log secrets: bodies and session headers are not part of request logs.
    disableRequestLogging: true,
    // The router's own refusals (a bad percent-escape in the path) carry the spec's envelope too.
    frameworkErrors: (error, request, reply) => replyWithError(error, request, reply),
    // And so do the HTTP parser's, which come before any route (a request line or headers too large).
    clientErrorHandler: answerClientError,
  });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, parseJsonBody);
  app.setErrorHandler((error, request, reply) => replyWithError(error as ServiceError, request, reply));
  registerPromptClose(app);
  await app.register(compress, {
    global: true,
    threshold: 1024,
    encodings: ['br', 'gzip', 'deflate'],
    // Brotli's default quality (11) costs far more CPU than it saves on a loopback or LAN answer.
    brotliOptions: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 4 } },
  });
  registerLargeAnswerCompression(app);
  registerHostGuard(app);
  registerOperations(app, handlers, { ...options, signIns: createSignInThrottle() });
  registerDocumentation(app);
  return app;
}
