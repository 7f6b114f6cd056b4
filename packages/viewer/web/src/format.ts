/** `12,345`. */
export const int = (n: number): string => n.toLocaleString('en-US');

/** `12.3%`. */
export const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;

/** `1.2k`, `3.4M`. */
export const short = (n: number): string => (n >= 1e6 ? `${(n / 1e6).toFixed(1)}M` : n >= 1e4 ? `${Math.round(n / 1e3)}k` : n >= 1e3 ? `${(n / 1e3).toFixed(1)}k` : String(n));

/** `2026-12-03 16:42` (UTC). */
export const time = (ms: number | null): string => (ms === null ? '—' : new Date(ms).toISOString().slice(0, 16).replace('T', ' '));

/** `$0.0123`. */
export const usd = (x: number): string => (x >= 1 ? `$${x.toFixed(2)}` : `$${x.toFixed(4)}`);

/** The first 12 hex digits of an id. */
export const abbrev = (id: string): string => id.slice(0, 12);
