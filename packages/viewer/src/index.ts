export { createViewer } from './viewer.js';
export type { Viewer, ViewerOptions } from './viewer.js';
export type { TurnEvent } from './http/event-stream.js';
export { ViewerError } from './errors.js';
export type { ViewerErrorCode, ViewerErrorData } from './errors.js';
export { DEFAULT_PRICES } from './prices.js';
export type { PriceTable } from './prices.js';
