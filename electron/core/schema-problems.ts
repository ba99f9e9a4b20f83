/** What a value that does not fit a schema got wrong, member by member, in words a person can act on. */
import { KindGuard, type TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import type { FieldProblem } from '../bridge/contract.js';

/** What a member must be, to follow its name. */
function expectation(schema: TSchema, fallback: string): string {
  if (KindGuard.IsUnion(schema) && schema.anyOf.every((member) => KindGuard.IsLiteral(member))) {
    return `must be one of ${schema.anyOf.map((member) => String(member.const)).join(', ')}`;
  }
  if (KindGuard.IsInteger(schema)) {
    const { minimum, maximum } = schema;
    if (minimum !== undefined && maximum !== undefined) return `must be a whole number from ${minimum} to ${maximum}`;
    if (minimum !== undefined) return `must be a whole number of at least ${minimum}`;
    return 'must be a whole number';
  }
  if (KindGuard.IsBoolean(schema)) return 'must be true or false';
  if (KindGuard.IsArray(schema))
    return schema.maxItems === undefined ? 'must be a list' : `must be a list of at most ${schema.maxItems} entries`;
  if (KindGuard.IsObject(schema)) return 'must be an object';
  return fallback;
}

/** One problem per member that does not fit, named by its path (`notifications.released`, `favouriteResourceIds[2]`). */
export function schemaProblems(schema: TSchema, value: unknown, whole = 'request'): FieldProblem[] {
  const problems = new Map<string, FieldProblem>();
  for (const error of Value.Errors(schema, value)) {
    const segments = error.path.split('/').slice(1);
    const field =
      segments.map((segment, index) => (/^\d+$/.test(segment) ? `[${segment}]` : index === 0 ? segment : `.${segment}`)).join('') || whole;
    if (!problems.has(field)) problems.set(field, { field, problem: expectation(error.schema, error.message) });
  }
  return [...problems.values()];
}

/** `field: problem`, for logs and messages about files, where no form labels the field. */
export const problemLine = ({ field, problem }: FieldProblem) => `${field}: ${problem}`;
