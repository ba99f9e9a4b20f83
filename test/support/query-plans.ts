import { CompiledQuery } from 'kysely';
import { observeStatements, type Store } from '../../electron/service/store/database.js';

/**
 * Runs `work` while recording every statement the store's connection executes (Kysely's and the
 * synchronous ones alike), so a test can count queries (no N+1) and ask SQLite how it plans them
 * (index range scans, not table scans).
 */
export async function recordQueries<T>(store: Store, work: (store: Store) => Promise<T>): Promise<{ result: T; queries: CompiledQuery[] }> {
  const executed: CompiledQuery[] = [];
  const stop = observeStatements(store, (sql, parameters) => executed.push(CompiledQuery.raw(sql, parameters)));
  try {
    return { result: await work(store), queries: executed };
  } finally {
    stop();
  }
}

/** SQLite's plan of a recorded statement, one `detail` line per step. */
export async function queryPlan(store: Store, query: CompiledQuery): Promise<string[]> {
  const { rows } = await store.executeQuery<{ detail: string }>(
    CompiledQuery.raw(`EXPLAIN QUERY PLAN ${query.sql}`, [...query.parameters]),
  );
  return rows.map((row) => row.detail);
}
