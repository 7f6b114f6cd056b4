import type { Clock } from '@ctxgit/dag';

/**
 * A session's clock and the last time it gave. The session's DAG commits are dated by that last time (its newest
 * node's, or its newest commit's), so dating them calls the clock no more often than the nodes and commits do.
 */
export interface SessionClock {
  /** The clock: each call is a new time. */
  readonly now: Clock;
  /** The time `now` gave last (the clock is called once if it never was). */
  readonly last: Clock;
  /** The clock this one tracks. */
  readonly source: Clock;
}

/** Tracks a clock's last time. */
export function trackClock(source: Clock): SessionClock {
  let last: number | undefined;
  const now = (): number => (last = source());
  return { now, last: () => last ?? now(), source };
}
