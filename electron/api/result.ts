/**
 * What an operation that can fail returns, the one shape used on every layer: the client's and the
 * session's answers, the bridge's commands, the service's rules, the notifiers. It lives here, in the
 * lowest layer, so every other may import it; the bridge contract re-exports it (as a type) for the
 * renderer.
 */
export type Result<T, E> = { ok: true; value: T } | { ok: false; error: E };
