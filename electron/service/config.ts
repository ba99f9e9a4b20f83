/** Server-side settings that real servers keep in their configuration file, not in the API. */
export interface ServiceConfig {
  /** Inactivity after which a session lapses; every authenticated call slides it. */
  sessionMinutes: number;
  /** Minutes before start at which check-in opens. */
  checkInOpensMinutes: number;
  allowSelfRegistration: boolean;
  /** Sent as `version` by Authenticate. */
  version: string;
}

export const defaultServiceConfig: ServiceConfig = {
  sessionMinutes: 30,
  checkInOpensMinutes: 5,
  allowSelfRegistration: true,
  version: '2.9',
};
