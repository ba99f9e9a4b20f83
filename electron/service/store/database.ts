import SQLite from 'better-sqlite3';
import { CamelCasePlugin, Kysely, Migrator, SqliteDialect } from 'kysely';
import { migrations } from './migrations.js';
import type { Database } from './tables.js';

export type Store = Kysely<Database>;

/**
 * Kysely prepares every statement afresh; the service runs the same few hundred statements over
 * and over, so the connection keeps prepared statements by their SQL. Safe on the one connection
 * the SQLite driver serialises all queries through.
 */
function withStatementCache(connection: SQLite.Database, limit = 500): SQLite.Database {
  const prepared = new Map<string, SQLite.Statement>();
  const prepare = connection.prepare.bind(connection);
  return new Proxy(connection, {
    get(target, property, receiver) {
      if (property !== 'prepare') return Reflect.get(target, property, receiver);
      return (sql: string) => {
        let statement = prepared.get(sql);
        if (!statement) {
          if (prepared.size >= limit) prepared.delete(prepared.keys().next().value!);
          statement = prepare(sql);
          prepared.set(sql, statement);
        }
        return statement;
      };
    },
  });
}

/**
 * Opens (creating when new) the service's database and brings its schema up to date.
 * WAL keeps readers off the writer's back; foreign keys carry deletions to link tables.
 */
export async function openStore(file: string): Promise<Store> {
  const connection = new SQLite(file);
  connection.pragma('journal_mode = WAL');
  connection.pragma('synchronous = NORMAL');
  connection.pragma('foreign_keys = ON');
  connection.pragma('busy_timeout = 5000');
  const store = new Kysely<Database>({
    dialect: new SqliteDialect({ database: withStatementCache(connection) }),
    plugins: [new CamelCasePlugin()],
  });
  const migrator = new Migrator({
    db: store,
    provider: { getMigrations: async () => migrations },
  });
  const { error } = await migrator.migrateToLatest();
  if (error) {
    await store.destroy();
    throw error instanceof Error ? error : new Error(String(error));
  }
  return store;
}
