import type { FastifyRequest } from 'fastify';
import { apiRootPath, operations, type OperationName } from '../../api/operations.js';
import type { LinkBuilder } from '../handlers/types.js';

/** Real servers build hrefs from the request's Host header; so does the local service. */
export function apiRootOf(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}${apiRootPath}`;
}

export function fillPath(path: string, params: Record<string, string | number>): string {
  return path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(String(params[name])));
}

export function linkBuilderFor(request: FastifyRequest): LinkBuilder {
  const root = apiRootOf(request);
  const url = (operation: OperationName, params: object) =>
    root + fillPath(operations[operation].path, params as Record<string, string | number>);
  return {
    url,
    to: (operation, params, title) => ({ href: url(operation, params), title }),
  };
}
