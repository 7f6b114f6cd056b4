import { defaultNodeId } from '../default-node-id.js';
import { InvalidArgumentError } from '../errors.js';
import { DEFAULT_MAX_OUTPUT_BYTES, MAX_OUTPUT_BYTES_LIMIT, type Clock, type DagOptions, type IdGenerator } from '../options.js';

/** Options with defaults applied. */
export interface Resolved {
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly maxOutputBytes: number;
}

/** Validates {@link DagOptions} and applies defaults. */
export function resolveOptions(opts: DagOptions | undefined): Resolved {
  if (opts !== undefined && (typeof opts !== 'object' || opts === null)) throw new InvalidArgumentError({ argument: 'options', reason: 'expected an object' });
  const clock = opts?.clock ?? Date.now;
  const ids = opts?.ids ?? defaultNodeId;
  const maxOutputBytes = opts?.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  if (typeof clock !== 'function') throw new InvalidArgumentError({ argument: 'options.clock', reason: 'expected a function returning milliseconds' });
  if (typeof ids !== 'function') throw new InvalidArgumentError({ argument: 'options.ids', reason: 'expected a function (session, seq) => id' });
  if (!Number.isSafeInteger(maxOutputBytes) || maxOutputBytes < 0 || maxOutputBytes > MAX_OUTPUT_BYTES_LIMIT) {
    throw new InvalidArgumentError({ argument: 'options.maxOutputBytes', reason: `expected an integer number of bytes from 0 to ${MAX_OUTPUT_BYTES_LIMIT}` });
  }
  return { clock, ids, maxOutputBytes };
}

