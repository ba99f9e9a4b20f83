import type { FastifyInstance } from 'fastify';
import { apiRootPath, operationNames, operations, pathParameterNames, pathParameters } from '../../api/operations.js';
import { sessionHeaderNames } from '../../api/session-headers.js';
import { apiRootOf } from './links.js';

/** The OpenAPI 3.1 document, derived from the operation table (its schemas are JSON Schema). */
export function openApiDocument(serverUrl: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const name of operationNames) {
    const operation = operations[name];
    const route = operation.path.replace(/:(\w+)/g, '{$1}');
    const parameters = [
      ...pathParameterNames(operation.path).map((parameter) => ({
        name: parameter,
        in: 'path',
        required: true,
        schema: pathParameters[parameter],
      })),
      ...('query' in operation
        ? Object.entries(operation.query.properties).map(([parameter, schema]) => ({
            name: parameter,
            in: 'query',
            required: false,
            schema,
          }))
        : []),
    ];
    (paths[route] ??= {})[operation.method.toLowerCase()] = {
      operationId: name,
      summary: operation.specName,
      tags: [operation.group],
      security: operation.auth === 'none' ? [] : [{ sessionToken: [], userId: [] }],
      'x-auth': operation.auth,
      parameters,
      ...('body' in operation && {
        requestBody: { required: true, content: { 'application/json': { schema: operation.body } } },
      }),
      responses: {
        [operation.successStatus]: {
          description: operation.specName,
          content: { 'application/json': { schema: operation.response } },
        },
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Perch local reservation service', version: '2.9' },
    servers: [{ url: serverUrl }],
    components: {
      securitySchemes: {
        sessionToken: { type: 'apiKey', in: 'header', name: sessionHeaderNames.token },
        userId: { type: 'apiKey', in: 'header', name: sessionHeaderNames.userId },
      },
    },
    paths,
  };
}

const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (character) => `&#${character.charCodeAt(0)};`);

export function documentationPage(apiRoot: string): string {
  const rows = operationNames
    .map((name) => {
      const { group, specName, method, path, auth } = operations[name];
      return `<tr><td>${group}</td><td>${specName}</td><td><code>${method}</code></td><td><code>${escapeHtml(apiRoot + path)}</code></td><td>${auth}</td></tr>`;
    })
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Reservation API</title>
<style>body{font:14px system-ui,sans-serif;margin:2rem}table{border-collapse:collapse}td,th{padding:.3rem .6rem;border-bottom:1px solid #ddd;text-align:left}</style>
</head><body><h1>Reservation API</h1>
<p>${operationNames.length} operations. Secured calls send <code>${sessionHeaderNames.token}</code> and <code>${sessionHeaderNames.userId}</code> from Authenticate. Machine-readable: <a href="${escapeHtml(apiRoot)}/openapi.json">openapi.json</a>.</p>
<table><thead><tr><th>Group</th><th>Operation</th><th>Method</th><th>Route</th><th>Auth</th></tr></thead><tbody>
${rows}
</tbody></table></body></html>`;
}

export function registerDocumentation(app: FastifyInstance) {
  for (const url of [apiRootPath, `${apiRootPath}/`]) {
    app.get(url, (request, reply) => reply.type('text/html; charset=utf-8').send(documentationPage(apiRootOf(request))));
  }
  app.get(`${apiRootPath}/openapi.json`, (request) => openApiDocument(apiRootOf(request)));
}
