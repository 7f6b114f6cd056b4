import { InvalidUsageError } from './errors.js';

/** A provider-reported input size, pinned to the head it was measured on. Tokens. */
export interface Measurement {
  /** Head (e.g. commit or node id) whose render was sent. */
  readonly head: string;
  /** Input tokens the provider reported for it (uncached + cache writes + cache reads). */
  readonly total: number;
}

/** Immutable occupancy state of one session: its window and the latest measurement. */
export interface OccupancyState {
  /** Context window, tokens. */
  readonly window: number;
  /** Latest provider measurement, if any. */
  readonly measurement?: Measurement;
}

/** Options of {@link createOccupancyState}. */
export interface OccupancyStateOptions {
  /** Context window, tokens (positive integer). */
  readonly window: number;
}

/** Throws unless `value` is a non-negative safe integer. */
export function checkCount(field: string, value: unknown, min = 0): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
    throw new InvalidUsageError(field, value, `an integer number of tokens ≥ ${min}`);
  }
  return value;
}

/**
 * Creates an empty occupancy state (no measurement yet).
 *
 * @param options - the window, tokens
 * @returns the frozen state
 * @throws {@link InvalidUsageError} when the window is not a positive integer
 * @example
 * ```ts
 * const state = createOccupancyState({ window: 128_000 }); // { window: 128000 }
 * ```
 */
export function createOccupancyState(options: OccupancyStateOptions): OccupancyState {
  return Object.freeze({ window: checkCount('window', options.window, 1) });
}
