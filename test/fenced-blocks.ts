/** Fenced code blocks of the guides, for the tests that run them. */
export interface Sample {
  readonly file: string;
  readonly line: number;
  readonly info: string;
  readonly code: string;
}

/** Fenced blocks of a markdown text, with the info string and 1-based line of the opening fence. */
export function fencedBlocks(markdown: string, file: string): Sample[] {
  const out: Sample[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*(.*)$/.exec(lines[i] ?? '');
    if (open === null) continue;
    const fence = open[2] ?? '```';
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && !(lines[j] ?? '').trim().startsWith(fence); j++) body.push(lines[j] ?? '');
    out.push({ file, line: i + 1, info: (open[3] ?? '').trim(), code: body.join('\n') });
    i = j;
  }
  return out;
}

