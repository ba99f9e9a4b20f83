/**
 * The judge of the simulated weeks: what a user should have been shown, worked out from the
 * server's true history (what the test did to it, and when) and the laptop's sleeps, without
 * Perch's planner. It reads the notices Perch showed and counts those missed, duplicate, stale and
 * late, by the rules of issue 23 and the README's notification table.
 */

/** The user's lead times: the defaults a new user has (README, Notifications). */
export const leads = { startReminderMinutes: 10, endReminderMinutes: 5, checkInMinutes: 5, releaseWarningMinutes: 5 };
/** Within this of a change made elsewhere, Perch may not know it yet (a booking made 10 minutes ahead still gets its reminder). */
export const knowMs = 10 * 60_000;
/** A notice later than this after its moment, while awake, is late. */
export const lateMs = 60_000;

const minuteMs = 60_000;

/** One booking as the server has it from `at` on. */
export interface Version {
  at: number;
  start: number;
  end: number;
  checkedIn: boolean;
  /** Needs check-in, released this many minutes after its start unless checked in. */
  autoReleaseMinutes: number | null;
  gone: null | 'cancelled' | 'released';
}

export interface ShownNotice {
  at: number;
  id: string;
  referenceNumber: string;
  title: string;
}

export interface Sleep {
  from: number;
  to: number;
}

export interface Verdict {
  shown: number;
  missed: string[];
  duplicate: string[];
  stale: string[];
  late: string[];
}

type TimedKind = 'startReminder' | 'checkInOpen' | 'autoReleaseWarning' | 'endReminder';
const timedKinds = new Set<string>(['startReminder', 'checkInOpen', 'autoReleaseWarning', 'endReminder']);

export class TrueHistory {
  readonly versions = new Map<string, Version[]>();
  readonly titles = new Map<string, string>();

  record(referenceNumber: string, version: Version, name = ''): void {
    const list = this.versions.get(referenceNumber) ?? [];
    list.push(version);
    this.versions.set(referenceNumber, list);
    if (name !== '') this.titles.set(referenceNumber, name);
  }

  /** The booking as it stands at `t`; undefined before it was made. */
  at(referenceNumber: string, t: number): Version | undefined {
    return this.versions
      .get(referenceNumber)
      ?.filter((version) => version.at <= t)
      .at(-1);
  }

  latest(referenceNumber: string): Version | undefined {
    return this.versions.get(referenceNumber)?.at(-1);
  }
}

const iso = (ms: number) => new Date(ms).toISOString();

function parseId(id: string): { kind: string; referenceNumber: string; momentMs: number } {
  const [kind = '', referenceNumber = '', ...rest] = id.split(':');
  return { kind, referenceNumber, momentMs: Date.parse(rest.join(':')) };
}

/** When a timed notice about a booking starting at `start` and ending at `end` is due. */
function momentOf(kind: TimedKind, version: Pick<Version, 'start' | 'end' | 'autoReleaseMinutes'>): number {
  const needsCheckIn = version.autoReleaseMinutes !== null;
  switch (kind) {
    case 'startReminder':
    case 'checkInOpen':
      // With check-in, the start reminder (10 minutes before) comes with check-in opening (5 before).
      return version.start - (needsCheckIn ? leads.checkInMinutes : leads.startReminderMinutes) * minuteMs;
    case 'autoReleaseWarning':
      return version.start + ((version.autoReleaseMinutes ?? 0) - leads.releaseWarningMinutes) * minuteMs;
    case 'endReminder':
      return version.end - leads.endReminderMinutes * minuteMs;
  }
}

/** `endMs`: where the simulation stopped; moments whose notice could still come after it are not judged. */
export function judge(history: TrueHistory, shown: readonly ShownNotice[], sleeps: readonly Sleep[], endMs: number): Verdict {
  const verdict: Verdict = { shown: shown.length, missed: [], duplicate: [], stale: [], late: [] };
  const awakeThrough = (from: number, to: number) => !sleeps.some((sleep) => sleep.from < to && sleep.to > from);
  /** A wake-up between `from` and `to`: its read would have told Perch what changed before it. */
  const wokeBetween = (from: number, to: number) => sleeps.some((sleep) => sleep.to >= from && sleep.to <= to);
  const describe = (notice: ShownNotice) => `${iso(notice.at)} "${notice.title}" (${notice.id})`;

  const ids = new Set<string>();
  for (const notice of shown) {
    if (ids.has(notice.id)) verdict.duplicate.push(describe(notice));
    ids.add(notice.id);
  }

  for (const notice of shown) {
    const { kind, referenceNumber, momentMs } = parseId(notice.id);
    const now = history.at(referenceNumber, notice.at);
    const versions = history.versions.get(referenceNumber) ?? [];
    /** The last change at or before the notice: whether Perch could have known it. */
    const changedAt = now?.at ?? Number.NEGATIVE_INFINITY;
    const knowable = changedAt <= notice.at - knowMs || wokeBetween(changedAt, notice.at);
    if (kind === 'released') {
      if (now === undefined || now.gone === null) verdict.stale.push(`released while still booked: ${describe(notice)}`);
      else if (now.gone === 'cancelled' && notice.title.includes('you did not check in'))
        verdict.stale.push(`cancelled, told as not checked in: ${describe(notice)}`);
      continue;
    }
    if (!timedKinds.has(kind) || now === undefined) continue;
    const timed = kind as TimedKind;
    const about = timed === 'endReminder' ? now.end : now.start;
    const wrong =
      now.gone !== null ||
      about !== momentMs ||
      notice.at > now.end ||
      (timed !== 'endReminder' && timed !== 'startReminder' && now.checkedIn);
    if (wrong && knowable) {
      verdict.stale.push(
        `${describe(notice)}: the booking was ${now.gone ?? (about !== momentMs ? `moved to ${iso(about)}` : now.checkedIn ? 'checked in' : 'over')} since ${iso(changedAt)}`,
      );
      continue;
    }
    // Late: against the moment of the version the notice is about.
    const version = versions.filter((candidate) => (timed === 'endReminder' ? candidate.end : candidate.start) === momentMs).at(-1);
    if (version === undefined) continue;
    const due = momentOf(timed, version);
    const firstKnown = versions.find((candidate) => candidate === version)!.at;
    const sleptAfter = sleeps.filter((sleep) => sleep.to > due && sleep.from < notice.at).at(-1);
    const allowed = Math.max(due, firstKnown + knowMs, sleptAfter?.to ?? Number.NEGATIVE_INFINITY) + lateMs;
    if (notice.at > allowed) verdict.late.push(`${describe(notice)}: due ${iso(due)}`);
  }

  const shownFor = (referenceNumber: string, kinds: readonly string[], key: number, from: number, to: number) =>
    shown.some((notice) => {
      const parsed = parseId(notice.id);
      return (
        parsed.referenceNumber === referenceNumber &&
        kinds.includes(parsed.kind) &&
        parsed.momentMs === key &&
        notice.at >= from &&
        notice.at <= to
      );
    });
  for (const [referenceNumber, versions] of history.versions) {
    const name = history.titles.get(referenceNumber) ?? referenceNumber;
    for (const [index, version] of versions.entries()) {
      if (version.gone !== null) continue;
      const until = Math.min(versions[index + 1]?.at ?? Number.POSITIVE_INFINITY, endMs);
      const expect = (kind: TimedKind, accepted: readonly string[], key: number) => {
        const due = momentOf(kind, version);
        // Only a moment the version held steadily around, while awake, must have its notice.
        if (due < version.at + knowMs || due + lateMs > until || !awakeThrough(due - minuteMs, due + lateMs)) return;
        if (!shownFor(referenceNumber, accepted, key, due - lateMs, due + lateMs)) verdict.missed.push(`${name}: ${kind} due ${iso(due)}`);
      };
      if (version.checkedIn) {
        expect('endReminder', ['endReminder'], version.end);
        continue;
      }
      expect('startReminder', ['startReminder', 'checkInOpen'], version.start);
      expect('endReminder', ['endReminder'], version.end);
      if (version.autoReleaseMinutes !== null && version.start + version.autoReleaseMinutes * minuteMs < version.end) {
        expect('autoReleaseWarning', ['autoReleaseWarning'], version.start);
      }
    }
    // A release the server made while Perch watched is told within a minute.
    const releasedAt = versions.find((version) => version.gone === 'released')?.at;
    const before = versions.filter((version) => version.gone === null).at(-1);
    if (
      releasedAt !== undefined &&
      before !== undefined &&
      awakeThrough(releasedAt - knowMs, releasedAt + lateMs) &&
      releasedAt + lateMs <= endMs
    ) {
      if (!shownFor(referenceNumber, ['released'], before.start, releasedAt, releasedAt + lateMs + minuteMs))
        verdict.missed.push(`${name}: released at ${iso(releasedAt)}, not told`);
    }
    // A check-in moment slept through, for a booking under way and unchecked on waking: one catch-up.
    for (const sleep of sleeps) {
      const state = history.at(referenceNumber, sleep.to);
      if (state === undefined || state.gone !== null || state.checkedIn || state.autoReleaseMinutes === null || sleep.to + lateMs > endMs)
        continue;
      const releaseMs = state.start + state.autoReleaseMinutes * minuteMs;
      const opened = momentOf('checkInOpen', state);
      const stillOpen = state.start <= sleep.to && sleep.to + lateMs < Math.min(releaseMs, state.end);
      const changedLater = (history.versions.get(referenceNumber) ?? []).some(
        (version) => version.at > sleep.to && version.at <= sleep.to + lateMs,
      );
      if (!stillOpen || opened < sleep.from || changedLater) continue;
      if (!shownFor(referenceNumber, ['checkInOpen', 'autoReleaseWarning'], state.start, sleep.to, sleep.to + lateMs))
        verdict.missed.push(`${name}: no check-in catch-up on waking at ${iso(sleep.to)}`);
    }
  }
  return verdict;
}
