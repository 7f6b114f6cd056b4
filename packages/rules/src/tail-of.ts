const isHigh = (c: number): boolean => c >= 0xd800 && c <= 0xdbff;

/** Last `n` code units of `s`, one fewer when that would split a surrogate pair. */
export function tailOf(s: string, n: number): string {
  if (n >= s.length) return s;
  if (n <= 0) return '';
  const start = s.length - n;
  return isHigh(s.charCodeAt(start - 1)) ? s.slice(start + 1) : s.slice(start);
}
