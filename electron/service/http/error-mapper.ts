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
    case 'selfRegistrationDisabled':
      return {
        status: 401,
        body: { links: [], message: messages.invalid, errors: [messages.selfRegistrationDisabled] },
      };
  }
}

/** `body/name must be string` → `name must be string`: members as the caller named them. */
function describeValidation(error: FastifyError): string[] {
  return (error.validation ?? []).map((issue) => {
    const where = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
    const missing = issue.params['missingProperty'];
    if (typeof missing === 'string') return `${where ? `${where}.` : ''}${missing} is missing or empty`;
    return `${where || (error.validationContext ?? 'body')} ${issue.message ?? 'is invalid'}`;
  });
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
    const reason = error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError
      ? 'The request body is not valid JSON'
      : error.message;
    return { status, body: { links: [], message: messages.invalid, errors: [reason] } };
  }
  request.log.error({ err: error }, 'request failed');
  return { status: 500, body: { links: [], message: messages.failed } };
}

export function replyWithError(error: FastifyError | ServiceError, request: FastifyRequest, reply: FastifyReply) {
  const { status, body } = toWire(error, request);
  return reply.code(status).type('application/json; charset=utf-8').send(body);
}
