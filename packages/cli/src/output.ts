import type { CliIo } from './io.js';
import type { CommonOptions } from './options.js';

/** What a command prints: one JSON document under `--json`, else readable text. */
export interface CommandOutput {
  readonly json: unknown;
  readonly text: string;
}

/** Writes a command's result to stdout in the form `--json` asks for. */
export function emit(io: CliIo, opts: CommonOptions, out: CommandOutput): void {
  if (opts.json === true) io.stdout.write(`${JSON.stringify(out.json, null, 2)}\n`);
  else if (out.text !== '') io.stdout.write(out.text.endsWith('\n') ? out.text : `${out.text}\n`);
}

/** Left-aligned text table: columns padded to their widest cell. */
export function table(rows: readonly (readonly string[])[]): string {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return rows.map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join('  ')).join('\n');
}
