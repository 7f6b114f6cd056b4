export { main, VERSION } from './main.js';
export type { CliIo, CliStream } from './io.js';
export { CliError } from './errors.js';
export type { CliErrorData } from './errors.js';
export { DEFAULT_REPO } from './options.js';
export { DEFAULT_IMPORT_MODEL } from './commands/import.js';
export { SYNTHETIC_EPOCH_MS } from './synthetic-clock.js';
