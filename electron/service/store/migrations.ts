import { sql, type Kysely, type Migration } from 'kysely';

/** Each migration is a list of statements; the SQLite driver prepares one statement at a time. */
const statements = (...ddl: string[]): Migration => ({
  async up(db: Kysely<unknown>) {
    for (const statement of ddl) await sql.raw(statement).execute(db);
  },
});

/** Append only: a shipped migration never changes, so data survives upgrades. */
export const migrations: Record<string, Migration> = {
  '0001-directory': statements(
    `CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)`,
    `CREATE TABLE schedules (
      id INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      timezone TEXT NOT NULL,
      is_default INTEGER NOT NULL DEFAULT 0,
      weekday_start INTEGER NOT NULL DEFAULT 0,
      days_visible INTEGER NOT NULL DEFAULT 7,
      availability_begin TEXT,
      availability_end TEXT,
      max_resources_per_reservation INTEGER,
      total_concurrent_reservations_allowed INTEGER,
      admin_group_id INTEGER REFERENCES user_groups(id) ON DELETE SET NULL
    )`,
    `CREATE TABLE schedule_periods (
      id INTEGER PRIMARY KEY,
      schedule_id INTEGER NOT NULL REFERENCES schedules(id) ON DELETE CASCADE,
      weekday INTEGER CHECK (weekday BETWEEN 0 AND 6),
      start_time TEXT NOT NULL,
      end_time TEXT NOT NULL,
      label TEXT NOT NULL DEFAULT '',
      is_reservable INTEGER NOT NULL DEFAULT 1
    )`,
    `CREATE INDEX schedule_periods_by_schedule ON schedule_periods (schedule_id, weekday, start_time)`,
    `CREATE TABLE users (
      id INTEGER PRIMARY KEY,
      user_name TEXT NOT NULL COLLATE NOCASE UNIQUE,
      email_address TEXT NOT NULL COLLATE NOCASE UNIQUE,
      first_name TEXT NOT NULL,
      last_name TEXT NOT NULL,
      password_hash TEXT NOT NULL,
      timezone TEXT NOT NULL,
      language TEXT NOT NULL DEFAULT 'en_us',
      phone TEXT NOT NULL DEFAULT '',
      organization TEXT NOT NULL DEFAULT '',
      position TEXT NOT NULL DEFAULT '',
      status_id INTEGER NOT NULL DEFAULT 1,
      date_created TEXT NOT NULL,
      last_login TEXT,
      credits REAL NOT NULL DEFAULT 0,
      reservation_color TEXT NOT NULL DEFAULT '',
      default_schedule_id INTEGER REFERENCES schedules(id) ON DELETE SET NULL,
      ics_token TEXT NOT NULL
    )`,
    `CREATE TABLE sessions (
      token TEXT PRIMARY KEY,
      user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      expires_at INTEGER NOT NULL
    )`,
    `CREATE INDEX sessions_by_expiry ON sessions (expires_at)`,
    `CREATE TABLE user_groups (
      id INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      is_default INTEGER NOT NULL DEFAULT 0,
      admin_group_id INTEGER REFERENCES user_groups(id) ON DELETE SET NULL
    )`,
    `CREATE TABLE group_roles (
      group_id INTEGER NOT NULL REFERENCES user_groups(id) ON DELETE CASCADE,
      role_id INTEGER NOT NULL,
      PRIMARY KEY (group_id, role_id)
    ) WITHOUT ROWID`,
    `CREATE TABLE group_members (
      group_id INTEGER NOT NULL REFERENCES user_groups(id) ON DELETE CASCADE,
      user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      PRIMARY KEY (group_id, user_id)
    ) WITHOUT ROWID`,
    `CREATE INDEX group_members_by_user ON group_members (user_id, group_id)`,
    `CREATE TABLE resources (
      id INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      location TEXT NOT NULL DEFAULT '',
      contact TEXT NOT NULL DEFAULT '',
      notes TEXT NOT NULL DEFAULT '',
      description TEXT NOT NULL DEFAULT '',
      min_length INTEGER,
      max_length INTEGER,
      min_notice_add INTEGER,
      min_notice_update INTEGER,
      min_notice_delete INTEGER,
      max_notice INTEGER,
      buffer_time INTEGER,
      requires_approval INTEGER NOT NULL DEFAULT 0,
      allow_multiday INTEGER NOT NULL DEFAULT 0,
      max_participants INTEGER,
      schedule_id INTEGER NOT NULL REFERENCES schedules(id),
      status_id INTEGER NOT NULL DEFAULT 1,
      status_reason_id INTEGER REFERENCES resource_status_reasons(id) ON DELETE SET NULL,
      type_id INTEGER REFERENCES resource_types(id) ON DELETE SET NULL,
      sort_order INTEGER NOT NULL DEFAULT 0,
      auto_release_minutes INTEGER,
      requires_check_in INTEGER NOT NULL DEFAULT 0,
      color TEXT NOT NULL DEFAULT '',
      credits INTEGER,
      peak_credits INTEGER,
      credit_applicability INTEGER NOT NULL DEFAULT 1,
      credits_charged_all_slots INTEGER NOT NULL DEFAULT 0,
      max_concurrent_reservations INTEGER NOT NULL DEFAULT 1,
      admin_group_id INTEGER REFERENCES user_groups(id) ON DELETE SET NULL,
      ics_token TEXT NOT NULL
    )`,
    `CREATE INDEX resources_by_schedule ON resources (schedule_id)`,
    `CREATE TABLE group_resource_permissions (
      group_id INTEGER NOT NULL REFERENCES user_groups(id) ON DELETE CASCADE,
      resource_id INTEGER NOT NULL REFERENCES resources(id) ON DELETE CASCADE,
      permission_type INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (group_id, resource_id)
    ) WITHOUT ROWID`,
    `CREATE INDEX group_permissions_by_resource ON group_resource_permissions (resource_id)`,
    `CREATE TABLE user_resource_permissions (
      user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      resource_id INTEGER NOT NULL REFERENCES resources(id) ON DELETE CASCADE,
      permission_type INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (user_id, resource_id)
    ) WITHOUT ROWID`,
    `CREATE INDEX user_permissions_by_resource ON user_resource_permissions (resource_id)`,
    `CREATE TABLE resource_groups (
      id INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      parent_id INTEGER REFERENCES resource_groups(id) ON DELETE CASCADE
    )`,
    `CREATE TABLE resource_group_members (
      group_id INTEGER NOT NULL REFERENCES resource_groups(id) ON DELETE CASCADE,
      resource_id INTEGER NOT NULL REFERENCES resources(id) ON DELETE CASCADE,
      PRIMARY KEY (group_id, resource_id)
    ) WITHOUT ROWID`,
    `CREATE INDEX resource_group_members_by_resource ON resource_group_members (resource_id)`,
    `CREATE TABLE resource_types (id INTEGER PRIMARY KEY, description TEXT NOT NULL)`,
    `CREATE TABLE resource_status_reasons (
      id INTEGER PRIMARY KEY,
      description TEXT NOT NULL,
      status_id INTEGER NOT NULL
    )`,
    `CREATE TABLE accessories (
      id INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      quantity_available INTEGER,
      credit_count INTEGER NOT NULL DEFAULT 0,
      peak_credit_count INTEGER NOT NULL DEFAULT 0,
      credit_applicability INTEGER NOT NULL DEFAULT 1,
      credits_charged_all_slots INTEGER NOT NULL DEFAULT 0
    )`,
    `CREATE TABLE accessory_resources (
      accessory_id INTEGER NOT NULL REFERENCES accessories(id) ON DELETE CASCADE,
      resource_id INTEGER NOT NULL REFERENCES resources(id) ON DELETE CASCADE,
      min_quantity INTEGER,
      max_quantity INTEGER,
      PRIMARY KEY (accessory_id, resource_id)
    ) WITHOUT ROWID`,
    `CREATE TABLE custom_attributes (
      id INTEGER PRIMARY KEY,
      label TEXT NOT NULL,
      type INTEGER NOT NULL,
      category_id INTEGER NOT NULL,
      regex TEXT,
      required INTEGER NOT NULL DEFAULT 0,
      possible_values TEXT NOT NULL DEFAULT '[]',
      sort_order INTEGER NOT NULL DEFAULT 0,
      admin_only INTEGER NOT NULL DEFAULT 0,
      is_private INTEGER NOT NULL DEFAULT 0,
      secondary_category_id INTEGER,
      secondary_entity_ids TEXT NOT NULL DEFAULT '[]'
    )`,
    `CREATE INDEX custom_attributes_by_category ON custom_attributes (category_id, sort_order)`,
    `CREATE TABLE custom_attribute_applies_to (
      attribute_id INTEGER NOT NULL REFERENCES custom_attributes(id) ON DELETE CASCADE,
      entity_id INTEGER NOT NULL,
      PRIMARY KEY (attribute_id, entity_id)
    ) WITHOUT ROWID`,
    `CREATE TABLE custom_attribute_values (
      attribute_id INTEGER NOT NULL REFERENCES custom_attributes(id) ON DELETE CASCADE,
      entity_id INTEGER NOT NULL,
      value TEXT NOT NULL,
      PRIMARY KEY (attribute_id, entity_id)
    ) WITHOUT ROWID`,
    `CREATE INDEX custom_attribute_values_by_entity ON custom_attribute_values (entity_id)`,
  ),
  '0002-reservations': statements(
    // AUTOINCREMENT: a series id is never reused, so nothing left keyed by an old one resurfaces.
    `CREATE TABLE reservation_series (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      owner_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      resource_id INTEGER NOT NULL REFERENCES resources(id) ON DELETE CASCADE,
      title TEXT NOT NULL DEFAULT '',
      description TEXT NOT NULL DEFAULT '',
      allow_participation INTEGER NOT NULL DEFAULT 0,
      terms_accepted INTEGER NOT NULL DEFAULT 0,
      recurrence TEXT NOT NULL DEFAULT '{"type":"none"}',
      start_reminder_minutes INTEGER,
      end_reminder_minutes INTEGER,
      is_pending_approval INTEGER NOT NULL DEFAULT 0,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    )`,
    `CREATE INDEX reservation_series_by_owner ON reservation_series (owner_id)`,
    `CREATE INDEX reservation_series_by_resource ON reservation_series (resource_id)`,
    `CREATE TABLE reservation_series_resources (
      series_id INTEGER NOT NULL REFERENCES reservation_series(id) ON DELETE CASCADE,
      resource_id INTEGER NOT NULL REFERENCES resources(id) ON DELETE CASCADE,
      PRIMARY KEY (series_id, resource_id)
    ) WITHOUT ROWID`,
    `CREATE INDEX reservation_series_resources_by_resource ON reservation_series_resources (resource_id)`,
    `CREATE TABLE reservation_people (
      series_id INTEGER NOT NULL REFERENCES reservation_series(id) ON DELETE CASCADE,
      user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      role INTEGER NOT NULL,
      PRIMARY KEY (series_id, user_id)
    ) WITHOUT ROWID`,
    `CREATE INDEX reservation_people_by_user ON reservation_people (user_id)`,
    `CREATE TABLE reservation_guests (
      series_id INTEGER NOT NULL REFERENCES reservation_series(id) ON DELETE CASCADE,
      email TEXT NOT NULL,
      role INTEGER NOT NULL,
      PRIMARY KEY (series_id, email)
    ) WITHOUT ROWID`,
    `CREATE TABLE reservation_accessories (
      series_id INTEGER NOT NULL REFERENCES reservation_series(id) ON DELETE CASCADE,
      accessory_id INTEGER NOT NULL REFERENCES accessories(id) ON DELETE CASCADE,
      quantity INTEGER NOT NULL,
      PRIMARY KEY (series_id, accessory_id)
    ) WITHOUT ROWID`,
    `CREATE INDEX reservation_accessories_by_accessory ON reservation_accessories (accessory_id)`,
    `CREATE TABLE reservations (
      id INTEGER PRIMARY KEY,
      series_id INTEGER NOT NULL REFERENCES reservation_series(id) ON DELETE CASCADE,
      reference_number TEXT NOT NULL UNIQUE,
      start_at INTEGER NOT NULL,
      end_at INTEGER NOT NULL,
      original_end_at INTEGER,
      check_in_at INTEGER,
      check_out_at INTEGER,
      credits_consumed INTEGER NOT NULL DEFAULT 0,
      CHECK (end_at > start_at)
    )`,
    `CREATE INDEX reservations_by_series ON reservations (series_id, start_at)`,
    `CREATE INDEX reservations_by_start ON reservations (start_at)`,
    // One row per instance and resource it occupies: conflicts, availability and slots are
    // index range scans on (resource, start) or (start) instead of scans over every reservation.
    `CREATE TABLE reservation_bookings (
      resource_id INTEGER NOT NULL REFERENCES resources(id) ON DELETE CASCADE,
      start_at INTEGER NOT NULL,
      end_at INTEGER NOT NULL,
      reservation_id INTEGER NOT NULL REFERENCES reservations(id) ON DELETE CASCADE,
      PRIMARY KEY (resource_id, start_at, reservation_id)
    ) WITHOUT ROWID`,
    // Covering: the availability window reads these four columns from the index alone.
    `CREATE INDEX reservation_bookings_by_start ON reservation_bookings (start_at, end_at, resource_id, reservation_id)`,
    `CREATE INDEX reservation_bookings_by_reservation ON reservation_bookings (reservation_id)`,
  ),
  // Tokens at rest become their hashes. Sessions of the old form cannot be carried over (their
  // tokens are what must not be kept), so clients sign in again, as after any lapse.
  '0003-session-token-hashes': statements(
    `DROP TABLE sessions`,
    `CREATE TABLE sessions (
      token_hash TEXT PRIMARY KEY,
      user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      expires_at INTEGER NOT NULL
    )`,
    `CREATE INDEX sessions_by_expiry ON sessions (expires_at)`,
  ),
  // The service serves no calendar feed, so the subscription tokens it kept in plain text named
  // nothing: they go, and with them the last secret kept readable.
  '0004-no-calendar-tokens': statements(`ALTER TABLE users DROP COLUMN ics_token`, `ALTER TABLE resources DROP COLUMN ics_token`),
  // A series now repeats in its booker's zone, kept with its rule. Series stored before were laid
  // out in their schedule's zone, so that is the zone they keep.
  '0005-series-zones': statements(
    `UPDATE reservation_series
      SET recurrence = json_set(recurrence, '$.zone', (
        SELECT schedules.timezone FROM resources JOIN schedules ON schedules.id = resources.schedule_id
        WHERE resources.id = reservation_series.resource_id))
      WHERE json_valid(recurrence) AND json_extract(recurrence, '$.type') IN ('daily', 'weekly', 'monthly', 'yearly')`,
  ),
};
