import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { apiRootPath } from '../../electron/api/operations.js';
import { bodyText, type Recording } from '../api/recorder/recording.js';

/** What the client sent, below the API root. */
export interface ReceivedRequest {
  method: string;
  path: string;
}

/** An HTTP server on 127.0.0.1 that answers every request with the recording it was given, bytes and headers as written. */
export interface ReplayServer {
  /** `http://127.0.0.1:<port>`, as a person would type the server's address. */
  origin: string;
  apiRoot: string;
  received: ReceivedRequest[];
  /** The answer to every request from now on. */
  answerWith(recording: Recording): void;
  close(): Promise<void>;
}

export async function startReplayServer(): Promise<ReplayServer> {
  let answer: Recording | null = null;
  const received: ReceivedRequest[] = [];
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://replay').pathname;
    received.push({ method: request.method ?? '', path: path.startsWith(apiRootPath) ? path.slice(apiRootPath.length) : path });
    // The body is read to its end, as a server does, before answering.
    request.resume();
    request.on('end', () => {
      if (answer === null) {
        response.writeHead(599, { 'content-type': 'text/plain' }).end('the test set no answer');
        return;
      }
      response.writeHead(answer.status, { ...answer.headers, 'content-type': answer.contentType }).end(bodyText(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    apiRoot: `${origin}${apiRootPath}`,
    received,
    answerWith(recording) {
      answer = recording;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
