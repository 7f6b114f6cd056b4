import { LoneSurrogateError, NotAStringError, TextTooLongError } from './errors.js';

/**
 * Longest text any tokenizer of this package accepts: 16 MiB of UTF-16 code units (16,777,216).
 *
 * @remarks Checked in O(1) (on `text.length`) before any work, so an oversized input fails fast instead of hanging.
 */
export const MAX_TEXT_LENGTH = 16 * 1024 * 1024;

const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/** Throws unless `text` is a well-formed string within {@link MAX_TEXT_LENGTH}. */
export function checkText(text: unknown): asserts text is string {
  if (typeof text !== 'string') throw new NotAStringError(text);
  if (text.length > MAX_TEXT_LENGTH) throw new TextTooLongError(text.length, MAX_TEXT_LENGTH);
  const lone = LONE_SURROGATE.exec(text);
  if (lone !== null) throw new LoneSurrogateError(lone.index, text.charCodeAt(lone.index));
}
