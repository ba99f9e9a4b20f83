import type { HandlerMap } from './types.js';

export const accountHandlers = {} satisfies Partial<HandlerMap>;
