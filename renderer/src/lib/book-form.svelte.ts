/**
 * The Book view's state: which resource, which slots, what the user typed, and the guidance shown
 * before sending. The core and the server do the real validation; these rules only keep people
 * from sending what would certainly be refused (a start that is taken, an empty required field).
 */
import type { AttributeView, BookDraft, BookRequest, BridgeError, FreeTime, ResourceView, SlotView } from '$bridge/contract.js';
import type { PerchStore } from './perch.svelte.js';

export const AttributeType = { singleLine: 1, multiLine: 2, selectList: 3, checkbox: 4, dateTime: 5 } as const;

interface PickerGroups {
  favourites: ResourceView[];
  recent: ResourceView[];
  rest: ResourceView[];
}

const byName = (a: ResourceView, b: ResourceView) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base', numeric: true });

/** Favourites (by name), then recently booked (in the order given), then the rest by name; each resource once. */
export function groupResources(
  resources: readonly ResourceView[],
  favouriteIds: readonly number[],
  recentIds: readonly number[],
  query: string,
): PickerGroups {
  const needle = query.trim().toLocaleLowerCase();
  const matches =
    needle === ''
      ? [...resources]
      : resources.filter((r) => r.name.toLocaleLowerCase().includes(needle) || r.location.toLocaleLowerCase().includes(needle));
  const favourites = new Set(favouriteIds);
  const byId = new Map(matches.map((r) => [r.resourceId, r]));
  const recent: ResourceView[] = [];
  for (const id of new Set(recentIds)) {
    const resource = byId.get(id);
    if (resource && !favourites.has(id)) recent.push(resource);
  }
  const recentSet = new Set(recent.map((r) => r.resourceId));
  return {
    favourites: matches.filter((r) => favourites.has(r.resourceId)).sort(byName),
    recent,
    rest: matches.filter((r) => !favourites.has(r.resourceId) && !recentSet.has(r.resourceId)).sort(byName),
  };
}

/**
 * An attribute's pattern as the server stores it: PHP-style `/…/flags` or bare. Flags JavaScript
 * lacks are dropped; a pattern JavaScript cannot read gives null, and then the server decides alone.
 */
export function attributePattern(regex: string | null): RegExp | null {
  if (regex === null || regex.trim() === '') return null;
  const delimited = /^\/(.*)\/([a-zA-Z]*)$/s.exec(regex);
  try {
    return delimited ? new RegExp(delimited[1] ?? '', (delimited[2] ?? '').replace(/[^imsu]/g, '')) : new RegExp(regex);
  } catch {
    return null;
  }
}

/** The value a checkbox attribute sends when ticked. */
export const checkedValue = '1';

export function attributeProblem(attribute: AttributeView, value: string): string | null {
  const blank = attribute.type === AttributeType.checkbox ? value !== checkedValue : value.trim() === '';
  if (blank)
    return attribute.required
      ? attribute.type === AttributeType.checkbox
        ? `${attribute.label} must be ticked.`
        : `${attribute.label} is required.`
      : null;
  if (attribute.type === AttributeType.selectList && attribute.possibleValues.length > 0 && !attribute.possibleValues.includes(value)) {
    return `Choose one of the listed values for ${attribute.label}.`;
  }
  const pattern = attributePattern(attribute.regex);
  if (pattern !== null && !pattern.test(value)) return `${attribute.label} is not in the expected format.`;
  return null;
}

function appliesTo(attribute: AttributeView, resourceId: number): boolean {
  return attribute.resourceIds.length === 0 || attribute.resourceIds.includes(resourceId);
}

interface EndOption {
  end: string;
  minutes: number;
}

/** Starts of the free slots that have not begun yet. */
function startOptions(slots: readonly SlotView[], nowMs: number): string[] {
  return slots.filter((slot) => slot.isReservable && Date.parse(slot.start) >= nowMs - 60_000).map((slot) => slot.start);
}

/**
 * The slot ends reachable from `start` without crossing a taken or closed slot (or a gap between
 * slots), within the resource's length limits.
 */
function endOptions(slots: readonly SlotView[], start: string, minMinutes: number | null, maxMinutes: number | null): EndOption[] {
  const startMs = Date.parse(start);
  const first = slots.findIndex((slot) => Date.parse(slot.start) === startMs);
  if (first < 0) return [];
  const options: EndOption[] = [];
  let previousEnd = startMs;
  for (const slot of slots.slice(first)) {
    if (!slot.isReservable || Date.parse(slot.start) !== previousEnd) break;
    previousEnd = Date.parse(slot.end);
    const minutes = Math.round((previousEnd - startMs) / 60_000);
    if (maxMinutes !== null && maxMinutes > 0 && minutes > maxMinutes) break;
    if (minMinutes !== null && minutes < minMinutes) continue;
    options.push({ end: slot.end, minutes });
  }
  return options;
}

/**
 * The starts of the free stretches ahead: the first free start, and each one that follows a taken,
 * closed or missing slot. These are the times worth offering at one click.
 */
function stretchStarts(slots: readonly SlotView[], starts: readonly string[]): string[] {
  const free = new Set(starts.map((start) => Date.parse(start)));
  const stretches: string[] = [];
  let previousEnd: number | null = null;
  for (const slot of slots) {
    const startMs = Date.parse(slot.start);
    if (free.has(startMs) && previousEnd !== startMs) stretches.push(slot.start);
    previousEnd = free.has(startMs) ? Date.parse(slot.end) : null;
  }
  return stretches;
}

const dayMs = 86_400_000;

/** `YYYY-MM-DD` `days` after the calendar day `key` (calendar arithmetic: no zone, no DST). */
export function addDays(key: string, days: number): string {
  const [year = 0, month = 1, day = 1] = key.split('-').map(Number);
  return new Date(Date.UTC(year, month - 1, day) + days * dayMs).toISOString().slice(0, 10);
}

export interface DayChoice {
  key: string;
  /** `Tue 1 Dec`: short enough for the day list at 200% zoom. */
  date: string;
  /** `Tomorrow, Tue 1 Dec`: for the line that says what will be booked. */
  label: string;
}

/** How many days ahead the day list offers: what people book from a tray, and a short list to scroll. */
export const daysOffered = 120;

/**
 * The days to choose from, written in the user's regional format (`Tue 1 Dec` in en-GB, `Tue Dec 1`
 * in en-US; today and tomorrow named too where there is room): Chromium's own date field follows the browser's language, not
 * the OS's region, and wrote 12/01/2026 for an en-GB user. A chosen day outside the list (a draft
 * for a later day) is kept, in order.
 */
export function dayChoices(today: string, chosen: string, locale: string): DayChoice[] {
  // The calendar day at noon UTC, written in UTC: the same day whatever the zone.
  const words = new Intl.DateTimeFormat(locale, { timeZone: 'UTC', weekday: 'short', day: 'numeric', month: 'short' });
  const withYear = new Intl.DateTimeFormat(locale, { timeZone: 'UTC', weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' });
  const label = (key: string, offset: number): Omit<DayChoice, 'key'> => {
    const noon = new Date(`${key}T12:00:00Z`);
    // A day more than a few months off names its year; the comma some locales put after the weekday goes.
    const date = (Math.abs(offset) < 300 ? words : withYear).format(noon).replace(',', '');
    return { date, label: offset === 0 ? `Today, ${date}` : offset === 1 ? `Tomorrow, ${date}` : date };
  };
  const keys = Array.from({ length: daysOffered }, (_, offset) => addDays(today, offset));
  if (/^\d{4}-\d{2}-\d{2}$/.test(chosen) && !keys.includes(chosen)) keys.push(chosen);
  keys.sort();
  const todayMs = Date.parse(`${today}T12:00:00Z`);
  return keys.map((key) => ({ key, ...label(key, Math.round((Date.parse(`${key}T12:00:00Z`) - todayMs) / dayMs)) }));
}

/** The member of `instants` at the same moment as `choice` (offsets may be written differently); null for none. */
function sameInstant(instants: readonly string[], choice: string | null): string | null {
  if (choice === null) return null;
  const ms = Date.parse(choice);
  return instants.find((instant) => Date.parse(instant) === ms) ?? null;
}

interface Confirmation {
  resourceName: string;
  start: string;
  end: string;
  isPendingApproval: boolean;
}

export class BookForm {
  readonly #perch: PerchStore;

  resource = $state<ResourceView | null>(null);
  /** `YYYY-MM-DD` in the user's timezone. */
  date = $state('');
  slots = $state<SlotView[] | null>(null);
  slotsError = $state<BridgeError | null>(null);
  attributes = $state<AttributeView[]>([]);
  /** What the user chose; the effective choice below falls back when it stops being offered. */
  startChoice = $state<string | null>(null);
  endChoice = $state<string | null>(null);
  title = $state('');
  description = $state('');
  values = $state<Record<number, string>>({});
  /** Problems are shown once a field was left or a send was tried, not while typing the first time. */
  touched = $state<Record<number, boolean>>({});
  attempted = $state(false);
  confirmation = $state<Confirmation | null>(null);
  #slotsRequest = 0;

  readonly starts = $derived.by(() => (this.slots === null ? [] : startOptions(this.slots, this.#perch.nowMs)));
  readonly start = $derived(sameInstant(this.starts, this.startChoice) ?? this.starts[0] ?? null);
  readonly ends = $derived(
    this.slots === null || this.start === null || this.resource === null
      ? []
      : endOptions(this.slots, this.start, this.resource.minLengthMinutes, this.resource.maxLengthMinutes),
  );
  /** Today in the user's zone, and the days on offer from it. */
  readonly today = $derived.by(() => this.#perch.format.dayKey(this.#perch.nowMs));
  readonly tomorrow = $derived(addDays(this.today, 1));
  readonly days = $derived.by(() => dayChoices(this.today, this.date, this.#perch.format.rules.locale));
  /** The one-click starts: where each free stretch of the day begins, the first few. */
  readonly quickStarts = $derived(this.slots === null ? [] : stretchStarts(this.slots, this.starts).slice(0, 3));
  readonly end = $derived(
    sameInstant(
      this.ends.map((option) => option.end),
      this.endChoice,
    ) ??
      this.ends[0]?.end ??
      null,
  );
  readonly applicable = $derived(this.resource === null ? [] : this.attributes.filter((a) => appliesTo(a, this.resource!.resourceId)));
  readonly problems = $derived(
    Object.fromEntries(
      this.applicable.map((a) => [a.id, attributeProblem(a, this.values[a.id] ?? '')]).filter(([, problem]) => problem !== null),
    ) as Record<number, string>,
  );

  constructor(perch: PerchStore) {
    this.#perch = perch;
    this.date = perch.format.dayKey(perch.nowMs);
  }

  shownProblem(attributeId: number): string | null {
    return this.attempted || this.touched[attributeId] ? (this.problems[attributeId] ?? null) : null;
  }

  async loadAttributes(): Promise<void> {
    const result = await this.#perch.listReservationAttributes();
    if (result.ok) this.attributes = result.value;
  }

  /** Chooses the resource; a draft (from "Book…") chooses its day, start and length too. */
  pick(resource: ResourceView, draft: BookDraft | null = null): void {
    this.resource = resource;
    this.confirmation = null;
    this.#perch.clearError('book');
    this.#clearFields();
    if (draft !== null) {
      this.date = this.#perch.format.dayKey(draft.start);
      this.startChoice = draft.start;
      this.endChoice = new Date(Date.parse(draft.start) + draft.durationMinutes * 60_000).toISOString();
    }
    void this.loadSlots();
  }

  /** Shows another day's free times. */
  chooseDay(key: string): void {
    if (key === this.date) return;
    this.date = key;
    void this.loadSlots();
  }

  back(): void {
    this.resource = null;
    this.slots = null;
    this.#perch.clearError('book');
  }

  async loadSlots(): Promise<void> {
    const resource = this.resource;
    if (resource === null || !/^\d{4}-\d{2}-\d{2}$/.test(this.date)) {
      this.slots = null;
      return;
    }
    // A slow answer for an earlier date must not replace the one asked for last.
    const request = ++this.#slotsRequest;
    this.slots = null;
    this.slotsError = null;
    const result = await this.#perch.listSlots(resource.resourceId, this.date);
    if (request !== this.#slotsRequest) return;
    if (result.ok) this.slots = result.value;
    else this.slotsError = result.error;
  }

  /** Sends the booking when the guidance finds nothing; returns whether it was booked. */
  async submit(): Promise<boolean> {
    this.attempted = true;
    const resource = this.resource;
    if (resource === null || this.start === null || this.end === null || Object.keys(this.problems).length > 0) return false;
    const start = this.start;
    const end = this.end;
    const customAttributes = this.applicable
      .map((a) => ({ attributeId: a.id, value: this.values[a.id] ?? '' }))
      .filter(({ value }) => value.trim() !== '');
    const request: BookRequest = { resourceId: resource.resourceId, start, end, title: this.title.trim() };
    if (this.description.trim() !== '') request.description = this.description.trim();
    if (customAttributes.length > 0) request.customAttributes = customAttributes;
    const result = await this.#perch.book(request);
    if (!result.ok) {
      if (result.error.kind === 'conflict') await this.#afterClash(result.error.nextFree ?? null);
      return false;
    }
    this.confirmation = { resourceName: resource.name, start, end, isPendingApproval: result.value.isPendingApproval };
    this.#clearFields();
    this.resource = null;
    this.slots = null;
    return true;
  }

  /** The same booking at the time the core offered after a clash; returns whether it was booked. */
  async bookInstead(instead: FreeTime): Promise<boolean> {
    this.startChoice = instead.start;
    this.endChoice = instead.end;
    return this.submit();
  }

  /** Someone took the time: show the day as it is now, with the time offered instead chosen (never the taken one). */
  async #afterClash(instead: FreeTime | null): Promise<void> {
    this.startChoice = instead?.start ?? null;
    this.endChoice = instead?.end ?? null;
    await this.loadSlots();
  }

  #clearFields(): void {
    this.startChoice = null;
    this.endChoice = null;
    this.title = '';
    this.description = '';
    this.values = {};
    this.touched = {};
    this.attempted = false;
  }
}
