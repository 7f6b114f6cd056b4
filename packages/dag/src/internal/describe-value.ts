/**
 * A short text for any JavaScript value, for error messages and data: never throws (a null-prototype object, a
 * symbol, a throwing `toString` or a revoked proxy all get a description).
 */
export function describeValue(value: unknown): string {
  try {
    if (typeof value === 'string') return value.length > 200 ? `${value.slice(0, 200)}…` : value;
    if (typeof value === 'symbol') return value.toString();
    if (typeof value !== 'object' && typeof value !== 'function') return String(value);
    return value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
  } catch {
    return 'an unreadable value';
  }
}
