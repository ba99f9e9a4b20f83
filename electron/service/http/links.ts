import type { FastifyRequest } from 'fastify';
import { apiRootPath, operations, type OperationName } from '../../api/operations.js';
import type { LinkBuilder } from '../handlers/types.js';

/** Real servers build hrefs from the request's Host header; so does the local service. */
export function apiRootOf(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}${apiRootPath}`;
}

/** A path split at its parameters: text at even indexes, parameter names at odd ones. */
const pathParts = new Map<string, string[]>();

/** Answers carry a few links per reservation, hundreds in a list: each path is split once. */
export function fillPath(path: string, params: Record<string, string | number>): string {
  let parts = pathParts.get(path);
  if (!parts) pathParts.set(path, (parts = path.split(/:(\w+)/)));
  let filled = parts[0]!;
  for (let index = 1; index < parts.length; index += 2) filled += encodeURIComponent(String(params[parts[index]!])) + parts[index + 1]!;
  return filled;
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
