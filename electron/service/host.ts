/** The local service host process's entry (see host-process.ts), on the system clock. */
import { systemClock } from './clock.js';
import { runServiceHost } from './host-process.js';

runServiceHost(systemClock);
