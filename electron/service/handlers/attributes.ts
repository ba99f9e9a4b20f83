import type { HandlerMap } from './types.js';

export const attributeHandlers = {} satisfies Partial<HandlerMap>;
