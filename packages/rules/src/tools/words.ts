/** Words too common to tell tools apart. */
const STOP = new Set([
  'a', 'an', 'and', 'are', 'as', 'at', 'be', 'by', 'can', 'do', 'for', 'from', 'how', 'i', 'in', 'is', 'it', 'me', 'my',
  'of', 'on', 'or', 'please', 'the', 'this', 'that', 'to', 'use', 'we', 'what', 'with', 'you', 'your',
]);

/**
 * The words of a text, for matching requests against tools: camelCase and snake_case split, lower-cased, stop
 * words and one-letter words dropped, a plural `s` removed (`files` → `file`); in order of first occurrence, unique.
 */
export function wordsOf(text: string): string[] {
  const out = new Set<string>();
  const spaced = text.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  for (const raw of spaced.split(/[^a-z0-9]+/)) {
    if (raw.length < 2 || STOP.has(raw)) continue;
    out.add(raw.length > 3 && raw.endsWith('s') && !raw.endsWith('ss') ? raw.slice(0, -1) : raw);
  }
  return [...out];
}
