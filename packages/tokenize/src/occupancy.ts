import { InvalidUsageError } from './errors.js';
import { checkCount } from './occupancy-state.js';
import type { OccupancyState } from './occupancy-state.js';

/** How full the context is for one head. Tokens; field names are part of the contract (`total_used`). */
export interface Occupancy {
  /** Context window, tokens. */
  readonly window: number;
  /** Tokens in use: the measurement when `basis` is `measured`, else the estimate. */
  readonly total_used: number;
  /** `measured` when the provider reported usage for this very head, else `estimated`. */
  readonly basis: 'measured' | 'estimated';
  /** Our own count for this head (e.g. {@link countRequest} `total`), tokens. */
  readonly estimated: number;
  /** `measured / estimated` for this head; present only when measured and the estimate is positive. */
  readonly calibration?: number;
}

/** What {@link occupancy} is asked about. */
export interface OccupancyQuery {
  /** The current head. */
  readonly head: string;
  /** Our count for the current head's render, tokens. */
  readonly estimated: number;
}

/**
 * The occupancy record for the current head.
 *
 * @remarks A measurement belongs to the head it was taken on: right after {@link recordUsage} for `head` the record is
 * `measured` (`total_used` = input + cache read + cache write, `calibration = measured / estimated`); once the head
 * moves it is `estimated` (`total_used` = `estimated`, no calibration).
 *
 * @param state - the occupancy state
 * @param query - current head and our estimate for it
 * @returns the frozen record
 * @throws {@link InvalidUsageError} for an empty head or an estimate that is not a non-negative integer
 * @example
 * ```ts
 * const s = recordUsage(createOccupancyState({ window: 200_000 }), { head: 'c1', inputTokens: 1_100 });
 * occupancy(s, { head: 'c1', estimated: 1_000 }); // { window: 200000, total_used: 1100, basis: 'measured', estimated: 1000, calibration: 1.1 }
 * occupancy(s, { head: 'c2', estimated: 1_500 }); // { window: 200000, total_used: 1500, basis: 'estimated', estimated: 1500 }
 * ```
 */
export function occupancy(state: OccupancyState, query: OccupancyQuery): Occupancy {
  if (typeof query.head !== 'string' || query.head === '') throw new InvalidUsageError('head', query.head, 'a non-empty string');
  const estimated = checkCount('estimated', query.estimated);
  const m = state.measurement;
  if (m === undefined || m.head !== query.head) {
    return Object.freeze({ window: state.window, total_used: estimated, basis: 'estimated', estimated });
  }
  const record: Occupancy = { window: state.window, total_used: m.total, basis: 'measured', estimated };
  return Object.freeze(estimated > 0 ? { ...record, calibration: m.total / estimated } : record);
}
