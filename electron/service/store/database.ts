import { chmodSync, closeSync, openSync } from 'node:fs';
import SQLite from 'libsql';
import { CamelCasePlugin, Kysely, Migrator, SqliteDialect, type Compilable, type DialectAdapter } from 'kysely';
import { migrations } from './migrations.js';
import type { Database } from '../tables.js';

export type Store = Kysely<Database>;

/** What a statement was given and how long it ran, for tests and the benchmark's query plans. */
export type StatementObserver = (sql: string, parameters: unknown[], ms: number) => void;

type Statement = Pick<SQLite.Statement, 'reader' | 'all' | 'run' | 'iterate'>;

/** Reports every execution of a statement to the connection's observers. */
function observedStatement(statement: SQLite.Statement, sql: string, observers: ReadonlySet<StatementObserver>): Statement {
  const timed =
    <R>(execute: (...parameters: unknown[]) => R) =>
    (...parameters: unknown[]): R => {
      const started = performance.now();
      const result = execute(...parameters);
      const ms = performance.now() - started;
      for (const observer of observers) observer(sql, parameters.flat(), ms);
      return result;
    };
  return {
    reader: statement.reader,
    all: timed((...parameters) => statement.all(...parameters)),
    run: timed((...parameters) => statement.run(...parameters)),
    iterate: timed((...parameters) => statement.iterate(...parameters)),
  } as Statement;
}

/**
 * The store's one SQLite connection, for work that runs synchronously: a few plain statements
 * cost a third of what Kysely's async round trip does, and nothing can interleave with them.
 * Use it only while holding the connection (`withConnection`, `inWriteTransaction`, or inside a
 * Kysely transaction through `connectionOf`), never beside an open Kysely transaction.
 */
export class Connection {
  readonly #statements = new Map<string, SQLite.Statement>();
  readonly #columnNames = new WeakMap<SQLite.Statement, string[]>();
  readonly observers = new Set<StatementObserver>();

  constructor(readonly sqlite: SQLite.Database) {}

  /**
   * The service runs the same few hundred statements over and over, so they are prepared once,
   * by their SQL (Kysely's own statements go through here too).
   */
  #prepared(sql: string): SQLite.Statement {
    let statement = this.#statements.get(sql);
    if (!statement) {
      if (this.#statements.size >= 500) this.#statements.delete(this.#statements.keys().next().value!);
      statement = this.sqlite.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  prepare(sql: string): Statement {
    const statement = this.#prepared(sql);
    return this.observers.size ? observedStatement(statement, sql, this.observers) : statement;
  }

  // Parameters go to the driver as one array: libsql takes a lone object argument (null, a
  // Buffer) for named parameters.
  all<Row>(sql: string, ...parameters: unknown[]): Row[] {
    return this.prepare(sql).all(parameters) as Row[];
  }

  /** The first row; not the driver's own get(), whose rows carry an extra `_metadata` member in libsql. */
  get<Row>(sql: string, ...parameters: unknown[]): Row | undefined {
    return this.all<Row>(sql, ...parameters)[0];
  }

  /**
   * Rows named as the Kysely tables name them (snake_case columns in camelCase). Read as arrays
   * and named here: cheaper than the driver building each row by name, and no second pass
   * renaming them as Kysely's CamelCasePlugin makes.
   */
  records<Row>(sql: string, ...parameters: unknown[]): Row[] {
    const statement = this.#prepared(sql);
    let names = this.#columnNames.get(statement);
    if (!names) this.#columnNames.set(statement, (names = statement.columns().map((column) => camelCased(column.name))));
    statement.raw(true);
    let rows: unknown[][];
    try {
      rows = this.prepare(sql).all(parameters) as unknown[][];
    } finally {
      statement.raw(false);
    }
    return rows.map((values) => {
      const row: Record<string, unknown> = {};
      for (let index = 0; index < names.length; index += 1) row[names[index]!] = values[index];
      return row as Row;
    });
  }

  record<Row>(sql: string, ...parameters: unknown[]): Row | undefined {
    return this.records<Row>(sql, ...parameters)[0];
  }

  run(sql: string, ...parameters: unknown[]): SQLite.RunResult {
    return this.prepare(sql).run(parameters);
  }

  /**
   * libsql closes the file only once every statement prepared on it has been garbage collected,
   * which an exiting process never does: the write-ahead log is folded into the database file
   * first where it can be, so the file alone holds every record once the service has stopped.
   */
  close(): void {
    try {
      this.sqlite.pragma('wal_checkpoint(TRUNCATE)');
    } catch {
      // A statement still stepping holds a lock; the log is then folded in on the next open instead.
    }
    this.sqlite.close();
  }

  /** Inserts rows of equal shape in one statement; `skipDuplicates` leaves rows already there as they are. */
  insertRows(table: string, columns: readonly string[], rows: readonly (readonly unknown[])[], skipDuplicates = false): void {
    if (rows.length === 0) return;
    const row = `(${placeholders(columns.length)})`;
    const values = rows.map(() => row).join(', ');
    this.run(
      `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${values}${skipDuplicates ? ' ON CONFLICT DO NOTHING' : ''}`,
      ...rows.flat(),
    );
  }
}

/** As Kysely's CamelCasePlugin names columns: `max_participants` is `maxParticipants`. */
const camelCased = (column: string) => column.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());

/** `?, ?, ?` for a list bound as separate parameters. */
export const placeholders = (count: number) => Array.from({ length: count }, () => '?').join(', ');

/**
 * The connection under a store, found through its dialect adapter: the store, every transaction
 * opened on it and every `withPlugin` copy share that adapter.
 */
const connections = new WeakMap<DialectAdapter, Connection>();

class ConnectedDialect extends SqliteDialect {
  constructor(private readonly connection: Connection) {
    super({ database: { prepare: (sql) => connection.prepare(sql), close: () => connection.close() } });
  }

  override createAdapter(): DialectAdapter {
    const adapter = super.createAdapter();
    connections.set(adapter, this.connection);
    return adapter;
  }
}

function connectionUnder(store: Store): Connection {
  const connection = connections.get(store.getExecutor().adapter);
  if (!connection) throw new Error('The store was not opened by openStore');
  return connection;
}

/** The connection of a Kysely transaction in progress, for synchronous work inside it. */
export function connectionOf(transaction: Store): Connection {
  if (!transaction.isTransaction) throw new Error('connectionOf needs a transaction in progress');
  return connectionUnder(transaction);
}

/** Runs synchronous reads while holding the connection, so no Kysely transaction is half done meanwhile. */
export function withConnection<T>(store: Store, work: (connection: Connection) => T): Promise<T> {
  const connection = connectionUnder(store);
  return store.connection().execute(async () => work(connection));
}

/** Synchronous work on the store's connection: directly inside a transaction, otherwise while holding it. */
export function onConnection<T>(store: Store, work: (connection: Connection) => T): Promise<T> {
  return store.isTransaction ? Promise.resolve(work(connectionUnder(store))) : withConnection(store, work);
}

/** Runs `work` as one transaction: what it checks and what it writes commit together, or nothing does. */
export function inTransaction<T>(store: Store, work: (transaction: Store) => Promise<T>): Promise<T> {
  return store.transaction().execute(work);
}

/**
 * Runs `work` as one IMMEDIATE transaction (the write lock taken up front, so a read-then-write
 * can never be refused half way) while holding the connection. It is synchronous: no other
 * request runs until it commits, which makes a check and the write it allows one atomic step.
 */
export function inWriteTransaction<T>(store: Store, work: (connection: Connection) => T): Promise<T> {
  const connection = connectionUnder(store);
  return store.connection().execute(async () => {
    connection.run('BEGIN IMMEDIATE');
    try {
      const result = work(connection);
      connection.run('COMMIT');
      return result;
    } catch (error) {
      if (connection.sqlite.inTransaction) connection.run('ROLLBACK');
      throw error;
    }
  });
}

/**
 * Runs a Kysely select on the store's connection, its rows read as `Connection.records` reads
 * them: for long lists, where Kysely's renaming pass over every row and column costs more than
 * the query.
 */
export function selectRecords<Row>(store: Store, query: Compilable<Row>): Promise<Row[]> {
  const { sql, parameters } = query.compile();
  return onConnection(store, (connection) => connection.records<Row>(sql, ...parameters));
}

/** Reports every statement the store's connection runs until the returned function is called. */
export function observeStatements(store: Store, observer: StatementObserver): () => void {
  const { observers } = connectionUnder(store);
  observers.add(observer);
  return () => observers.delete(observer);
}

/** The Kysely store over an open connection; its statements and the synchronous ones share one cache. */
export function storeOver(sqlite: SQLite.Database): Store {
  return new Kysely<Database>({ dialect: new ConnectedDialect(new Connection(sqlite)), plugins: [new CamelCasePlugin()] });
}

/**
 * Opens (creating when new) the service's database and brings its schema up to date.
 * WAL keeps readers off the writer's back; foreign keys carry deletions to link tables.
 */
export async function openStore(file: string): Promise<Store> {
  if (file !== ':memory:') {
    // Readable by the owner alone, also a file an earlier version left world-readable; SQLite
    // gives its -wal and -shm files the database file's mode.
    closeSync(openSync(file, 'a', 0o600));
    chmodSync(file, 0o600);
  }
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const store = storeOver(sqlite);
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
