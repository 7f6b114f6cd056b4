import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Root of the shared corpus (beside the repository). */
export const CORPUS_DIR = fileURLToPath(new URL('../../../../shared/corpus/', import.meta.url));

/** One text taken from the corpus, with where it came from. */
export interface CorpusText {
  readonly source: string;
  readonly text: string;
}

function parseLine(line: string): unknown {
  try {
    return JSON.parse(line) as unknown;
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function pushContent(out: CorpusText[], source: string, content: unknown): void {
  if (typeof content === 'string') {
    out.push({ source, text: content });
    return;
  }
  if (!Array.isArray(content)) return;
  content.forEach((part, i) => {
    const where = `${source}[${i}]`;
    if (typeof part === 'string') out.push({ source: where, text: part });
    else if (isRecord(part)) {
      if (typeof part['text'] === 'string') out.push({ source: where, text: part['text'] });
      if (part['type'] === 'tool_use' && part['input'] !== undefined) out.push({ source: `${where}.input`, text: JSON.stringify(part['input']) });
      if (part['type'] === 'tool_result') pushContent(out, `${where}.content`, part['content']);
    }
  });
}

function pushMessage(out: CorpusText[], source: string, message: unknown): void {
  if (!isRecord(message)) return;
  pushContent(out, source, message['content']);
  const calls = message['tool_calls'];
  if (Array.isArray(calls)) {
    calls.forEach((call, i) => {
      const fn = isRecord(call) ? call['function'] : undefined;
      if (isRecord(fn) && typeof fn['arguments'] === 'string') out.push({ source: `${source}.tool_calls[${i}]`, text: fn['arguments'] });
    });
  }
}

/** Every message text of the corpus: tau-bench JSONL (`traj`/`messages`), SWE-agent `.traj` `history`, Claude Code JSONL. */
export function loadCorpusTexts(dir: string = CORPUS_DIR): CorpusText[] {
  const out: CorpusText[] = [];
  const tau = path.join(dir, 'tau-bench-airline');
  for (const file of readdirSync(tau).filter((f) => f.endsWith('.jsonl')).sort()) {
    readFileSync(path.join(tau, file), 'utf8')
      .split('\n')
      .forEach((line, n) => {
        const row = parseLine(line);
        if (!isRecord(row)) return;
        const messages = row['messages'] ?? row['traj'];
        if (Array.isArray(messages)) messages.forEach((m, i) => pushMessage(out, `${file}:${n + 1}#${i}`, m));
      });
  }
  const swe = path.join(dir, 'swe-agent');
  for (const file of readdirSync(swe).filter((f) => f.endsWith('.traj')).sort()) {
    const traj = parseLine(readFileSync(path.join(swe, file), 'utf8'));
    const history = isRecord(traj) ? traj['history'] : undefined;
    if (Array.isArray(history)) history.forEach((m, i) => pushMessage(out, `${file}#${i}`, m));
  }
  const cc = path.join(dir, 'claude-code');
  for (const file of readdirSync(cc).filter((f) => f.endsWith('.jsonl')).sort()) {
    readFileSync(path.join(cc, file), 'utf8')
      .split('\n')
      .forEach((line, n) => {
        const row = parseLine(line);
        if (isRecord(row)) pushMessage(out, `${file}:${n + 1}`, row['message']);
      });
  }
  return out;
}
