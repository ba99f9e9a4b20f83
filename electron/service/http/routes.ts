import { Type, type TSchema } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest, HTTPMethods } from 'fastify';
import { apiRootPath, operationNames, operations, pathParameterNames, pathParameters, type OperationName } from '../../api/operations.js';
import type { Clock } from '../clock.js';
import type { ServiceConfig } from '../config.js';
import type { Caller, Handler, HandlerMap, OperationInput, RequestContext } from '../handlers/types.js';
import type { Store } from '../store/database.js';
import type { SignInThrottle } from '../domain/sign-in-throttle.js';
import { answerBytes } from './answer-bytes.js';
import { messages } from './error-mapper.js';
import { linkBuilderFor } from './links.js';
import { authorise } from './session-guard.js';

export interface RouteDependencies {
  store: Store;
  clock: Clock;
  config: ServiceConfig;
  signIns: SignInThrottle;
}

const jsonType = 'application/json; charset=utf-8';

const everyMethod: HTTPMethods[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * Path segments arrive as text: integer parameters are matched as digit strings (an id below the
 * schema's minimum names nothing, so it fails here and answers 404) and converted once validated.
 */
function paramsSchema(path: string) {
  const names = pathParameterNames(path);
  if (names.length === 0) return undefined;
  return Type.Object(
    Object.fromEntries(
      names.map((name) => {
        const schema: TSchema = pathParameters[name];
        if (schema['type'] !== 'integer') return [name, schema];
        return [name, Type.String({ pattern: schema['minimum'] === 1 ? '^[1-9][0-9]{0,14}$' : '^-?[0-9]{1,15}$' })];
      }),
    ),
  );
}

function typedParams(path: string, raw: Record<string, string>) {
  return Object.fromEntries(
    pathParameterNames(path).map((name) => {
      const value = raw[name] ?? '';
      return [name, (pathParameters[name] as TSchema)['type'] === 'integer' ? Number(value) : value];
    }),
  );
}

function registerOperation<N extends OperationName>(app: FastifyInstance, name: N, handler: Handler<N>, deps: RouteDependencies) {
  const operation = operations[name];
  const params = paramsSchema(operation.path);
  // Authorised before the body is validated: an anonymous caller learns nothing about the body rules.
  const callers = new WeakMap<FastifyRequest, Caller | null>();
  app.route({
    method: operation.method,
    url: apiRootPath + operation.path,
    schema: {
      ...(params && { params }),
      ...('query' in operation && { querystring: operation.query }),
      ...('body' in operation && { body: operation.body }),
    },
    onRequest: async (request) => {
      callers.set(request, await authorise(request, operation.auth, deps));
    },
    handler: async (request: FastifyRequest, reply) => {
      const caller = callers.get(request) ?? null;
      const context = { ...deps, links: linkBuilderFor(request), caller, client: request.ip } as RequestContext<N>;
      const input = {
        params: typedParams(operation.path, (request.params ?? {}) as Record<string, string>),
        query: request.query ?? {},
        body: request.body,
      } as OperationInput<N>;
      const result = await handler(input, context);
      reply.code(operation.successStatus);
      const bytes = answerBytes(result);
      // Bytes are sent as they are, so they need the type Fastify gives the JSON it serialises.
      return bytes ? reply.type(jsonType).send(bytes) : reply.send(result);
    },
  });
}

/** Answers the way real servers do for a known path with the wrong method or a missing slash. */
function registerPathGuards(app: FastifyInstance) {
  const methodsByPath = new Map<string, Set<string>>();
  for (const name of operationNames) {
    const { path, method } = operations[name];
    methodsByPath.set(path, (methodsByPath.get(path) ?? new Set()).add(method));
  }
  for (const [path, methods] of methodsByPath) {
    const allowed = [...methods, ...(methods.has('GET') ? ['HEAD'] : [])];
    const others = everyMethod.filter((method) => !methods.has(method));
    if (others.length > 0) {
      app.route({
        method: others,
        url: apiRootPath + path,
        handler: (_request, reply) =>
          reply
            .code(405)
            .header('allow', allowed.join(', '))
            .send({
              links: [],
              message: `HTTP method not allowed for the requested resource. Use one of these instead: ${allowed.join(', ')}`,
            }),
      });
    }
    if (path.endsWith('/')) {
      app.route({
        method: everyMethod,
        url: apiRootPath + path.slice(0, -1),
        handler: (_request, reply) =>
          reply
            .code(301)
            .header('location', apiRootPath + path)
            .send({
              links: [],
              message: `This route ends with a slash: ${apiRootPath + path}`,
            }),
      });
    }
  }
  app.setNotFoundHandler((_request, reply) => reply.code(404).send({ links: [], message: messages.notFound }));
}

export function registerOperations(app: FastifyInstance, handlers: Partial<HandlerMap>, deps: RouteDependencies) {
  for (const name of operationNames) {
    const handler = handlers[name];
    if (handler) registerOperation(app, name, handler as Handler<typeof name>, deps);
  }
  registerPathGuards(app);
}
