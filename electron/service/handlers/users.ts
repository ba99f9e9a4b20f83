import type { HandlerMap } from './types.js';

export const userHandlers = {} satisfies Partial<HandlerMap>;
