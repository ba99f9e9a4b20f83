import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError, type ServiceFailure } from '../errors.js';

export const messages = {
  notFound: 'The requested resource was not found',
  invalid: 'There were errors processing your request',
  unauthenticated: 'You must be authenticated in order to access this service.',
  selfRegistrationDisabled: 'allow.self.registration is not enabled for the API',
  failed: 'The service could not process the request',
} as const;

interface WireError {
  status: number;
  body: { links: never[]; message: string; errors?: string[] };
}

export function failureToWire(failure: ServiceFailure): WireError {
  switch (failure.kind) {
    case 'invalid':
      return { status: 400, body: { links: [], message: messages.invalid, errors: failure.errors } };
    case 'notFound':
      return { status: 404, body: { links: [], message: messages.notFound } };
    case 'unauthenticated':
      return { status: 401, body: { links: [], message: messages.unauthenticated } };
    case 'forbidden':
      return { status: 403, body: { links: [], message: failure.message } };
    case 'throttled':
      return { status: 429, body: { links: [], message: failure.message } };
    case 'selfRegistrationDisabled':
      return {
        status: 401,
        body: { links: [], message: messages.invalid, errors: [messages.selfRegistrationDisabled] },
      };
  }
}

const memberOf = (instancePath: string) => instancePath.replace(/^\//, '').replaceAll('/', '.');

/**
 * AJV's findings as `<member> <problem>` lines. A failed union (nullable members) reports every
 * branch; only the most telling finding per member is kept.
 */
function describeValidation(error: FastifyError): string[] {
  const byMember = new Map<string, string[]>();
  for (const issue of error.validation ?? []) {
    const missing = issue.params['missingProperty'];
    const member = memberOf(issue.instancePath);
    const line =
      typeof missing === 'string'
        ? `${member ? `${member}.` : ''}${missing} is missing or empty`
        : `${member || (error.validationContext ?? 'body')} ${issue.message ?? 'is invalid'}`;
    const key = typeof missing === 'string' ? line : member;
    const lines = byMember.get(key) ?? [];
    const generic = ['anyOf', 'type', 'const'].includes(issue.keyword);
    if (!generic) byMember.set(key, [...lines.filter((known) => !known.startsWith('\u0000')), line]);
    else if (lines.length === 0) byMember.set(key, [`\u0000${line}`]);
  }
  return [...byMember.values()].map((lines) => lines[0]!.replace(/^\u0000/, ''));
}

function toWire(error: FastifyError | ServiceError, request: FastifyRequest): WireError {
  if (error instanceof ServiceError) return failureToWire(error.failure);
  if (error.validation) {
    // An id in the path that is not an id names nothing that exists.
    if (error.validationContext === 'params') return failureToWire({ kind: 'notFound' });
    return failureToWire({ kind: 'invalid', errors: describeValidation(error) });
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    const reason =
      error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError ? 'The request body is not valid JSON' : error.message;
    return { status, body: { links: [], message: messages.invalid, errors: [reason] } };
  }
  request.log.error({ err: error }, 'request failed');
  return { status: 500, body: { links: [], message: messages.failed } };
}

export function replyWithError(error: FastifyError | ServiceError, request: FastifyRequest, reply: FastifyReply) {
  const { status, body } = toWire(error, request);
  return reply.code(status).type('application/json; charset=utf-8').send(body);
}
