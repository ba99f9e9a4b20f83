/**
 * Type to book: the lines a user types, read at fixed moments (never the wall clock), each with
 * what Perch must understand — the resource, the day and times, and every choice the line left
 * open said in words — and the lines that are not bookings, which stay filters.
 */
import { DateTime, Settings } from 'luxon';
import { afterEach, describe, expect, it } from 'vitest';
import type { TimeFormatRules } from '../../electron/bridge/contract.js';
import {
  phraseResourceOf,
  readBookingPhrase,
  type BookingIntent,
  type PhraseContext,
  type PhraseResource,
} from '../../electron/core/commands/booking-phrase.js';
import { resourceKindOf } from '../../electron/core/views/resource-kind.js';

const resources: PhraseResource[] = [
  { id: 1, name: 'Thames (1.01)', kind: 'room', capacity: 8, keywords: ['Head office, floor 1', 'Floor 1 rooms'] },
  { id: 2, name: 'Severn (1.02)', kind: 'room', capacity: 4, keywords: ['Head office, floor 1', 'Floor 1 rooms'] },
  { id: 3, name: 'Desk 23', kind: 'desk', capacity: null, keywords: ['Head office, floor 2', 'Floor 2 desks'] },
  { id: 4, name: 'Desk 24', kind: 'desk', capacity: null, keywords: ['Head office, floor 2', 'Floor 2 desks'] },
  { id: 5, name: 'Phone booth 1', kind: 'room', capacity: 1, keywords: ['Head office, floor 3'] },
  { id: 6, name: 'Phone booth 2', kind: 'room', capacity: 1, keywords: ['Head office, floor 3'] },
  { id: 7, name: 'Boardroom', kind: 'room', capacity: 16, keywords: ['Head office, floor 3'] },
  { id: 8, name: 'Projector A', kind: 'equipment', capacity: null, keywords: ['AV kit'] },
];

const london24: TimeFormatRules = { locale: 'en-GB', hourCycle: 'h23' };
const newYork12: TimeFormatRules = { locale: 'en-US', hourCycle: 'h12' };

/** Wednesday 25 November 2026, 10:20 in London, on a 24-hour clock. */
const wednesdayMorningInLondon: PhraseContext = {
  now: DateTime.fromISO('2026-11-25T10:20:37', { zone: 'Europe/London' }),
  timeFormat: london24,
  resources,
};
/** The same Wednesday, 16:45 in New York, on a 12-hour clock: the morning is over. */
const wednesdayAfternoonInNewYork: PhraseContext = {
  now: DateTime.fromISO('2026-11-25T16:45', { zone: 'America/New_York' }),
  timeFormat: newYork12,
  resources,
};
/** Saturday 28 March 2026 in London: the clocks go forward tonight. */
const beforeSummerTime: PhraseContext = {
  now: DateTime.fromISO('2026-03-28T10:00', { zone: 'Europe/London' }),
  timeFormat: london24,
  resources,
};
/** Ten to midnight in Tokyo: "in 15 min" is tomorrow. */
const lateInTokyo: PhraseContext = {
  now: DateTime.fromISO('2026-11-25T23:50', { zone: 'Asia/Tokyo' }),
  timeFormat: { locale: 'ja-JP', hourCycle: 'h23' },
  resources,
};

const nameOf = (id: number) => resources.find((resource) => resource.id === id)!.name;

/** What was understood, in one line to compare: what it books, when, and what was decided. */
function described(intent: BookingIntent) {
  const { resource } = intent;
  const what =
    resource.by === 'name'
      ? resource.ids.map(nameOf).join(' / ')
      : resource.by === 'kind'
        ? `any ${resource.kind ?? 'resource'}${resource.minCapacity === null ? '' : ` for ${resource.minCapacity}+`}: ${resource.ids.map(nameOf).join(' / ')}`
        : `nothing called “${resource.words}”`;
  const local = (at: DateTime) => at.setLocale('en-GB');
  const when =
    intent.start === null || intent.end === null
      ? `${DateTime.fromISO(intent.day).setLocale('en-GB').toFormat('ccc d LLL')}, no time`
      : `${local(intent.start).toFormat('ccc d LLL HH:mm')}–${local(intent.end).toFormat(intent.end.hasSame(intent.start, 'day') ? 'HH:mm' : 'ccc d LLL HH:mm')}`;
  return { what, when, ambiguities: intent.ambiguities };
}

const anything =
  'any resource: Thames (1.01) / Severn (1.02) / Desk 23 / Desk 24 / Phone booth 1 / Phone booth 2 / Boardroom / Projector A';
const anyDesk = 'any desk: Desk 23 / Desk 24';
const noLength = 'no length given: 30 min';
const fromNow = 'no start given: from now';

type Row = [line: string, what: string, when: string, ambiguities?: string[]];

const londonRows: Row[] = [
  // The issue's own lines.
  ['desk tomorrow 14:00 for 90 min', anyDesk, 'Thu 26 Nov 14:00–15:30'],
  ['room for 6 at 3pm for 1h', 'any room for 6+: Thames (1.01) / Boardroom', 'Wed 25 Nov 15:00–16:00'],
  ['Thames now 30m', 'Thames (1.01)', 'Wed 25 Nov 10:20–10:50'],
  ['tmrw 9–10:30 severn', 'Severn (1.02)', 'Thu 26 Nov 09:00–10:30'],
  ['severn 9-10:30 tomorrow', 'Severn (1.02)', 'Thu 26 Nov 09:00–10:30'],
  ['a desk on friday 2pm-4pm', anyDesk, 'Fri 27 Nov 14:00–16:00'],
  ['boardroom next monday at 10 for 2 hours', 'Boardroom', 'Mon 30 Nov 10:00–12:00'],
  ['phone booth in 15 min for 20 min', 'Phone booth 1 / Phone booth 2', 'Wed 25 Nov 10:35–10:55'],
  ['now for half an hour', anything, 'Wed 25 Nov 10:20–10:50'],
  ['3pm', anything, 'Wed 25 Nov 15:00–15:30', [noLength]],
  // Bare hours: an afternoon's from 1 to 6, said; a morning's from 7; 24-hour ones as written.
  ['at 3', anything, 'Wed 25 Nov 15:00–15:30', ['“3” read as 15:00, not 03:00', noLength]],
  ['at 9', anything, 'Wed 25 Nov 09:00–09:30', [noLength, '09:00 today has passed']],
  ['at 21', anything, 'Wed 25 Nov 21:00–21:30', [noLength]],
  ['tomorrow 9', anything, 'Thu 26 Nov 09:00–09:30', [noLength]],
  ['tomorrow at 21:30 for 1h', anything, 'Thu 26 Nov 21:30–22:30'],
  ['tonight at 8', anything, 'Wed 25 Nov 20:00–20:30', ['“8” read as 20:00, not 08:00', noLength]],
  ['today 17:00 thames', 'Thames (1.01)', 'Wed 25 Nov 17:00–17:30', [noLength]],
  ['noon', anything, 'Wed 25 Nov 12:00–12:30', [noLength]],
  ['midday for an hour', anything, 'Wed 25 Nov 12:00–13:00'],
  // Ranges: the end is the first such time after the start; an am/pm at the end tells the start's.
  ['thames 12-1', 'Thames (1.01)', 'Wed 25 Nov 12:00–13:00'],
  ['severn 1-2', 'Severn (1.02)', 'Wed 25 Nov 13:00–14:00', ['“1” read as 13:00, not 01:00']],
  ['10-2 thames', 'Thames (1.01)', 'Wed 25 Nov 10:00–14:00', ['10:00 today has passed']],
  ['from 9 until 10:30 tomorrow', anything, 'Thu 26 Nov 09:00–10:30'],
  ['9 to 5 desk', anyDesk, 'Wed 25 Nov 09:00–17:00', ['09:00 today has passed']],
  ['desk 11-1pm', anyDesk, 'Wed 25 Nov 11:00–13:00'],
  ['projector tomorrow 9-12', 'Projector A', 'Thu 26 Nov 09:00–12:00'],
  ['23:00-01:00 desk', anyDesk, 'Wed 25 Nov 23:00–Thu 26 Nov 01:00', ['ends the next day, Thu 26 Nov 01:00']],
  ['14:00-13:00', anything, 'Wed 25 Nov 14:00–Thu 26 Nov 13:00', ['ends the next day, Thu 26 Nov 13:00']],
  // Lengths, alone (from now) or with a start.
  ['thames 1h', 'Thames (1.01)', 'Wed 25 Nov 10:20–11:20', [fromNow]],
  ['thames 1.5h', 'Thames (1.01)', 'Wed 25 Nov 10:20–11:50', [fromNow]],
  ['thames 1h30 at 14:00', 'Thames (1.01)', 'Wed 25 Nov 14:00–15:30'],
  ['thames for 2 hours 15', 'Thames (1.01)', 'Wed 25 Nov 10:20–12:35', [fromNow]],
  ['severn for an hour and a half tomorrow 10:00', 'Severn (1.02)', 'Thu 26 Nov 10:00–11:30'],
  ['desk 45 mins at 16:00', anyDesk, 'Wed 25 Nov 16:00–16:45'],
  ['thames until 15:00', 'Thames (1.01)', 'Wed 25 Nov 10:20–15:00', [fromNow]],
  ['now until 11:45', anything, 'Wed 25 Nov 10:20–11:45'],
  ['14:00 for 1h until 16:00', anything, 'Wed 25 Nov 14:00–16:00', ['both an end and a length given: 16:00 kept, 1 h left out']],
  ['at 14:00 in 15 min', anything, 'Wed 25 Nov 14:00–14:30', ['both a time and “in 15 min” given: the time kept', noLength]],
  // Days: a weekday is the next such day (today's own name is today, said); "next" is next week's.
  ['wednesday 3pm', anything, 'Wed 25 Nov 15:00–15:30', ['“wednesday” read as today, not next week', noLength]],
  ['this friday 10:00', anything, 'Fri 27 Nov 10:00–10:30', [noLength]],
  ['next friday 10:00', anything, 'Fri 4 Dec 10:00–10:30', ['“next friday” read as Fri 4 Dec, not Fri 27 Nov', noLength]],
  ['mon 9:30 desk', anyDesk, 'Mon 30 Nov 09:30–10:00', [noLength]],
  ['on thursday at noon boardroom', 'Boardroom', 'Thu 26 Nov 12:00–12:30', [noLength]],
  ['sun 14:00', anything, 'Sun 29 Nov 14:00–14:30', [noLength]],
  ['tomorrow', anything, 'Thu 26 Nov, no time', ['no time given']],
  ['thames friday', 'Thames (1.01)', 'Fri 27 Nov, no time', ['no time given']],
  // What to book: a name, a kind, a size, or words that name nothing (said, never guessed).
  ['8 people 14:00', 'any resource for 8+: Thames (1.01) / Boardroom', 'Wed 25 Nov 14:00–14:30', [noLength]],
  ['room 6+ at 14:00', 'any room for 6+: Thames (1.01) / Boardroom', 'Wed 25 Nov 14:00–14:30', [noLength]],
  ['thames for 10 at 14:00', 'Thames (1.01)', 'Wed 25 Nov 14:00–14:30', [noLength, 'no “thames” holds 10 people']],
  ['phone booth for 2 at 14:00', 'Phone booth 1 / Phone booth 2', 'Wed 25 Nov 14:00–14:30', [noLength, 'no “phone booth” holds 2 people']],
  ['room for 50 at 14:00', 'any room for 50+: ', 'Wed 25 Nov 14:00–14:30', [noLength]],
  ['equipment at 14:00', 'any equipment: Projector A', 'Wed 25 Nov 14:00–14:30', [noLength]],
  [
    'meeting room now',
    'any room: Thames (1.01) / Severn (1.02) / Phone booth 1 / Phone booth 2 / Boardroom',
    'Wed 25 Nov 10:20–10:50',
    [noLength],
  ],
  ['desk 23 now', 'Desk 23', 'Wed 25 Nov 10:20–10:50', [noLength]],
  ['1.02 at 14:00 for 30 min', 'Severn (1.02)', 'Wed 25 Nov 14:00–14:30'],
  ['AV kit at 11:00 for 1h', 'Projector A', 'Wed 25 Nov 11:00–12:00'],
  ['kitchen at 14:00', 'nothing called “kitchen”', 'Wed 25 Nov 14:00–14:30', [noLength]],
  ['book me a desk at 2pm please', anyDesk, 'Wed 25 Nov 14:00–14:30', [noLength]],
  ['Thames 2:30 p.m. for 45 minutes', 'Thames (1.01)', 'Wed 25 Nov 14:30–15:15'],
  ['THAMES, TOMORROW, 10AM', 'Thames (1.01)', 'Thu 26 Nov 10:00–10:30', [noLength]],
  ['thames 8:00 am to 9:15 am', 'Thames (1.01)', 'Wed 25 Nov 08:00–09:15', ['08:00 today has passed']],
  ['for 1 hour at 4pm thames', 'Thames (1.01)', 'Wed 25 Nov 16:00–17:00'],
  ['desk @ 15:00', anyDesk, 'Wed 25 Nov 15:00–15:30', [noLength]],
  ['desk at 2 tomorrow', anyDesk, 'Thu 26 Nov 14:00–14:30', ['“2” read as 14:00, not 02:00', noLength]],
];

const newYorkRows: Row[] = [
  // On a 12-hour clock a bare hour is said either way, and one whose morning has passed is the evening's.
  ['at 9', anything, 'Wed 25 Nov 21:00–21:30', ["“9” read as 9:00 PM: the morning's has passed", noLength]],
  ['at 9:30', anything, 'Wed 25 Nov 21:30–22:00', ["“9:30” read as 9:30 PM: the morning's has passed", noLength]],
  ['tomorrow 9', anything, 'Thu 26 Nov 09:00–09:30', ['“9” read as 9:00 AM, not 9:00 PM', noLength]],
  ['9pm', anything, 'Wed 25 Nov 21:00–21:30', [noLength]],
  ['at 5', anything, 'Wed 25 Nov 17:00–17:30', ['“5” read as 5:00 PM, not 5:00 AM', noLength]],
  [
    'thames at 4:30',
    'Thames (1.01)',
    'Wed 25 Nov 16:30–17:00',
    ['“4:30” read as 4:30 PM, not 4:30 AM', noLength, '4:30 PM today has passed'],
  ],
  ['4pm today', anything, 'Wed 25 Nov 16:00–16:30', [noLength, '4:00 PM today has passed']],
  ['desk tomorrow 2-3:30', anyDesk, 'Thu 26 Nov 14:00–15:30', ['“2” read as 2:00 PM, not 2:00 AM']],
  ['12-1 thames', 'Thames (1.01)', 'Wed 25 Nov 12:00–13:00', ['12:00 PM today has passed']],
  ['21:00 desk', anyDesk, 'Wed 25 Nov 21:00–21:30', [noLength]],
  ['severn 10:30pm-midnight', 'Severn (1.02)', 'Wed 25 Nov 22:30–Thu 26 Nov 00:00'],
  ['in 2 hours for 1h', anything, 'Wed 25 Nov 18:45–19:45'],
  ['next wednesday 3', anything, 'Wed 2 Dec 15:00–15:30', ['“3” read as 3:00 PM, not 3:00 AM', noLength]],
];

const otherRows: [context: PhraseContext, ...Row][] = [
  // Across the change to summer time, a day's hours are that day's: 09:00 BST.
  [beforeSummerTime, 'tomorrow 9 for 1h', anything, 'Sun 29 Mar 09:00–10:00'],
  [lateInTokyo, 'in 15 min for 1h', anything, 'Thu 26 Nov 00:05–01:05'],
  [lateInTokyo, 'tomorrow 9', anything, 'Thu 26 Nov 09:00–09:30', [noLength]],
];

/** Names, places, sizes and numbers alone: what the filter is for. */
const filters = [
  'floor 3',
  'thames',
  'desk 30',
  'room for 6',
  '8 people',
  'desk-2',
  '1.0',
  'S03',
  'head office floor 1',
  'sun',
  'desk 9',
  '',
  '   ',
];

describe('Type to book reads a line as a booking', () => {
  it.each(londonRows)('in London at 10:20 on a Wednesday (24-hour): %s', (line, what, when, ambiguities = []) => {
    const intent = readBookingPhrase(line, wednesdayMorningInLondon);
    expect(intent && described(intent)).toEqual({ what, when, ambiguities });
  });

  it.each(newYorkRows)('in New York at 4:45 PM on a Wednesday (12-hour): %s', (line, what, when, ambiguities = []) => {
    const intent = readBookingPhrase(line, wednesdayAfternoonInNewYork);
    expect(intent && described(intent)).toEqual({ what, when, ambiguities });
  });

  it.each(otherRows)('elsewhere: %#', (context, line, what, when, ambiguities = []) => {
    const intent = readBookingPhrase(line, context);
    expect(intent && described(intent)).toEqual({ what, when, ambiguities });
    expect(intent!.start!.zoneName).toBe(context.now.zoneName);
  });

  it.each(filters)('leaves %j to the filter', (line) => {
    expect(readBookingPhrase(line, wednesdayMorningInLondon)).toBeNull();
  });

  it('says what each part of the line was read as, in the order typed', () => {
    expect(readBookingPhrase('tmrw 9–10:30 severn', wednesdayMorningInLondon)!.understood).toEqual([
      { text: 'tmrw', meaning: 'Thu 26 Nov' },
      { text: '9-10:30', meaning: '09:00–10:30' },
      { text: 'severn', meaning: 'Severn (1.02)' },
    ]);
    expect(readBookingPhrase('room for 6 at 3pm for 1h', wednesdayAfternoonInNewYork)!.understood).toEqual([
      { text: 'room', meaning: 'any room' },
      { text: 'for 6', meaning: '6 people or more' },
      { text: 'at 3pm', meaning: '3:00 PM' },
      { text: 'for 1h', meaning: 'for 1 h' },
    ]);
  });

  it('gives the calendar day of the start', () => {
    expect(readBookingPhrase('desk tomorrow 14:00 for 90 min', wednesdayMorningInLondon)!.day).toBe('2026-11-26');
    expect(readBookingPhrase('in 15 min for 1h', lateInTokyo)!.day).toBe('2026-11-26');
  });
});

describe('Type to book does not depend on the machine', () => {
  const machineZone = Settings.defaultZone;
  afterEach(() => {
    Settings.defaultZone = machineZone;
  });

  it('reads the same in any machine zone', () => {
    const lines = [...londonRows.map(([line]) => line), ...filters];
    const inLondon = lines.map((line) => readBookingPhrase(line, wednesdayMorningInLondon));
    Settings.defaultZone = 'Pacific/Kiritimati';
    const inKiritimati = lines.map((line) => readBookingPhrase(line, wednesdayMorningInLondon));
    expect(inKiritimati.map((intent) => intent && described(intent))).toEqual(inLondon.map((intent) => intent && described(intent)));
  });
});

describe('What a resource is, for a phrase to name it', () => {
  const card = {
    resourceId: 9,
    face: { kind: 'other' as const, color: null },
    scheduleId: 1,
    scheduleName: 'Head office',
    location: 'Floor 2',
    features: [{ label: 'Screen', value: 'yes' }],
    standing: null,
  };

  it('goes by its innermost group, then its name, then whether it holds people', () => {
    expect(resourceKindOf({ name: 'Window seat', groupNames: ['Head office', 'Floor 2 desks'], capacity: null })).toBe('desk');
    expect(resourceKindOf({ name: 'Thames', groupNames: ['Rooms', 'Floor 1'], capacity: 8 })).toBe('room');
    expect(resourceKindOf({ name: 'Phone booth 2', groupNames: [], capacity: null })).toBe('room');
    expect(resourceKindOf({ name: 'Projector A', groupNames: [], capacity: null })).toBe('equipment');
    expect(resourceKindOf({ name: 'Thames', groupNames: [], capacity: 8 })).toBe('room');
    expect(resourceKindOf({ name: 'Thames', groupNames: [], capacity: null })).toBeNull();
  });

  it('finds a Free now card by its place, schedule, groups and features as well as its name', () => {
    const resource = phraseResourceOf({ ...card, name: 'Window seat', groupNames: ['Floor 2 desks'], capacity: null });
    expect(resource).toMatchObject({ id: 9, kind: 'desk', capacity: null });
    const context = { ...wednesdayMorningInLondon, resources: [resource] };
    for (const line of ['window at 14:00', 'screen at 14:00', 'head office at 14:00', 'floor 2 at 14:00']) {
      expect(readBookingPhrase(line, context)!.resource).toEqual({ by: 'name', words: line.replace(' at 14:00', ''), ids: [9] });
    }
  });
});
