import type { FastifyInstance } from 'fastify';

/**
 * Closing waits for Node's `server.close()`, which ends only the connections idle when it begins.
 * A keep-alive connection still answering a request goes idle afterwards and would hold the close
 * open for the whole keep-alive timeout (72 s in Fastify; fastify/fastify#7044): the app quitting,
 * or a test tearing its service down, would wait that long for a socket nobody uses.
 *
 * So once closing has begun, every answer says `Connection: close`, and Node ends its socket as
 * soon as it is sent; the client is told not to send another request on it. An answer that left
 * before the close began (still being compressed, say) can no longer say so: its connection is
 * given the shortest keep-alive Node allows instead.
 */
export function registerPromptClose(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    app.server.keepAliveTimeout = 1;
    done();
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });
}
