import { InvalidOptionError } from '../../errors.js';
import type { SessionSummarizer } from './session-summarizer.js';

const NAME = /^[A-Za-z0-9._-]{1,64}$/;

const positive = (v: unknown): boolean => v === undefined || (typeof v === 'number' && Number.isSafeInteger(v) && v > 0);

/** Refuses a malformed summarizer option before anything is written. */
export function checkSummarizer(option: string, value: SessionSummarizer | undefined): void {
  if (value === undefined) return;
  const expected = '{ name: /^[A-Za-z0-9._-]{1,64}$/, summarize: async (input, signal) => string, timeoutMs?: positive integer, maxBytes?: positive integer }';
  if (typeof value !== 'object' || value === null) throw new InvalidOptionError(option, value, expected);
  if (typeof value.name !== 'string' || !NAME.test(value.name)) throw new InvalidOptionError(`${option}.name`, value.name, expected);
  if (typeof value.summarize !== 'function') throw new InvalidOptionError(`${option}.summarize`, typeof value.summarize, expected);
  if (!positive(value.timeoutMs)) throw new InvalidOptionError(`${option}.timeoutMs`, value.timeoutMs, 'a positive integer number of milliseconds');
  if (!positive(value.maxBytes)) throw new InvalidOptionError(`${option}.maxBytes`, value.maxBytes, 'a positive integer number of bytes');
}
