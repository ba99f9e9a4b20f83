import { CompiledQuery, type KyselyPlugin, type QueryId, type RootOperationNode } from 'kysely';
import type { Store } from '../../electron/service/store/database.js';

/**
 * Runs `work` on a store that records every statement it executes, so a test can count queries
 * (no N+1) and ask SQLite how it plans them (index range scans, not table scans).
 */
export async function recordQueries<T>(store: Store, work: (store: Store) => Promise<T>): Promise<{ result: T; queries: CompiledQuery[] }> {
  // Subquery builders pass through transformQuery too; only statements that return a result ran.
  const built = new Map<QueryId, RootOperationNode>();
  const executed: CompiledQuery[] = [];
  const recorder: KyselyPlugin = {
    transformQuery({ node, queryId }) {
      built.set(queryId, node);
      return node;
    },
    async transformResult({ result, queryId }) {
      const node = built.get(queryId);
      if (node) executed.push(store.getExecutor().compileQuery(node, queryId));
      return result;
    },
  };
  const result = await work(store.withPlugin(recorder));
  return { result, queries: executed };
}

/** SQLite's plan of a recorded statement, one `detail` line per step. */
export async function queryPlan(store: Store, query: CompiledQuery): Promise<string[]> {
  const { rows } = await store.executeQuery<{ detail: string }>(CompiledQuery.raw(`EXPLAIN QUERY PLAN ${query.sql}`, [...query.parameters]));
  return rows.map((row) => row.detail);
}
