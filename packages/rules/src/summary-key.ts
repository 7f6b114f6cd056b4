import { createHash } from 'node:crypto';

/** `sm_` + the first 16 hex digits of the SHA-256 of the folded keys joined by newlines. */
export function summaryKey(foldedKeys: readonly string[]): string {
  return `sm_${createHash('sha256').update(foldedKeys.join('\n')).digest('hex').slice(0, 16)}`;
}
