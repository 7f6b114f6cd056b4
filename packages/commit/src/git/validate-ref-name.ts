import { componentProblem, nameError } from './internal/ref-name.js';

/** Longest accepted name in UTF-8 bytes (a file name must hold it plus `.lock`). */
const MAX_NAME_BYTES = 200;

/**
 * Refuses a session or branch name that cannot be one component of a git ref: git's check-ref-format rules
 * (no leading `.`, no `..`, no control characters, space or `~^:?*[\`, no `@{`, not `@`, no trailing `.` or `.lock`)
 * plus no `/`, no leading `-`, no lone surrogate, at most 200 UTF-8 bytes.
 *
 * @param name - the proposed name
 * @param what - what the name is for (appears in the error)
 * @throws {@link InvalidNameError} saying which rule the name breaks
 * @example
 * ```ts
 * validateRefComponent('chat-42', 'session'); // ok
 * validateRefComponent('../x', 'session');    // throws InvalidNameError (E_GIT_INVALID_NAME)
 * ```
 */
export function validateRefComponent(name: string, what: 'session' | 'branch'): void {
  if (typeof name !== 'string') throw nameError(name, what, 'not a string');
  if (name.includes('/')) throw nameError(name, what, "contains '/'");
  if (name.startsWith('-')) throw nameError(name, what, "starts with '-'");
  if (Buffer.byteLength(name, 'utf8') > MAX_NAME_BYTES) throw nameError(name, what, `is longer than ${MAX_NAME_BYTES} bytes`);
  const problem = componentProblem(name);
  if (problem !== undefined) throw nameError(name, what, problem);
}
