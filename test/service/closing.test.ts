import { once } from 'node:events';
import { connect } from 'node:net';
import { describe, expect, it, onTestFinished } from 'vitest';
import { startService } from '../../electron/service/service.js';

describe('closing the service', () => {
  it('answers a request under way, ends its keep-alive connection, and is closed at once rather than after the keep-alive timeout', async () => {
    const service = await startService({ database: ':memory:' });
    const { pathname, port } = new URL(service.apiRoot);
    const socket = connect(Number(port), '127.0.0.1');
    await once(socket, 'connect');
    // Should the close hang, ending the socket lets it finish after the test has failed.
    onTestFinished(() => void socket.destroy());
    let answer = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (answer += chunk));
    const ended = once(socket, 'end');

    // The headers go first: the request is under way, waiting for its body, when the close begins.
    const body = JSON.stringify({ username: 'nobody', password: 'wrong' });
    const received = once(service.app.server, 'request');
    socket.write(
      `POST ${pathname}/Authentication/Authenticate HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: keep-alive\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`,
    );
    await received;
    const closed = service.close().then(() => 'closed' as const);
    socket.write(body);

    // Without an end of its own the close waits out Fastify's 72 s keep-alive: a second is plenty.
    const tooLong = new Promise<'still open'>((resolve) => setTimeout(() => resolve('still open'), 1_000).unref());
    expect(await Promise.race([closed, tooLong])).toBe('closed');
    await ended;
    const [head] = answer.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 200 /);
    expect(head).toMatch(/^connection: close$/im);
    expect(answer).toContain('"isAuthenticated":false');
  });
});
