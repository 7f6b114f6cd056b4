/** `null`, `array` or the `typeof` of a value, for error messages. */
export function kindOf(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v;
}
