const isTokenChar = (c: number): boolean =>
  (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x5f || c === 0x2e || c === 0x2f || c === 0x2d;
const isEdge = (c: number): boolean => c === 0x2e || c === 0x2f || c === 0x2d;

/**
 * Whether `token` (lower-case, as `distinctiveTokens` makes them) is one of the distinctive tokens of
 * `lower` (an already lower-cased text), without building the text's token set: an occurrence counts when
 * only `. / -` separate it from the ends of its run of token characters.
 */
export function containsToken(lower: string, token: string): boolean {
  for (let p = lower.indexOf(token); p !== -1; p = lower.indexOf(token, p + 1)) {
    let l = p - 1;
    while (l >= 0 && isEdge(lower.charCodeAt(l))) l--;
    if (l >= 0 && isTokenChar(lower.charCodeAt(l))) continue;
    let r = p + token.length;
    while (r < lower.length && isEdge(lower.charCodeAt(r))) r++;
    if (r < lower.length && isTokenChar(lower.charCodeAt(r))) continue;
    return true;
  }
  return false;
}
