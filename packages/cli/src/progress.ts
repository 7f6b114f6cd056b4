import type { CliStream } from './io.js';

/** A progress bar on a terminal; `tick` advances it, `done` erases it. */
export interface Progress {
  tick(label: string): void;
  done(): void;
}

/** Imports of at least this many steps (two per entry: the dry run and the write) show a progress bar, on a terminal only. */
export const PROGRESS_MIN_STEPS = 50;

/** A bar on `stream` when it is a terminal and `total` is large, else one that prints nothing. */
export function createProgress(stream: CliStream, total: number): Progress {
  if (stream.isTTY !== true || total < PROGRESS_MIN_STEPS) return { tick: () => undefined, done: () => undefined };
  let n = 0;
  const width = Math.max(10, Math.min(40, (stream.columns ?? 80) - 40));
  return {
    tick(label: string): void {
      n += 1;
      const filled = Math.round((width * n) / total);
      const name = label.length > 20 ? `${label.slice(0, 19)}…` : label;
      stream.write(`\r[${'#'.repeat(filled)}${' '.repeat(width - filled)}] ${n}/${total} ${name}\u001b[K`);
    },
    done(): void {
      stream.write('\r\u001b[K');
    },
  };
}
