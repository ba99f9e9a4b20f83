import type { HandlerMap } from './types.js';

export const scheduleHandlers = {} satisfies Partial<HandlerMap>;
