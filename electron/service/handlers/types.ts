import type { Static, TSchema } from '@sinclair/typebox';
import type { OperationName, Operations, PathParameterNames, pathParameters } from '../../api/operations.js';
import type { Clock } from '../clock.js';
import type { ServiceConfig } from '../config.js';
import type { SignInThrottle } from '../domain/sign-in-throttle.js';
import type { Store } from '../store/database.js';
import type { UserRow } from '../tables.js';

export interface Caller {
  user: UserRow;
  sessionToken: string;
  isAdmin: boolean;
}

type StaticOf<S> = S extends TSchema ? Static<S> : Record<string, never>;

export type PathParams<N extends OperationName> = {
  [K in PathParameterNames<Operations[N]['path']> & keyof typeof pathParameters]: Static<(typeof pathParameters)[K]>;
};

export interface OperationInput<N extends OperationName> {
  params: PathParams<N>;
  query: Operations[N] extends { query: infer Q } ? StaticOf<Q> : Record<string, never>;
  body: Operations[N] extends { body: infer B } ? StaticOf<B> : undefined;
}

export type OperationOutput<N extends OperationName> = Static<Operations[N]['response']>;

export interface LinkBuilder {
  /** An absolute link to an operation's route, built from the request's own host. */
  to<N extends OperationName>(operation: N, params: PathParams<N>, title: string): { href: string; title: string };
  /** The absolute URL of a route, for members that hold bare URLs (group permissions, users). */
  url<N extends OperationName>(operation: N, params: PathParams<N>): string;
}

export interface RequestContext<N extends OperationName> {
  store: Store;
  clock: Clock;
  config: ServiceConfig;
  links: LinkBuilder;
  /** Failed sign-ins so far, per account and per client. */
  signIns: SignInThrottle;
  /** The address the request came from. */
  client: string;
  /** Present on every operation whose auth level is not `none`. */
  caller: Operations[N]['auth'] extends 'none' ? Caller | null : Caller;
}

export type Handler<N extends OperationName> = (input: OperationInput<N>, context: RequestContext<N>) => Promise<OperationOutput<N>>;

export type HandlerMap<N extends OperationName = OperationName> = { [K in N]: Handler<K> };
