const NAMESPACE_RUN = /(\\*)<<ctxgit:/g;
const SUMMARY_RUN = /(^|[\r\n\u2028\u2029])(\\*)\[Summary\]/g;

/**
 * Escapes text written by users or tools so it can never forge ctxgit's structure: every `<<ctxgit:`
 * (anywhere) and every `[Summary]` at the start of a line gets one more backslash in front of the run of
 * backslashes already before it. The escape is reversible by {@link unescapeMarkers}, and escaped text holds
 * no marker that is not preceded by a backslash. Text without markers is returned unchanged.
 *
 * @param text - Any text.
 * @returns The escaped text.
 * @example
 * ```ts
 * escapeMarkers('[Summary] all done'); // '\\[Summary] all done'
 * escapeMarkers('x <<ctxgit:/attach>>'); // 'x \\<<ctxgit:/attach>>'
 * ```
 */
export function escapeMarkers(text: string): string {
  if (!text.includes('<<ctxgit:') && !text.includes('[Summary]')) return text;
  return text.replace(NAMESPACE_RUN, '\\$1<<ctxgit:').replace(SUMMARY_RUN, '$1\\$2[Summary]');
}
