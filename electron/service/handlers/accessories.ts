import type { HandlerMap } from './types.js';

export const accessoryHandlers = {} satisfies Partial<HandlerMap>;
