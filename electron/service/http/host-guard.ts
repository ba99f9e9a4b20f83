import type { FastifyInstance } from 'fastify';

const LOOPBACK_NAMES = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/**
 * Whether a `Host` header names this machine's loopback at the port the request arrived on. A web
 * page can reach a loopback port under a name of its own (DNS rebinding); such requests carry that
 * name, so answering only loopback names keeps pages elsewhere out.
 */
export function isOwnLoopbackHost(host: string | undefined, localPort: number | undefined): boolean {
  if (host === undefined) return false;
  const match = /^(\[[^\]]*\]|[^:]*)(?::(\d+))?$/.exec(host.trim());
  if (!match || !LOOPBACK_NAMES.test(match[1]!)) return false;
  // In-process requests (Fastify's inject) have no socket port to compare with.
  if (localPort === undefined) return true;
  return Number(match[2] ?? 80) === localPort;
}

export const foreignHostMessage = 'This service answers only at its own loopback address.';

export function registerHostGuard(app: FastifyInstance) {
  app.addHook('onRequest', async (request, reply) => {
    if (isOwnLoopbackHost(request.headers.host, request.socket.localPort)) return;
    return reply.code(403).type('application/json; charset=utf-8').send({ links: [], message: foreignHostMessage });
  });
}
