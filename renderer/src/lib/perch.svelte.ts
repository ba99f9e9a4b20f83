/**
 * The popover's whole state: the core's latest snapshot, the settings, which commands are in
 * flight and how the last ones failed. Views read it and call its methods; none of them talks to
 * `window.perch` directly, so the snapshot stays in step with every answer the bridge gives.
 */
import { SvelteMap } from 'svelte/reactivity';
import type {
  AttributeView,
  BookDraft,
  BookingOutcome,
  BookRequest,
  BridgeError,
  BridgeResult,
  CancelRequest,
  ExtensionOffer,
  FreeAtRequest,
  FreeResourceView,
  MoveRequest,
  PerchApi,
  PhrasePreview,
  RecurrenceView,
  ReservationDetailsView,
  ReservationView,
  ResourceView,
  ScheduleView,
  Settings,
  SettingsPatch,
  SignInRequest,
  SlotView,
  StateSnapshot,
  ThemeSetting,
} from '$bridge/contract.js';
import { browserTimeFormat, createDateFormat, systemTimeZone, type DateFormat } from './format.js';
import { nextReservation } from '$bridge/reservations.js';
import { rowControl, type ActionFailure } from './reservation-status.js';

export type TabId = 'now' | 'book' | 'reservations' | 'settings';

/** How often countdowns move; a minute's resolution is all they show. */
const tickMs = 15_000;

/** A call to the core that failed outright; what it threw is for the log, not for the person. */
function unexpected(cause: unknown): BridgeError {
  console.error('Perch: a call to the app failed', cause);
  return { kind: 'unexpected', message: 'Perch did not answer. Try again; if it keeps happening, quit Perch and open it again.' };
}

export class PerchStore {
  readonly api: PerchApi;

  /** Null until the first answer from the core. */
  snapshot = $state<StateSnapshot | null>(null);
  settings = $state<Settings | null>(null);
  resources = $state<ResourceView[] | null>(null);
  /** The most recent failure of any command, for a global notice. */
  lastError = $state<BridgeError | null>(null);
  tab = $state<TabId>('now');
  /** A booking for the Book form to open with, filled in ("Book…" in Free now or the tray); the form takes it. */
  bookDraft = $state<BookDraft | null>(null);
  /** A reservation a clicked notification asked to show. */
  highlight = $state<string | null>(null);
  /** A notification's "I'm not coming" was pressed: the reservation's card or row asks it again; the one that does takes it. */
  releaseAsked = $state<string | null>(null);
  /**
   * The failure of the last action on a reservation, in one line, with the id of the control that
   * caused it: shown beside that control only, gone at the next action.
   */
  actionFailure = $state<ActionFailure | null>(null);
  /** The core's "now", advanced locally between snapshots so countdowns move. */
  nowMs = $state(Date.now());

  /** In-flight commands and their failures, keyed by command (and reference number for per-row actions). */
  readonly #busy = new SvelteMap<string, number>();
  readonly #errors = new SvelteMap<string, BridgeError>();
  /** Series rules by series key, once read; a rule never changes under Perch. */
  readonly #recurrences = new SvelteMap<string, RecurrenceView | null>();
  /** Series whose rule was asked for (not reactive: asking is no reason to draw anything again). */
  readonly #recurrencesAsked = new Set<string>();
  /** The theme chosen in Settings while the core has not yet answered. */
  #themePreview = $state<ThemeSetting | null>(null);
  /** The last settings change sent to the core; the next waits for it. */
  #settingsQueue: Promise<unknown> = Promise.resolve();
  /** The theme to show: the one just chosen, else the stored one. */
  readonly theme: ThemeSetting = $derived(this.#themePreview ?? this.settings?.theme ?? 'system');
  /** Core clock minus this page's clock, so a snapshot's `now` is honoured (tests use a manual clock). */
  #skewMs = 0;

  /** A string of its own, so a new snapshot in the same timezone does not rebuild the formatters. */
  readonly #timeZone = $derived(this.snapshot?.account?.timezone ?? systemTimeZone());
  readonly #locale = $derived(this.snapshot?.timeFormat.locale ?? null);
  readonly #hourCycle = $derived(this.snapshot?.timeFormat.hourCycle ?? null);
  readonly format: DateFormat = $derived(
    createDateFormat(
      this.#timeZone,
      this.#locale !== null && this.#hourCycle !== null ? { locale: this.#locale, hourCycle: this.#hourCycle } : browserTimeFormat(),
    ),
  );
  readonly phase = $derived(this.snapshot?.phase ?? null);
  /** Signing in for the first time keeps the form up; switching accounts keeps the tabs. */
  readonly needsSignIn = $derived(
    this.snapshot !== null &&
      (this.snapshot.phase === 'signedOut' || (this.snapshot.phase === 'signingIn' && this.snapshot.account === null)),
  );
  readonly offline = $derived(this.snapshot?.offline ?? false);
  /** Signed in, but the first fetch has not answered yet. */
  readonly loading = $derived(this.snapshot === null || (this.snapshot.fetchedAt === null && !this.snapshot.offline));

  constructor(api: PerchApi = window.perch) {
    this.api = api;
  }

  /** Subscribes to the core's events and loads the first state; returns the way to stop. */
  start(): () => void {
    const stops = [
      this.api.on('stateChanged', (snapshot) => this.#adopt(snapshot)),
      this.api.on('navigate', (target) => {
        if ('book' in target) {
          this.openBookForm(target.book);
          return;
        }
        const { referenceNumber, failed } = target;
        // "I'm not coming" is asked on the Next card when the booking is on it, else on its row in My reservations.
        if (target.confirm === 'release') {
          this.releaseAsked = referenceNumber;
          if (nextReservation(this.snapshot?.reservations ?? [], this.nowMs)?.referenceNumber === referenceNumber) {
            this.tab = 'now';
            return;
          }
        }
        this.highlight = referenceNumber;
        this.tab = 'reservations';
        // A notification's button failed: its error shows beside the row's own control for it.
        if (failed)
          this.actionFailure = {
            control: rowControl(referenceNumber, failed.command === 'checkIn' ? 'primary' : 'menu'),
            message: failed.error.message,
          };
      }),
    ];
    // Countdowns move only while someone can see them: a closed popover is a hidden page, and a
    // clock ticking there would wake the app for nothing (issue 23). Shown again, it is right at once.
    let timer: ReturnType<typeof setInterval> | null = null;
    const followVisibility = () => {
      if (document.hidden) {
        if (timer !== null) clearInterval(timer);
        timer = null;
      } else if (timer === null) {
        this.#tick();
        timer = setInterval(() => this.#tick(), tickMs);
      }
    };
    document.addEventListener('visibilitychange', followVisibility);
    followVisibility();
    void this.api.getState().then(
      (snapshot) => this.#adopt(snapshot),
      (cause: unknown) => this.#fail('getState', unexpected(cause)),
    );
    void this.loadSettings();
    return () => {
      document.removeEventListener('visibilitychange', followVisibility);
      if (timer !== null) clearInterval(timer);
      for (const stop of stops) stop();
    };
  }

  isBusy(key: string): boolean {
    return (this.#busy.get(key) ?? 0) > 0;
  }

  errorOf(key: string): BridgeError | null {
    return this.#errors.get(key) ?? null;
  }

  clearError(key: string): void {
    this.#errors.delete(key);
  }

  /** Minutes from the core's now to `iso` (negative when past). */
  minutesUntil(iso: string): number {
    return Math.round((Date.parse(iso) - this.nowMs) / 60_000);
  }

  signIn(request: SignInRequest): Promise<BridgeResult<StateSnapshot>> {
    return this.#startSession('signIn', () => this.api.signIn(request));
  }

  /** Starts the private service on this computer and signs in to the person's own account there. */
  tryThisComputer(): Promise<BridgeResult<StateSnapshot>> {
    return this.#startSession('tryThisComputer', () => this.api.tryThisComputer());
  }

  async signOut(): Promise<BridgeResult<StateSnapshot>> {
    const result = await this.#run('signOut', () => this.api.signOut());
    if (result.ok) {
      this.#adopt(result.value);
      this.resources = null;
      this.tab = 'now';
    }
    return result;
  }

  async refresh(): Promise<void> {
    await this.#run('refresh', async () => ({ ok: true, value: this.#adopt(await this.api.refresh()) }) as const);
  }

  /** The refresh, and the resources, schedules and permissions Perch keeps for 12 hours read again. */
  async reloadEverything(): Promise<BridgeResult<StateSnapshot>> {
    const result = await this.#run(
      'reloadEverything',
      async () => ({ ok: true, value: this.#adopt(await this.api.reloadEverything()) }) as const,
    );
    // The Book view's list of resources is read again when it is next shown.
    if (result.ok) this.resources = null;
    return result;
  }

  async book(request: BookRequest): Promise<BridgeResult<BookingOutcome>> {
    const result = await this.#run('book', () => this.api.book(request));
    // The booking appears in the next snapshot; ask for it now rather than waiting for the poll.
    if (result.ok) this.#adopt(await this.api.getState());
    return result;
  }

  /** What is free over a time to come ("free at 14:00 for 1 h"). */
  freeAt(request: FreeAtRequest): Promise<BridgeResult<FreeResourceView[]>> {
    return this.#run('freeAt', () => this.api.freeAt(request));
  }

  /**
   * What a typed line would book, in words; null when it is not a booking (it stays a filter). A
   * question, not an action: an answer that cannot come (offline, a failure) is no preview.
   */
  async readPhrase(text: string): Promise<PhrasePreview | null> {
    try {
      const result = await this.api.readPhrase({ text });
      return result.ok ? result.value : null;
    } catch {
      return null;
    }
  }

  /** Books what a typed line says, read again now; busy and refreshed as any booking. */
  async bookPhrase(text: string): Promise<BridgeResult<BookingOutcome>> {
    const result = await this.#run('book', () => this.api.bookPhrase({ text, title: '' }));
    if (result.ok) this.#adopt(await this.api.getState());
    return result;
  }

  /** Opens the Book form filled in with a resource, start and length, for the rest to be filled in there. */
  openBookForm(draft: BookDraft): void {
    this.bookDraft = draft;
    this.tab = 'book';
  }

  async checkIn(referenceNumber: string): Promise<BridgeResult<ReservationView>> {
    return this.#updateReservation(`checkIn:${referenceNumber}`, () => this.api.checkIn({ referenceNumber }));
  }

  async checkOut(referenceNumber: string): Promise<BridgeResult<ReservationView>> {
    return this.#updateReservation(`checkOut:${referenceNumber}`, () => this.api.checkOut({ referenceNumber }));
  }

  async extend(referenceNumber: string, minutes: number): Promise<BridgeResult<ReservationView>> {
    return this.#updateReservation(`extend:${referenceNumber}`, () => this.api.extend({ referenceNumber, minutes }));
  }

  /**
   * What Extend would offer now. A question, not an action: when it cannot be answered (offline,
   * refused) there is simply no offer, and no error to show.
   */
  async offerExtension(referenceNumber: string): Promise<ExtensionOffer | null> {
    try {
      const result = await this.api.offerExtension({ referenceNumber });
      return result.ok ? result.value : null;
    } catch {
      return null;
    }
  }

  async retitle(referenceNumber: string, title: string): Promise<BridgeResult<ReservationView>> {
    const result = await this.#updateReservation(`retitle:${referenceNumber}`, () => this.api.retitle({ referenceNumber, title }));
    // A date of a series renamed on its own may come back under a new reference: the list is read again.
    if (result.ok && result.value.referenceNumber !== referenceNumber) await this.refresh();
    return result;
  }

  /** Another time or resource: the list comes back read again (an occurrence moved may have a new reference). */
  async move(request: MoveRequest): Promise<BridgeResult<StateSnapshot>> {
    const result = await this.#run(`move:${request.referenceNumber}`, () => this.api.move(request));
    if (result.ok) this.#adopt(result.value);
    return result;
  }

  /** What the list does not carry of one reservation, for its details. */
  reservationDetails(referenceNumber: string): Promise<BridgeResult<ReservationDetailsView>> {
    return this.#run(`details:${referenceNumber}`, () => this.api.getReservationDetails({ referenceNumber }));
  }

  /** Opens the reservation's page on the server's website, in the user's browser. */
  openOnServer(referenceNumber: string): Promise<BridgeResult<null>> {
    return this.#run(`openOnServer:${referenceNumber}`, () => this.api.openOnServer({ referenceNumber }));
  }

  copyText(text: string): Promise<BridgeResult<null>> {
    return this.#run('copyText', () => this.api.copyText({ text }));
  }

  /** "I'm not coming": cancelled before the start, checked out after it. */
  async release(referenceNumber: string): Promise<BridgeResult<StateSnapshot>> {
    const result = await this.#run(`release:${referenceNumber}`, () => this.api.release({ referenceNumber }));
    if (result.ok) this.#adopt(result.value);
    return result;
  }

  async cancel(request: CancelRequest): Promise<BridgeResult<StateSnapshot>> {
    const result = await this.#run(`cancel:${request.referenceNumber}`, () => this.api.cancel(request));
    if (result.ok) this.#adopt(result.value);
    return result;
  }

  /** The rule of a reservation's series: undefined until read (see `loadRecurrence`), null for none. */
  recurrenceOf(seriesKey: string): RecurrenceView | null | undefined {
    return this.#recurrences.get(seriesKey);
  }

  /** Reads a series' rule once, when a view shows the series. */
  async loadRecurrence(reservation: ReservationView): Promise<void> {
    const key = reservation.seriesKey;
    if (key === null || this.#recurrencesAsked.has(key)) return;
    this.#recurrencesAsked.add(key);
    const result = await this.#run(`recurrence:${key}`, () => this.api.getRecurrence({ referenceNumber: reservation.referenceNumber }));
    if (result.ok) this.#recurrences.set(key, result.value);
    // Asked again the next time the series is shown.
    else this.#recurrencesAsked.delete(key);
  }

  async listResources(): Promise<BridgeResult<ResourceView[]>> {
    const result = await this.#run('listResources', () => this.api.listResources());
    if (result.ok) this.resources = result.value;
    return result;
  }

  listSchedules(): Promise<BridgeResult<ScheduleView[]>> {
    return this.#run('listSchedules', () => this.api.listSchedules());
  }

  listSlots(resourceId: number, date: string): Promise<BridgeResult<SlotView[]>> {
    return this.#run('listSlots', () => this.api.listSlots({ resourceId, date }));
  }

  listReservationAttributes(): Promise<BridgeResult<AttributeView[]>> {
    return this.#run('listReservationAttributes', () => this.api.listReservationAttributes());
  }

  async loadSettings(): Promise<void> {
    await this.#run('getSettings', async () => {
      this.settings = await this.api.getSettings();
      return { ok: true, value: this.settings } as const;
    });
  }

  /**
   * Applies a change to the settings. Changes go to the core one after another: it reads the
   * settings, applies the patch and writes them, so two at once could lose one of them.
   */
  async saveSettings(patch: SettingsPatch): Promise<BridgeResult<Settings>> {
    // A theme shows at once, before the core has written it; a refusal falls back to the stored one.
    if (patch.theme !== undefined) this.#themePreview = patch.theme;
    const applied = this.#settingsQueue.then(() => this.#run('setSettings', () => this.api.setSettings(patch)));
    this.#settingsQueue = applied;
    const result = await applied;
    if (result.ok) this.settings = result.value;
    if (patch.theme !== undefined && this.#themePreview === patch.theme) this.#themePreview = null;
    return result;
  }

  async #startSession(
    key: 'signIn' | 'tryThisComputer',
    command: () => Promise<BridgeResult<StateSnapshot>>,
  ): Promise<BridgeResult<StateSnapshot>> {
    const result = await this.#run(key, command);
    if (result.ok) {
      this.#adopt(result.value);
      void this.loadSettings();
    }
    return result;
  }

  #adopt(snapshot: StateSnapshot): StateSnapshot {
    this.snapshot = snapshot;
    this.#skewMs = Date.parse(snapshot.now) - Date.now();
    this.#tick();
    return snapshot;
  }

  #tick(): void {
    this.nowMs = Date.now() + this.#skewMs;
  }

  async #updateReservation(key: string, command: () => Promise<BridgeResult<ReservationView>>): Promise<BridgeResult<ReservationView>> {
    const result = await this.#run(key, command);
    if (result.ok && this.snapshot !== null) {
      const updated = result.value;
      this.snapshot = {
        ...this.snapshot,
        reservations: this.snapshot.reservations.map((r) => (r.referenceNumber === updated.referenceNumber ? updated : r)),
      };
    }
    return result;
  }

  /** Runs a command with its busy flag and records its failure; a rejected call becomes an error value. */
  async #run<T>(key: string, command: () => Promise<BridgeResult<T>>): Promise<BridgeResult<T>> {
    this.#busy.set(key, (this.#busy.get(key) ?? 0) + 1);
    this.#errors.delete(key);
    let result: BridgeResult<T>;
    try {
      result = await command();
    } catch (cause) {
      result = { ok: false, error: unexpected(cause) };
    } finally {
      const left = (this.#busy.get(key) ?? 1) - 1;
      if (left > 0) this.#busy.set(key, left);
      else this.#busy.delete(key);
    }
    if (!result.ok) this.#fail(key, result.error);
    return result;
  }

  #fail(key: string, error: BridgeError): void {
    this.#errors.set(key, error);
    this.lastError = error;
  }
}
