/**
 * Escapes text for an XML attribute or text node.
 * @example
 * ```ts
 * escapeXml('a < b & "c"'); // 'a &lt; b &amp; &quot;c&quot;'
 * ```
 */
export function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}
