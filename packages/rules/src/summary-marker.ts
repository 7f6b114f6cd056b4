/**
 * The text render puts before a summary's brief (`[Summary] …`, one space included), the one definition of the
 * marker: `@ctxgit/render` writes it and the rules count it in a request's budget.
 *
 * @example
 * ```ts
 * `${SUMMARY_MARKER}${brief}`; // '[Summary] …'
 * ```
 */
export const SUMMARY_MARKER = '[Summary] ';
