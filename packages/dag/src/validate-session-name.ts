import { InvalidSessionNameError } from './errors.js';
import { loneSurrogateAt } from './internal/lone-surrogate.js';
import { describeValue } from './internal/describe-value.js';

/** Longest accepted session name, in UTF-16 code units. */
export const MAX_SESSION_NAME_LENGTH = 256;

/**
 * Asserts that `name` can name a session: a non-empty string of at most {@link MAX_SESSION_NAME_LENGTH} code units
 * without control characters (U+0000-U+001F, U+007F-U+009F), bidirectional controls (U+202A-U+202E, U+2066-U+2069)
 * or lone surrogates. Git ref rules are left to the
 * store that maps names to refs (`@ctxgit/commit`).
 *
 * @param name - The candidate name.
 * @returns `name`, typed as a string.
 * @throws {@link InvalidSessionNameError} saying what is wrong.
 * @example
 * ```ts
 * validateSessionName('support/ticket-42'); // ok
 * validateSessionName('a\nb');              // throws InvalidSessionNameError
 * ```
 */
export function validateSessionName(name: unknown): string {
  if (typeof name !== 'string') throw new InvalidSessionNameError({ name: describeValue(name), reason: `expected a string, got ${typeof name}` });
  if (name.length === 0) throw new InvalidSessionNameError({ name, reason: 'empty' });
  if (name.length > MAX_SESSION_NAME_LENGTH) throw new InvalidSessionNameError({ name, reason: `longer than ${MAX_SESSION_NAME_LENGTH} characters` });
  // eslint-disable-next-line no-control-regex
  const control = /[\u0000-\u001f\u007f-\u009f]/.exec(name);
  if (control) throw new InvalidSessionNameError({ name, reason: `control character U+${control[0].charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()} at index ${control.index}` });
  const i = loneSurrogateAt(name);
  if (i >= 0) throw new InvalidSessionNameError({ name, reason: `lone surrogate at index ${i}` });
  const bidi = /[\u202a-\u202e\u2066-\u2069]/u.exec(name);
  if (bidi) throw new InvalidSessionNameError({ name, reason: `bidirectional control character U+${bidi[0].charCodeAt(0).toString(16).toUpperCase()} at index ${bidi.index} (it makes a name display as another)` });
  return name;
}
