/**
 * Every argument that crosses from the renderer is untrusted: it is checked against the
 * command's schema in bridge/contract.ts before the core sees it, and unknown members are dropped so the
 * core receives exactly the declared shape.
 */
import { Value } from '@sinclair/typebox/value';
import {
  commandRequests,
  type BridgeResult,
  type CommandHandlers,
  type CommandName,
  type CommandRequest,
  type FieldProblem,
} from '../../bridge/contract.js';
import { failure, invalidInput } from '../errors.js';
import { schemaProblems } from '../schema-problems.js';

const maxReportedErrors = 10;

export function isCommandName(name: unknown): name is CommandName {
  return typeof name === 'string' && Object.hasOwn(commandRequests, name);
}

export function validateCommandRequest<C extends CommandName>(name: C, request: unknown): BridgeResult<CommandRequest<C>> {
  const schema = commandRequests[name];
  if (schema === null) {
    // Commands without a request are invoked with nothing; IPC may deliver that as null.
    if (request === undefined || request === null) return { ok: true, value: undefined as CommandRequest<C> };
    return invalidRequest(name, ['This command takes no request.']);
  }
  if (!Value.Check(schema, request)) {
    const errors = [...Value.Errors(schema, request)].slice(0, maxReportedErrors).map((error) => `${error.path || '/'}: ${error.message}`);
    return invalidRequest(name, errors, schemaProblems(schema, request).slice(0, maxReportedErrors));
  }
  return { ok: true, value: Value.Clean(schema, Value.Clone(request)) as CommandRequest<C> };
}

/** What a refused request was meant to do, where a person may see the refusal (a form's values out of range). */
const requestPurposes: Partial<Record<CommandName, string>> = { setSettings: 'The settings change is not valid.' };

/** `errors` are for the log; `fields` let a form name what it refused the way it labels it. */
function invalidRequest<T>(name: CommandName, errors: string[], fields: FieldProblem[] = []): BridgeResult<T> {
  return failure({
    ...invalidInput(requestPurposes[name] ?? `The request for ${name} is not valid.`),
    errors,
    ...(fields.length > 0 && { fields }),
  });
}

/** What a frame that is not the app's own page gets instead of an answer. */
export const foreignSenderRefusal = {
  ok: false,
  error: { kind: 'forbidden', message: 'Only the Perch window may use this command.' },
} as const satisfies BridgeResult<never>;

/** Validates the request, then runs the command; a bad request never reaches the core. */
export async function dispatchCommand(handlers: CommandHandlers, name: CommandName, request: unknown): Promise<unknown> {
  const checked = validateCommandRequest(name, request);
  if (!checked.ok) return checked;
  // The union of handlers cannot be called with a union of requests; the check above pairs them.
  const handler = handlers[name] as (request: CommandRequest<typeof name>) => Promise<unknown>;
  return handler(checked.value);
}
