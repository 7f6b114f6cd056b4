import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { runPipeline } from '@ctxgit/rules';

/** A DAG node, as `runPipeline` takes it (the `Node` of @ctxgit/dag). */
export type CorpusNode = Extract<Parameters<typeof runPipeline>[1][number], { readonly seq: number }>;

/** One transcript of the shared corpus as DAG nodes in order. */
export interface CorpusTranscript {
  readonly name: string;
  readonly nodes: readonly CorpusNode[];
}

export const CORPUS_DIR = fileURLToPath(new URL('../../../../../shared/corpus/', import.meta.url));

type Rec = Record<string, unknown>;
const isRec = (value: unknown): value is Rec => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Text of an OpenAI/SWE-agent/Claude content field: a string or a list of text parts. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => (typeof part === 'string' ? part : isRec(part) && typeof part['text'] === 'string' ? part['text'] : '')).join('\n');
}

const parseArgs = (text: unknown): CorpusNode['input'] => {
  if (typeof text !== 'string' || text.trim() === '') return {};
  try {
    return JSON.parse(text) as CorpusNode['input'];
  } catch {
    return text;
  }
};

class Builder {
  readonly nodes: CorpusNode[] = [];
  private last: string | undefined;
  constructor(private readonly session: string) {}
  add(role: CorpusNode['role'], output: string, extra: { name?: string; input?: CorpusNode['input']; caller?: string; callId?: string; isError?: boolean } = {}): string {
    const seq = this.nodes.length;
    const id = `${this.session}-${seq}`;
    const link = role === 'tool' && extra.caller !== undefined ? { caller: extra.caller } : this.last === undefined ? {} : { predecessor: this.last };
    const metadata = extra.callId === undefined ? undefined : { callId: extra.callId, ...(extra.isError === true ? { isError: true } : {}) };
    this.nodes.push({
      id,
      session: this.session,
      seq,
      createdAt: seq * 60_000,
      role,
      output,
      ...(extra.name === undefined ? {} : { name: extra.name }),
      ...(extra.input === undefined ? {} : { input: extra.input }),
      ...link,
      ...(metadata === undefined ? {} : { metadata }),
    });
    if (role !== 'tool') this.last = id;
    return id;
  }
}

/** OpenAI chat messages (tau-bench, SWE-agent history): tool calls become tool nodes holding the matching result. */
function fromChatMessages(session: string, messages: readonly unknown[]): CorpusNode[] {
  const b = new Builder(session);
  const consumed = new Set<number>();
  messages.forEach((message, index) => {
    if (!isRec(message) || consumed.has(index)) return;
    const role = message['role'];
    if (role === 'tool') {
      b.add('user', textOf(message['content']));
      return;
    }
    if (role !== 'system' && role !== 'user' && role !== 'assistant') return;
    const id = b.add(role, textOf(message['content']));
    const calls = Array.isArray(message['tool_calls']) ? message['tool_calls'] : [];
    for (const call of calls) {
      if (!isRec(call) || !isRec(call['function'])) continue;
      const callId = typeof call['id'] === 'string' ? call['id'] : `${id}-call`;
      const fn = call['function'];
      let output = '';
      for (let j = index + 1; j < messages.length; j += 1) {
        const m = messages[j];
        if (!isRec(m) || consumed.has(j)) continue;
        if (m['role'] !== 'tool') break;
        const ids = Array.isArray(m['tool_call_ids']) ? m['tool_call_ids'] : [m['tool_call_id']];
        if (ids.includes(callId)) {
          consumed.add(j);
          output = textOf(m['content']);
          break;
        }
      }
      b.add('tool', output, { name: String(fn['name']), input: parseArgs(fn['arguments']), caller: id, callId });
    }
  });
  return b.nodes;
}

/** Claude Code JSONL: malformed lines skipped; tool_use blocks become tool nodes holding their tool_result. */
function fromClaudeCode(session: string, lines: readonly string[]): CorpusNode[] {
  const records: Rec[] = [];
  for (const line of lines) {
    try {
      const record: unknown = JSON.parse(line);
      if (isRec(record) && (record['type'] === 'user' || record['type'] === 'assistant') && isRec(record['message'])) records.push(record);
    } catch {
      // malformed line: skipped, as an importer reports it
    }
  }
  const results = new Map<string, { output: string; isError: boolean }>();
  for (const record of records) {
    const content = (record['message'] as Rec)['content'];
    if (!Array.isArray(content)) continue;
    for (const block of content) {
      if (isRec(block) && block['type'] === 'tool_result' && typeof block['tool_use_id'] === 'string') {
        results.set(block['tool_use_id'], { output: textOf(block['content']), isError: block['is_error'] === true });
      }
    }
  }
  const b = new Builder(session);
  for (const record of records) {
    const message = record['message'] as Rec;
    const content = message['content'];
    const role = record['type'] as 'user' | 'assistant';
    const blocks = typeof content === 'string' ? [{ type: 'text', text: content }] : Array.isArray(content) ? content.filter(isRec) : [];
    const text = blocks.filter((block) => block['type'] === 'text').map((block) => String(block['text'])).join('\n');
    const uses = blocks.filter((block) => block['type'] === 'tool_use');
    if (role === 'user' && text === '' && uses.length === 0) continue;
    const id = b.add(role, text);
    for (const use of uses) {
      const callId = String(use['id']);
      const result = results.get(callId) ?? { output: '', isError: false };
      b.add('tool', result.output, { name: String(use['name']), input: (isRec(use['input']) ? use['input'] : {}) as CorpusNode['input'], caller: id, callId, isError: result.isError });
    }
  }
  return b.nodes;
}

/** Every transcript of the corpus: each tau-bench task, each SWE-agent trajectory, each Claude Code file. */
export function loadCorpus(): CorpusTranscript[] {
  const out: CorpusTranscript[] = [];
  const lines = (path: string): string[] => readFileSync(path, 'utf8').split('\n').filter((line) => line.trim() !== '');
  lines(`${CORPUS_DIR}tau-bench-airline/gpt-4o-airline.jsonl`).forEach((line, index) => {
    const record = JSON.parse(line) as Rec;
    out.push({ name: `tau-${index}`, nodes: fromChatMessages(`tau${index}`, record['traj'] as unknown[]) });
  });
  for (const file of readdirSync(`${CORPUS_DIR}swe-agent`).filter((f) => f.endsWith('.traj')).sort()) {
    const record = JSON.parse(readFileSync(`${CORPUS_DIR}swe-agent/${file}`, 'utf8')) as Rec;
    out.push({ name: `swe/${file}`, nodes: fromChatMessages(`swe${out.length}`, (record['history'] as unknown[]) ?? []) });
  }
  for (const file of readdirSync(`${CORPUS_DIR}claude-code`).filter((f) => f.endsWith('.jsonl')).sort()) {
    out.push({ name: `claude/${file}`, nodes: fromClaudeCode(`cc${out.length}`, lines(`${CORPUS_DIR}claude-code/${file}`)) });
  }
  return out;
}
