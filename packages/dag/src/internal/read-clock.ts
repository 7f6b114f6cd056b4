import { InvalidArgumentError } from '../errors.js';
import type { Clock } from '../options.js';

/** Reads the clock once and checks it gave a finite number. */
export function readClock(clock: Clock): number {
  const t = clock();
  if (typeof t !== 'number' || !Number.isFinite(t)) throw new InvalidArgumentError({ argument: 'options.clock', reason: `returned ${String(t)}; expected finite milliseconds` });
  return t;
}
