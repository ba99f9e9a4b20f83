/**
 * Failures a handler can raise, each mapped to the wire in one place (http/error-mapper.ts)
 * with the status codes and texts real servers use.
 */
export type ServiceFailure =
  | { kind: 'invalid'; errors: string[] }
  | { kind: 'notFound' }
  | { kind: 'unauthenticated' }
  | { kind: 'forbidden'; message: string }
  | { kind: 'selfRegistrationDisabled' }
  | { kind: 'throttled'; message: string };

export class ServiceError extends Error {
  constructor(readonly failure: ServiceFailure) {
    super(failure.kind);
  }
}

export const invalid = (...errors: string[]) => new ServiceError({ kind: 'invalid', errors });
export const notFound = () => new ServiceError({ kind: 'notFound' });
export const unauthenticated = () => new ServiceError({ kind: 'unauthenticated' });
export const forbidden = (message = 'You are not allowed to perform this action.') => new ServiceError({ kind: 'forbidden', message });
export const selfRegistrationDisabled = () => new ServiceError({ kind: 'selfRegistrationDisabled' });
export const throttled = (message: string) => new ServiceError({ kind: 'throttled', message });

/** Collects rule violations so one answer lists them all, as real servers do. */
export class Violations {
  readonly errors: string[] = [];
  add(error: string): void {
    this.errors.push(error);
  }
  check(condition: boolean, error: string): void {
    if (!condition) this.add(error);
  }
  throwIfAny(): void {
    if (this.errors.length > 0) throw invalid(...this.errors);
  }
}
