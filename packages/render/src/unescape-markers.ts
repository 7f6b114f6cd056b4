const NAMESPACE_RUN = /\\(\\*)<<ctxgit:/g;
const SUMMARY_RUN = /(^|[\r\n\u2028\u2029])\\(\\*)\[Summary\]/g;

/**
 * Inverse of {@link escapeMarkers}: removes one backslash before every escaped marker, so
 * `unescapeMarkers(escapeMarkers(t)) === t` for every string `t`.
 *
 * @param text - Text produced by {@link escapeMarkers}.
 * @returns The original text.
 * @example
 * ```ts
 * unescapeMarkers('\\[Summary] all done'); // '[Summary] all done'
 * ```
 */
export function unescapeMarkers(text: string): string {
  if (!text.includes('<<ctxgit:') && !text.includes('[Summary]')) return text;
  return text.replace(NAMESPACE_RUN, '$1<<ctxgit:').replace(SUMMARY_RUN, '$1$2[Summary]');
}
