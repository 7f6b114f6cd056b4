const isHigh = (c: number): boolean => c >= 0xd800 && c <= 0xdbff;

/** First `n` code units of `s`, one fewer when that would split a surrogate pair. */
export function headOf(s: string, n: number): string {
  if (n >= s.length) return s;
  return n > 0 && isHigh(s.charCodeAt(n - 1)) ? s.slice(0, n - 1) : s.slice(0, n);
}
