/** Width of the integer part of an order key. */
export const ORDER_KEY_WIDTH = 9;
const ZERO = '0'.repeat(ORDER_KEY_WIDTH);

/**
 * A key that sorts strictly between `lo` and `hi` (bytewise); `null` means unbounded.
 * Keys are a 9-digit integer part plus an optional decimal fraction that never ends in `0`;
 * appending after the last key gives the next integer, so appended items are named `000000001`, `000000002`, …
 */
export function orderKeyBetween(lo: string | null, hi: string | null): string {
  if (lo !== null && hi !== null && !(lo < hi)) throw new RangeError(`orderKeyBetween: ${lo} is not below ${hi}`);
  const loInt = lo === null ? 0 : Number(lo.slice(0, ORDER_KEY_WIDTH));
  const loFrac = lo === null ? '' : lo.slice(ORDER_KEY_WIDTH);
  if (hi === null) return pad(loInt + 1);
  const hiInt = Number(hi.slice(0, ORDER_KEY_WIDTH));
  if (hiInt - loInt >= 2) return pad(loInt + 1);
  const base = lo === null ? ZERO : lo.slice(0, ORDER_KEY_WIDTH);
  if (hiInt > loInt) return base + fractionBetween(loFrac, null);
  return base + fractionBetween(loFrac, hi.slice(ORDER_KEY_WIDTH));
}

function pad(n: number): string {
  if (!Number.isSafeInteger(n) || n >= 10 ** ORDER_KEY_WIDTH) throw new RangeError(`order key ${n} out of range`);
  return String(n).padStart(ORDER_KEY_WIDTH, '0');
}

/** Decimal digits strictly between fractions `.lo` and `.hi` (`null` = 1); neither ends in `0`. */
function fractionBetween(lo: string, hi: string | null): string {
  if (hi !== null) {
    let n = 0;
    while ((lo[n] ?? '0') === hi[n]) n++;
    if (n > 0) return hi.slice(0, n) + fractionBetween(lo.slice(n), hi.slice(n));
  }
  const dLo = lo.length > 0 ? Number(lo[0]) : 0;
  const dHi = hi !== null ? Number(hi[0]) : 10;
  if (dHi - dLo > 1) return String(Math.round((dLo + dHi) / 2));
  if (hi !== null && hi.length > 1) return hi.slice(0, 1);
  return String(dLo) + fractionBetween(lo.slice(1), null);
}
