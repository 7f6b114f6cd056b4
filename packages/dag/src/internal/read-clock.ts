import { InvalidArgumentError } from '../errors.js';
import type { Clock } from '../options.js';
import { describeValue } from './describe-value.js';

/** Reads the clock once and checks it gave a finite number. */
export function readClock(clock: Clock): number {
  const t = clock();
  if (typeof t !== 'number' || !Number.isFinite(t)) throw new InvalidArgumentError({ argument: 'options.clock', reason: `returned ${describeValue(t)}; expected finite milliseconds` });
  return t;
}
