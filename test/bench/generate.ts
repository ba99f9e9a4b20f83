import SQLite from 'libsql';
import { DateTime, IANAZone } from 'luxon';
import { formatWireDateTime } from '../../electron/api/dates.js';
import { Role } from '../../electron/api/schemas/groups.js';
import { ResourceStatus } from '../../electron/api/schemas/resources.js';
import { NO_RECURRENCE, serializeRecurrenceRule } from '../../electron/service/domain/recurrence.js';
import { newReferenceNumber } from '../../electron/service/domain/reference-number.js';
import { buildLayout, periodsOn, type CalendarDate, type PeriodRule } from '../../electron/service/domain/schedule-layout.js';
import { hashPassword } from '../../electron/service/passwords.js';
import { administratorsGroup } from '../../electron/service/seed/bootstrap.js';
import { openStore } from '../../electron/service/store/database.js';
import { longestBookingMs } from '../../electron/service/store/reservations.js';
import { PermissionType, ReservationRole } from '../../electron/service/tables.js';
import { seededRandom } from '../support/seeded-random.js';

/** The size of the organisation; the defaults are those of server-facts section E. */
export interface BenchCounts {
  schedules: number;
  resourcesPerSchedule: number;
  users: number;
  reservations: number;
  /** Days either side of now that reservations are spread over. */
  halfWindowDays: number;
  /** Free 30-minute slots to hand to the CreateReservation run. */
  freeSlots: number;
}

export const defaultCounts: BenchCounts = {
  schedules: 20,
  resourcesPerSchedule: 50,
  users: 2000,
  reservations: 200_000,
  halfWindowDays: 182,
  freeSlots: 60_000,
};

/** A slot nobody holds, on a resource the member may book, for CreateReservation bodies. */
export interface FreeSlot {
  resourceId: number;
  startAt: number;
  endAt: number;
  zone: string;
}

/** A CreateReservation body for a free slot, with times as the app's client writes them. */
export const createBody = (slot: FreeSlot) =>
  JSON.stringify({
    resourceId: slot.resourceId,
    startDateTime: formatWireDateTime(DateTime.fromMillis(slot.startAt, { zone: slot.zone })),
    endDateTime: formatWireDateTime(DateTime.fromMillis(slot.endAt, { zone: slot.zone })),
    title: 'Benchmark booking',
  });

export interface GeneratedOrganisation {
  /** Everyone signs in with this password. */
  password: string;
  admin: { userName: string; id: number };
  /** A normal user: Staff and one department, as most people are. */
  member: { userName: string; id: number };
  /** The first schedule: an office layout (weekdays 08:00–18:00, 30-minute slots). */
  officeSchedule: { id: number; zone: string };
  freeSlots: FreeSlot[];
  counts: Record<string, number>;
  generationMs: number;
}

/** The same seed makes the same organisation, so runs compare. */
function random(seed: number) {
  const next = seededRandom(seed);
  const int = (below: number) => Math.floor(next() * below);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;
  return { next, int, pick };
}

const zones = ['Europe/London', 'Europe/Berlin', 'America/New_York', 'Asia/Tokyo', 'Australia/Sydney'];
const departments = ['Engineering', 'Sales', 'Operations', 'Research'];
const titles = ['Team meeting', 'One-to-one', 'Client call', 'Interview', 'Planning', 'Focus work', 'Workshop', 'Stand-up', ''];
const minuteMs = 60_000;

const pad = (value: number) => String(value).padStart(2, '0');
const timeOf = (minutes: number) => `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;

/** 30-minute reservable slots from `from` to `to` (minutes), closed before and after. */
function dayPeriods(weekday: number | null, from: number, to: number): PeriodRule[] {
  const periods: PeriodRule[] = [];
  if (from > 0) periods.push({ weekday, startTime: '00:00', endTime: timeOf(from), label: 'Closed', isReservable: 0 });
  for (let start = from; start < to; start += 30) {
    periods.push({ weekday, startTime: timeOf(start), endTime: timeOf(start + 30), label: null, isReservable: 1 });
  }
  if (to < 1440) periods.push({ weekday, startTime: timeOf(to), endTime: '24:00', label: 'Closed', isReservable: 0 });
  return periods;
}

/** Offices open on weekdays 08:00–18:00; every fifth schedule (labs, support desks) round the clock. */
function scheduleLayout(index: number): PeriodRule[] {
  if (index % 5 === 4) return dayPeriods(null, 0, 1440);
  return [
    ...[1, 2, 3, 4, 5].flatMap((weekday) => dayPeriods(weekday, 8 * 60, 18 * 60)),
    ...[0, 6].map((weekday) => ({ weekday, startTime: '00:00', endTime: '24:00', label: 'Closed', isReservable: 0 })),
  ];
}

/**
 * The reservable slots of each day of the window, as epoch-ms pairs, in the schedule's zone.
 * `periodsOn` asks luxon for zone offsets some hundred times a day (about 1 ms); a day on which the
 * clocks do not change reuses the wall-clock times it answered for the same weekday.
 */
function slotsByDay(rules: readonly PeriodRule[], zone: string, firstDay: DateTime, days: number): Float64Array[] {
  const layout = buildLayout(rules);
  const ianaZone = IANAZone.create(zone);
  const wallSeconds = new Map<number, number[]>();
  return Array.from({ length: days }, (_, offset) => {
    const day = firstDay.plus({ days: offset });
    const date: CalendarDate = { year: day.year, month: day.month, day: day.day };
    const midnight = Date.UTC(date.year, date.month - 1, date.day);
    const zoneOffset = ianaZone.offset(midnight);
    const steady = zoneOffset === ianaZone.offset(midnight + 36 * 3_600_000) && zoneOffset === ianaZone.offset(midnight - 12 * 3_600_000);
    let seconds = steady ? wallSeconds.get(day.weekday) : undefined;
    if (!seconds) {
      const reservable = periodsOn(layout, date, zone).filter((period) => period.isReservable);
      const wall = (instant: DateTime) => (instant.toMillis() + instant.offset * minuteMs - midnight) / 1000;
      seconds = reservable.flatMap((period) => [wall(period.start), wall(period.end)]);
      if (steady) wallSeconds.set(day.weekday, seconds);
      else return Float64Array.from(reservable.flatMap((period) => [period.start.toMillis(), period.end.toMillis()]));
    }
    return Float64Array.from(seconds, (second) => midnight + second * 1000 - zoneOffset * minuteMs);
  });
}

/**
 * Generates the benchmark organisation into `file` (a fresh database): 20 schedules with real
 * layouts, 1,000 resources in a region/building/floor tree, 2,000 users in groups with set-based
 * permissions, and 200,000 occurrences (singles and weekly series of ten) that never overlap on a
 * resource and sit on slot boundaries. The schema comes from the service's own migrations; the
 * rows go in through prepared statements in a few large transactions, which is what makes 200,000
 * reservations take seconds rather than minutes.
 */
export async function generateOrganisation(
  file: string,
  now: DateTime,
  counts: BenchCounts = defaultCounts,
  seed = 20260101,
): Promise<GeneratedOrganisation> {
  const started = performance.now();
  const rnd = random(seed);
  const password = 'bench-password-1';

  const store = await openStore(file);
  const administratorsGroupId = await administratorsGroup(store);
  await store.destroy();
  const passwordHash = await hashPassword(password);

  const db = new SQLite(file);
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  const insert = (sql: string) => db.prepare(sql);
  const tally: Record<string, number> = {};
  const count = (what: string, by = 1) => (tally[what] = (tally[what] ?? 0) + by);

  const nowMs = now.toMillis();
  const windowDays = counts.halfWindowDays * 2 + 1;
  const firstDay = now.toUTC().startOf('day').minus({ days: counts.halfWindowDays });

  // Directory: schedules and layouts, the resource tree, resources, groups, users, permissions.
  const schedules: { id: number; zone: string; days: Float64Array[] }[] = [];
  const resources: { id: number; schedule: number; statusId: number }[] = [];
  const departmentMembers: number[][] = departments.map(() => []);
  let adminId = 0;
  let memberId = 0;
  db.transaction(() => {
    const insertSchedule = insert(`INSERT INTO schedules (name, timezone, is_default, weekday_start, days_visible) VALUES (?, ?, ?, 1, 7)`);
    const insertPeriod = insert(
      `INSERT INTO schedule_periods (schedule_id, weekday, start_time, end_time, label, is_reservable) VALUES (?, ?, ?, ?, ?, ?)`,
    );
    const insertResourceGroup = insert(`INSERT INTO resource_groups (name, parent_id) VALUES (?, ?)`);
    const insertResource = insert(
      `INSERT INTO resources (name, location, contact, description, schedule_id, status_id, type_id, sort_order,
         requires_check_in, auto_release_minutes, max_participants, color, admin_group_id)
       VALUES (?, ?, 'facilities@example.com', '', ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const insertGroupMember = insert(`INSERT INTO resource_group_members (group_id, resource_id) VALUES (?, ?)`);
    const insertType = insert(`INSERT INTO resource_types (description) VALUES (?)`);
    const insertUserGroup = insert(`INSERT INTO user_groups (name, is_default) VALUES (?, ?)`);
    const insertRole = insert(`INSERT INTO group_roles (group_id, role_id) VALUES (?, ?)`);
    const insertUser = insert(
      `INSERT INTO users (user_name, email_address, first_name, last_name, password_hash, timezone, date_created)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    const insertMember = insert(`INSERT INTO group_members (group_id, user_id) VALUES (?, ?)`);
    const insertGroupPermission = insert(
      `INSERT INTO group_resource_permissions (group_id, resource_id, permission_type) VALUES (?, ?, ?)`,
    );
    const insertUserPermission = insert(
      `INSERT OR IGNORE INTO user_resource_permissions (user_id, resource_id, permission_type) VALUES (?, ?, ?)`,
    );
    const id = (result: SQLite.RunResult) => Number(result.lastInsertRowid);

    const staff = id(insertUserGroup.run('Staff', 1));
    const departmentGroups = departments.map((name) => id(insertUserGroup.run(name, 0)));
    const facilities = id(insertUserGroup.run('Facilities', 0));
    insertRole.run(facilities, Role.resourceAdministrator);
    count('userGroups', departments.length + 2);

    const types = ['Room', 'Desk', 'Equipment'].map((description) => id(insertType.run(description)));
    const regions = 5;
    const regionGroups = Array.from({ length: regions }, (_, index) => id(insertResourceGroup.run(`Region ${index + 1}`, null)));
    count('resourceGroups', regions);

    const floorsPerBuilding = 5;
    let sortOrder = 0;
    for (let index = 0; index < counts.schedules; index += 1) {
      const zone = zones[index % zones.length]!;
      const scheduleId = id(insertSchedule.run(`Building ${index + 1}`, zone, index === 0 ? 1 : 0));
      const rules = scheduleLayout(index);
      for (const rule of rules)
        insertPeriod.run(scheduleId, rule.weekday, rule.startTime, rule.endTime, rule.label ?? '', Number(rule.isReservable));
      count('schedulePeriods', rules.length);
      schedules.push({ id: scheduleId, zone, days: slotsByDay(rules, zone, firstDay, windowDays) });
      count('schedules');

      const building = id(insertResourceGroup.run(`Building ${index + 1}`, regionGroups[index % regions]!));
      const floors = Array.from({ length: floorsPerBuilding }, (_, floor) =>
        id(insertResourceGroup.run(`Building ${index + 1}, floor ${floor + 1}`, building)),
      );
      count('resourceGroups', 1 + floorsPerBuilding);
      for (let number = 0; number < counts.resourcesPerSchedule; number += 1) {
        sortOrder += 1;
        const floor = Math.floor((number * floorsPerBuilding) / counts.resourcesPerSchedule);
        const kind = number % 10 < 6 ? 0 : number % 10 < 9 ? 1 : 2;
        // A few resources out of service or hidden, as in any real organisation.
        const statusId =
          sortOrder % 97 === 13 ? ResourceStatus.unavailable : sortOrder % 193 === 7 ? ResourceStatus.hidden : ResourceStatus.available;
        const checkIn = kind === 1 || number % 5 === 0;
        const resourceId = id(
          insertResource.run(
            `${['Room', 'Desk', 'Kit'][kind]} ${index + 1}.${floor + 1}.${pad(number + 1)}`,
            `Building ${index + 1}, floor ${floor + 1}`,
            scheduleId,
            statusId,
            types[kind]!,
            sortOrder,
            checkIn ? 1 : 0,
            checkIn ? 15 : null,
            kind === 0 ? 4 + (number % 12) : null,
            `#${(0x204060 + sortOrder * 2654435).toString(16).slice(-6).padStart(6, '0')}`,
            facilities,
          ),
        );
        insertGroupMember.run(floors[floor]!, resourceId);
        resources.push({ id: resourceId, schedule: index, statusId });
      }
    }
    count('resources', resources.length);

    const createdAt = now.toUTC().toISO()!;
    const addUser = (userName: string, first: string, last: string, zone: string) =>
      id(insertUser.run(userName, `${userName}@example.com`, first, last, passwordHash, zone, createdAt));
    adminId = addUser('admin', 'Alex', 'Morgan', 'Europe/London');
    insertMember.run(administratorsGroupId, adminId);
    insertMember.run(staff, adminId);
    memberId = addUser('member', 'Jonas', 'Weber', 'Europe/Berlin');
    insertMember.run(staff, memberId);
    insertMember.run(departmentGroups[0]!, memberId);
    departmentMembers[0]!.push(memberId);
    for (let number = 3; number <= counts.users; number += 1) {
      const userId = addUser(`user${String(number).padStart(4, '0')}`, `First${number}`, `Last${number}`, zones[number % zones.length]!);
      insertMember.run(staff, userId);
      const department = number % departments.length;
      insertMember.run(departmentGroups[department]!, userId);
      departmentMembers[department]!.push(userId);
      if (number % 100 === 0) insertMember.run(facilities, userId);
    }
    count('users', counts.users);

    // Staff books the first 60% of buildings; each department books two of the others.
    const staffBuildings = Math.floor(counts.schedules * 0.6);
    for (const resource of resources) {
      if (resource.schedule < staffBuildings) {
        insertGroupPermission.run(staff, resource.id, PermissionType.full);
      } else {
        const department = Math.floor((resource.schedule - staffBuildings) / 2) % departments.length;
        insertGroupPermission.run(departmentGroups[department]!, resource.id, PermissionType.full);
      }
      count('groupPermissions');
    }
    // Individual grants: people who work across departments.
    const departmentResources = resources.filter((resource) => resource.schedule >= staffBuildings);
    for (let grant = 0; grant < 300 && departmentResources.length; grant += 1) {
      insertUserPermission.run(
        3 + rnd.int(counts.users - 2),
        rnd.pick(departmentResources).id,
        grant % 3 === 0 ? PermissionType.view : PermissionType.full,
      );
      count('userPermissions');
    }
  })();

  // Who may book what, for choosing realistic owners.
  const staffBuildings = Math.floor(counts.schedules * 0.6);
  const everyone = Array.from({ length: counts.users - 1 }, (_, index) => index + 2);
  const ownersOf = (schedule: number) =>
    schedule < staffBuildings ? everyone : departmentMembers[Math.floor((schedule - staffBuildings) / 2) % departments.length]!;

  // Reservations, resource by resource: an occupancy map per resource keeps them apart.
  const maxSlotsPerDay = Math.max(...schedules.flatMap((schedule) => schedule.days.map((pairs) => pairs.length / 2)));
  const occupancy = new Map<number, Uint8Array>();
  const insertSeries = db.prepare(
    `INSERT INTO reservation_series (id, owner_id, resource_id, title, recurrence, start_reminder_minutes, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertReservation = db.prepare(
    `INSERT INTO reservations (id, series_id, reference_number, start_at, end_at) VALUES (?, ?, ?, ?, ?)`,
  );
  const insertBooking = db.prepare(`INSERT INTO reservation_bookings (resource_id, start_at, end_at, reservation_id) VALUES (?, ?, ?, ?)`);
  const insertPerson = db.prepare(`INSERT OR IGNORE INTO reservation_people (series_id, user_id, role) VALUES (?, ?, ?)`);
  const noRecurrence = serializeRecurrenceRule(NO_RECURRENCE);
  const lengths = [1, 1, 1, 2, 2, 2, 2, 3, 4, 4];
  let seriesId = 0;
  let reservationId = 0;
  let longest = 0;

  /** Stores one series: its occurrences are [start, end) pairs, already free. */
  const storeSeries = (resourceId: number, schedule: number, occurrences: [number, number][], weekly: boolean) => {
    seriesId += 1;
    const owner = rnd.next() < 0.01 ? adminId : rnd.pick(ownersOf(schedule));
    const first = occurrences[0]!;
    const last = occurrences[occurrences.length - 1]!;
    const zone = schedules[schedule]!.zone;
    const recurrence = weekly
      ? serializeRecurrenceRule({
          type: 'weekly',
          interval: 1,
          monthlyType: null,
          weekdays: [DateTime.fromMillis(first[0], { zone }).weekday % 7],
          terminationDate: DateTime.fromMillis(last[0], { zone }).toISODate(),
          zone,
        })
      : noRecurrence;
    const createdAt = Math.min(nowMs, first[0]) - rnd.int(30 * 24 * 60) * minuteMs;
    insertSeries.run(seriesId, owner, resourceId, rnd.pick(titles), recurrence, rnd.next() < 0.3 ? 15 : null, createdAt, createdAt);
    count('series');
    const people = rnd.next() < 0.2 ? 1 + rnd.int(3) : 0;
    for (let person = 0; person < people; person += 1) {
      insertPerson.run(seriesId, rnd.pick(ownersOf(schedule)), person === 2 ? ReservationRole.invitee : ReservationRole.participant);
    }
    for (const [startAt, endAt] of occurrences) {
      reservationId += 1;
      insertReservation.run(reservationId, seriesId, newReferenceNumber(), startAt, endAt);
      insertBooking.run(resourceId, startAt, endAt, reservationId);
      longest = Math.max(longest, endAt - startAt);
    }
    count('reservations', occurrences.length);
  };

  /** Claims `length` slots from `slot` on `day` for `weeks` weeks if all are free; the occurrences, or null. */
  const claim = (
    used: Uint8Array,
    days: Float64Array[],
    day: number,
    slot: number,
    length: number,
    weeks: number,
  ): [number, number][] | null => {
    for (let week = 0; week < weeks; week += 1) {
      const pairs = days[day + week * 7];
      if (!pairs || slot + length > pairs.length / 2) return null;
      for (let index = slot; index < slot + length; index += 1) if (used[(day + week * 7) * maxSlotsPerDay + index]) return null;
    }
    const occurrences: [number, number][] = [];
    for (let week = 0; week < weeks; week += 1) {
      const pairs = days[day + week * 7]!;
      for (let index = slot; index < slot + length; index += 1) used[(day + week * 7) * maxSlotsPerDay + index] = 1;
      occurrences.push([pairs[slot * 2]!, pairs[(slot + length - 1) * 2 + 1]!]);
    }
    return occurrences;
  };

  const perResource = Math.floor(counts.reservations / resources.length);
  const extra = counts.reservations - perResource * resources.length;
  const seriesLength = 10;
  const batch = db.transaction((from: number, to: number) => {
    for (let index = from; index < to; index += 1) {
      const resource = resources[index]!;
      const { days } = schedules[resource.schedule]!;
      const used = new Uint8Array(windowDays * maxSlotsPerDay);
      occupancy.set(resource.id, used);
      const target = perResource + (index < extra ? 1 : 0);
      // About 40% of occurrences belong to weekly series of ten.
      let placed = 0;
      let recurringLeft = Math.floor((target * 0.4) / seriesLength);
      for (let attempt = 0; placed < target && attempt < target * 50; attempt += 1) {
        const weekly = recurringLeft > 0 && target - placed >= seriesLength;
        const weeks = weekly ? seriesLength : 1;
        const day = rnd.int(windowDays - (weeks - 1) * 7);
        const slotsToday = days[day]!.length / 2;
        if (slotsToday === 0) continue;
        const length = rnd.pick(lengths);
        const occurrences = claim(used, days, day, rnd.int(Math.max(1, slotsToday - length + 1)), length, weeks);
        if (!occurrences) continue;
        storeSeries(resource.id, resource.schedule, occurrences, weekly);
        placed += occurrences.length;
        if (weekly) recurringLeft -= 1;
      }
    }
  });
  for (let index = 0; index < resources.length; index += 250) batch(index, Math.min(index + 250, resources.length));
  count('bookings', tally.reservations ?? 0);
  // What insertInstances records for every stored booking: overlap queries are bounded by it.
  db.prepare(`INSERT INTO settings (key, value) VALUES ('maxBookingMs', ?)`).run(String(longest));
  db.close();

  const check = await openStore(file);
  const recorded = await longestBookingMs(check);
  await check.destroy();
  if (recorded !== longest) throw new Error(`the longest booking was not recorded where the service reads it (${recorded} ≠ ${longest})`);

  // Free slots for CreateReservation, on what the member may book: from a month ahead, so that the
  // bookings the run adds stay out of the windows the reads look at (now to two weeks ahead).
  const memberSchedules = new Set([...Array.from({ length: staffBuildings }, (_, index) => index), staffBuildings, staffBuildings + 1]);
  const bookable = resources.filter((resource) => memberSchedules.has(resource.schedule) && resource.statusId === ResourceStatus.available);
  const freeSlots: FreeSlot[] = [];
  for (let day = counts.halfWindowDays + 30; day < windowDays && freeSlots.length < counts.freeSlots; day += 1) {
    for (let slot = 0; slot < maxSlotsPerDay && freeSlots.length < counts.freeSlots; slot += 1) {
      for (const resource of bookable) {
        const { days, zone } = schedules[resource.schedule]!;
        const pairs = days[day]!;
        if (slot >= pairs.length / 2 || occupancy.get(resource.id)![day * maxSlotsPerDay + slot]) continue;
        freeSlots.push({ resourceId: resource.id, startAt: pairs[slot * 2]!, endAt: pairs[slot * 2 + 1]!, zone });
        if (freeSlots.length >= counts.freeSlots) break;
      }
    }
  }

  const office = schedules[0]!;
  return {
    password,
    admin: { userName: 'admin', id: adminId },
    member: { userName: 'member', id: memberId },
    officeSchedule: { id: office.id, zone: office.zone },
    freeSlots,
    counts: tally,
    generationMs: performance.now() - started,
  };
}
