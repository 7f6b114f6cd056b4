/**
 * A GitHub-flavoured markdown table; cells are escaped for `|` and newlines.
 * @example
 * ```ts
 * markdownTable(['a', 'b'], [['1', '2']]); // '| a | b |\n| --- | --- |\n| 1 | 2 |'
 * ```
 */
export function markdownTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const cell = (s: string): string => s.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
  const line = (cells: readonly string[]): string => `| ${cells.map(cell).join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}
