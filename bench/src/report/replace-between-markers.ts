/** The README markers the results table is written between. */
export const README_START = '<!-- bench:start -->';
export const README_END = '<!-- bench:end -->';

/**
 * Replaces what lies between `<!-- bench:start -->` and `<!-- bench:end -->` with `content`; `null` when the
 * markers are missing or out of order (the file is then left alone).
 * @example
 * ```ts
 * replaceBetweenMarkers('a\n<!-- bench:start -->\nold\n<!-- bench:end -->\n', 'new'); // 'a\n<!-- bench:start -->\nnew\n<!-- bench:end -->\n'
 * ```
 */
export function replaceBetweenMarkers(text: string, content: string): string | null {
  const start = text.indexOf(README_START);
  const end = text.indexOf(README_END);
  if (start === -1 || end === -1 || end < start) return null;
  return `${text.slice(0, start + README_START.length)}\n${content}\n${text.slice(end)}`;
}
