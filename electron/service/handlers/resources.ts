import type { HandlerMap } from './types.js';

export const resourceHandlers = {} satisfies Partial<HandlerMap>;
