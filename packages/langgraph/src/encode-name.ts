/**
 * A name (thread id, namespace, checkpoint id, channel, task id, version) as one git ref component or tree entry
 * name: ASCII letters, digits, `_` and `-` stay, every other UTF-8 byte is written `%XX` (a leading `-` too), so
 * any string maps to a distinct, valid, readable name.
 */
export function encodeName(name: string): string {
  let out = '';
  for (const byte of new TextEncoder().encode(name)) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9_]/.test(c) || (c === '-' && out !== '') ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** The inverse of {@link encodeName}. */
export function decodeName(encoded: string): string {
  return decodeURIComponent(encoded);
}
