import { Type, type StringOptions, type TProperties, type TSchema } from '@sinclair/typebox';

/** Wire formats the schemas tag, so validation (service) and liberal decoding (client) treat them alike. */
export const WireFormat = {
  dateTime: 'wire-date-time',
  humanDuration: 'human-duration',
  hexColor: 'hex-color',
} as const;

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** The JSON Schema extension keyword that marks a response member the app cannot work without. */
const neededKeyword = 'x-needed-by-client';

/**
 * Marks a response member the client requires. Real servers leave members out or send null for
 * whatever nobody filled in, so the client reads every other member liberally (server-facts D);
 * only a needed member that is missing or unreadable makes an answer unusable.
 */
export const Needed = <T extends TSchema>(schema: T): T => ({ ...schema, [neededKeyword]: true });

export const isNeeded = (schema: TSchema): boolean => schema[neededKeyword] === true;

export const Id = Type.Integer({ minimum: 1 });
export const WireDateTime = Type.String({ format: WireFormat.dateTime });
export const OptionalDateTime = Nullable(WireDateTime);
export const HumanDuration = Type.String({ format: WireFormat.humanDuration });
export const HexColor = Type.String({ format: WireFormat.hexColor });
export const Text = (maxLength = 4000, options: StringOptions = {}) => Type.String({ maxLength, ...options });

export const Link = Type.Object({ href: Type.String(), title: Type.String() });

/** Every response object, nested ones included, carries these two members. */
export const envelopeMembers = {
  links: Type.Array(Link),
  message: Nullable(Type.String()),
};

export const Wire = <T extends TProperties>(properties: T) => Type.Object({ ...properties, ...envelopeMembers });

export const DeletionEnvelope = Wire({});

export const ErrorBody = Type.Object({
  links: Type.Array(Link),
  message: Type.String(),
  errors: Type.Optional(Type.Array(Type.String())),
});

export const CustomAttributeValue = Wire({
  id: Needed(Id),
  label: Type.String(),
  value: Nullable(Type.String()),
});

export const CustomAttributeInput = Type.Object({
  attributeId: Id,
  attributeValue: Nullable(Text()),
});

export const CustomAttributeInputs = Type.Array(CustomAttributeInput, { maxItems: 200 });

export const IdList = Type.Array(Id, { maxItems: 10_000 });
