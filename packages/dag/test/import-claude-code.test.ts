import { MalformedTranscriptError, importClaudeCode } from '@ctxgit/dag';
import { describe, expect, it } from 'vitest';
import { corpusFiles, readCorpus, store } from './corpus.js';

/** Lines of edge_cases.jsonl that are skipped by type: a message without content (line 10), no message object (11). */
const EDGE_NO_MESSAGE = new Set([10, 11]);
/** Lines of edge_cases.jsonl that are malformed on purpose, and why (read from the file). */
const EDGE_MALFORMED = [
  { line: 13, reason: 'expected a JSON object, got string' }, // "massive error"
  { line: 14, reason: 'no string type field' }, // {"silly": "this"}
  { line: 15, reason: 'expected a JSON object, got number' }, // 42
  { line: 16, reason: 'expected a JSON object, got array' }, // [1]
  { line: 17, reason: 'parentUuid assistant_003 names no earlier line' }, // a line of another session
  { line: 18, reason: 'message.content[0] is string; expected a content block object' }, // ["wow error"]
];

interface Block {
  type: string;
  text?: string;
}

/** Counts, independently of the importer, the nodes a Claude Code log should give. */
function expectedNodes(text: string, skipLines: ReadonlySet<number>): { nodes: number; tools: number; results: number; summaries: number } {
  let nodes = 0;
  let tools = 0;
  let results = 0;
  let summaries = 0;
  text.split('\n').forEach((raw, i) => {
    if (raw.trim() === '' || skipLines.has(i + 1)) return;
    const v = JSON.parse(raw) as { type: string; message: { content: string | Block[] } };
    if (v.type === 'summary') summaries++;
    if (v.type !== 'user' && v.type !== 'assistant') return;
    const blocks: Block[] = typeof v.message.content === 'string' ? [{ type: 'text', text: v.message.content }] : v.message.content;
    const uses = blocks.filter((b) => b.type === 'tool_use').length;
    const res = blocks.filter((b) => b.type === 'tool_result').length;
    const hasText = blocks.some((b) => b.type === 'text');
    tools += uses;
    results += res;
    if (v.type === 'assistant' || hasText || res === 0) nodes++;
  });
  return { nodes, tools, results, summaries };
}

describe('importClaudeCode on the Claude Code corpus', () => {
  const files = corpusFiles('claude-code', '.jsonl');
  it('the corpus folder holds the 4 logs', () => {
    expect(files).toEqual(['edge_cases.jsonl', 'representative_messages.jsonl', 'session_b.jsonl', 'todowrite_examples.jsonl']);
  });

  for (const file of files) {
    it(`${file}: node counts match the source`, async () => {
      const text = readCorpus('claude-code', file);
      const edge = file === 'edge_cases.jsonl';
      const t = importClaudeCode(text, edge ? { malformed: 'skip' } : {});
      const want = expectedNodes(text, new Set(edge ? [...EDGE_MALFORMED.map((m) => m.line), ...EDGE_NO_MESSAGE] : []));
      expect(t.malformed).toEqual(edge ? EDGE_MALFORMED : []);
      expect(t.entries).toHaveLength(want.nodes + want.tools);
      expect(t.entries.filter((e) => e.role === 'tool')).toHaveLength(want.tools);
      expect(t.stats['toolResults'] ?? 0).toBe(want.results);
      expect(t.skipped).toEqual({ ...(want.summaries > 0 ? { summary: want.summaries } : {}), ...(edge ? { malformed: EDGE_MALFORMED.length, 'user:no-content': 1, 'user:no-message': 1 } : {}) });
      const { nodes, view } = await store(t);
      expect(nodes).toHaveLength(t.entries.length);
      expect(view).toHaveLength(t.entries.length);
      // Timestamps are kept as createdAt.
      for (const n of view.filter((v) => v.role !== 'tool')) {
        const ts = (n.metadata?.['source'] as { timestamp?: string }).timestamp;
        expect(n.createdAt).toBe(ts === undefined ? 0 : Date.parse(ts));
      }
    });
  }

  it('edge_cases.jsonl: lines without a message are skipped by type, not refused', () => {
    const text = readCorpus('claude-code', 'edge_cases.jsonl').split('\n').slice(0, 12).join('\n');
    const t = importClaudeCode(text);
    expect(t.malformed).toEqual([]);
    expect(t.skipped).toEqual({ 'user:no-content': 1, 'user:no-message': 1 });
  });

  it('a line naming a skipped message-less line as its parent follows that line\'s parent', () => {
    const rows = [
      JSON.stringify({ type: 'user', uuid: 'u1', parentUuid: null, message: { role: 'user', content: 'hi' } }),
      JSON.stringify({ type: 'user', uuid: 'u2', parentUuid: 'u1', isMeta: true }),
      JSON.stringify({ type: 'assistant', uuid: 'a1', parentUuid: 'u2', message: { role: 'assistant', content: 'hello' } }),
    ];
    const t = importClaudeCode(rows.join('\n'));
    expect(t.skipped).toEqual({ 'user:no-message': 1 });
    expect(t.entries.map((e) => [e.role, e.output, e.predecessor])).toEqual([
      ['user', 'hi', undefined],
      ['assistant', 'hello', 0],
    ]);
  });

  it('edge_cases.jsonl: the default refuses the first malformed line, naming it', () => {
    let err: unknown;
    try {
      importClaudeCode(readCorpus('claude-code', 'edge_cases.jsonl'));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(MalformedTranscriptError);
    expect((err as MalformedTranscriptError).data).toEqual({ format: 'claude-code', line: 13, reason: 'expected a JSON object, got string' });
    expect((err as Error).message).toContain('line 13');
  });

  it('edge_cases.jsonl: a failed tool keeps is_error; a call whose result line is malformed is flagged resultMissing', () => {
    const t = importClaudeCode(readCorpus('claude-code', 'edge_cases.jsonl'), { malformed: 'skip' });
    const failing = t.entries.find((e) => e.name === 'FailingTool');
    expect(failing).toMatchObject({ role: 'tool', output: 'Error: Tool execution failed with error: Command not found', metadata: { source: { toolUseId: 'tool_edge_001', is_error: true } } });
    expect(failing?.createdAt).toBe(Date.parse('2025-06-14T11:01:31Z'));
    expect(t.entries.find((e) => e.name === 'MultiEdit')).toMatchObject({ output: '', metadata: { source: { resultMissing: true } } });
    expect(t.entries.at(-1)?.output).toContain('café, naïve');
  });

  it('todowrite_examples.jsonl: follows parentUuid through tool-result lines', () => {
    const t = importClaudeCode(readCorpus('claude-code', 'todowrite_examples.jsonl'));
    const uuid = (i: number | undefined): unknown => (i === undefined ? undefined : (t.entries[i]?.metadata?.['source'] as { uuid?: string }).uuid);
    const a3 = t.entries.findIndex((e) => (e.metadata?.['source'] as { uuid?: string }).uuid === 'assistant_003');
    // assistant_003's parent is user_002, a tool-result line: it follows that line's parent, assistant_002.
    expect(uuid(t.entries[a3]?.predecessor)).toBe('assistant_002');
    expect(t.stats['implicitParents'] ?? 0).toBe(0);
    const todo = t.entries.find((e) => e.role === 'tool');
    expect(todo).toMatchObject({ name: 'TodoWrite', output: expect.stringContaining('Todos have been modified') as string });
    expect((todo?.metadata?.['source'] as { result: { toolUseResult: unknown } }).result.toolUseResult).toMatchObject({ oldTodos: [] });
  });
});

describe('importClaudeCode', () => {
  const line = (o: Record<string, unknown>): string => JSON.stringify(o);
  const u = (uuid: string, parentUuid: string | null, content: unknown, extra: Record<string, unknown> = {}): string =>
    line({ type: 'user', uuid, parentUuid, timestamp: '2025-01-01T00:00:00Z', message: { role: 'user', content }, ...extra });
  const a = (uuid: string, parentUuid: string | null, content: unknown, extra: Record<string, unknown> = {}): string =>
    line({ type: 'assistant', uuid, parentUuid, timestamp: '2025-01-01T00:00:01.500Z', message: { role: 'assistant', content }, ...extra });

  it('branches by parentUuid, keeps sidechains off the main chain, keeps thinking, counts skipped blocks and types', () => {
    const text = [
      line({ type: 'file-history-snapshot', snapshot: {} }),
      u('u1', null, 'hi'),
      a('a1', 'u1', [{ type: 'thinking', thinking: 'hmm' }, { type: 'text', text: 'first' }]),
      a('a2', 'u1', [{ type: 'text', text: 'second try' }]),
      u('s1', null, 'sub task', { isSidechain: true }),
      a('s2', 's1', 'sub answer', { isSidechain: true }),
      u('u2', 'a2', [{ type: 'text', text: 'look' }, { type: 'image', source: {} }]),
      line({ type: 'summary', summary: 's', leafUuid: 'u2' }),
      '',
    ].join('\n');
    const t = importClaudeCode(text);
    expect(t.entries.map((e) => [e.role, e.output, e.predecessor])).toEqual([
      ['user', 'hi', undefined],
      ['assistant', 'first', 0],
      ['assistant', 'second try', 0],
      ['user', 'sub task', undefined],
      ['assistant', 'sub answer', 3],
      ['user', 'look', 2],
    ]);
    expect(t.head).toBe(5);
    expect(t.entries[1]?.metadata?.['source']).toMatchObject({ thinking: ['hmm'], uuid: 'a1' });
    expect(t.entries[1]?.createdAt).toBe(Date.parse('2025-01-01T00:00:01.500Z'));
    expect(t.skipped).toEqual({ 'type:file-history-snapshot': 1, 'block:image': 1, summary: 1 });
    expect(t.stats).toEqual({ sidechain: 2 });
  });

  it('pairs tool_use with tool_result across lines; a result line with text is also a user node', () => {
    const text = [
      u('u1', null, 'go'),
      a('a1', 'u1', [{ type: 'text', text: 'running' }, { type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'ls' } }, { type: 'tool_use', id: 't2', name: 'Read', input: { path: 'x' } }]),
      u('r1', 'a1', [{ type: 'tool_result', tool_use_id: 't2', content: [{ type: 'text', text: 'X' }] }, { type: 'tool_result', tool_use_id: 't1', content: 'a b' }, { type: 'text', text: 'and?' }], { toolUseResult: { stdout: 'a b' } }),
    ].join('\n');
    const t = importClaudeCode(text);
    expect(t.entries.map((e) => [e.role, e.name, e.output, e.predecessor, e.caller])).toEqual([
      ['user', undefined, 'go', undefined, undefined],
      ['assistant', undefined, 'running', 0, undefined],
      ['tool', 'Bash', 'a b', undefined, 1],
      ['tool', 'Read', 'X', undefined, 1],
      ['user', undefined, 'and?', 1, undefined],
    ]);
    expect(t.entries[2]?.metadata?.['source']).toMatchObject({ toolUseId: 't1', result: { line: 3, uuid: 'r1', toolUseResult: { stdout: 'a b' } } });
    expect(t.stats).toEqual({ toolResults: 2 });
  });

  it.each<[string, number, string]>([
    [[u('x', null, 'a'), u('x', null, 'b')].join('\n'), 2, 'uuid x was already used on line 1'],
    [u('x', 'ghost', 'a'), 1, 'parentUuid ghost names no earlier line'],
    [u('x', null, [{ type: 'tool_result', tool_use_id: 'nope', content: '' }]), 1, 'answers tool_use nope'],
    [a('x', null, [{ type: 'tool_result', tool_use_id: 'n', content: '' }]), 1, 'tool_result block on an assistant line'],
    [u('x', null, [{ type: 'tool_use', id: 'n', name: 'f', input: {} }]), 1, 'tool_use block on a user line'],
    [line({ type: 'user', uuid: 'x', timestamp: 'yesterday', message: { role: 'user', content: 'a' } }), 1, 'timestamp "yesterday" is not an ISO date'],
    [line({ type: 'user', uuid: 'x', message: { role: 'assistant', content: 'a' } }), 1, 'message.role is "assistant" on a user line'],
    [line({ type: 'user', message: { role: 'user', content: 'a' } }), 1, 'no string uuid'],
    [line({ type: 'user', uuid: 'x', isSidechain: 'no', message: { role: 'user', content: 'a' } }), 1, 'isSidechain is not a boolean'],
    [line({ type: 'user', uuid: 'x', message: { role: 'user', content: 'bad \udfff' } }), 1, 'line.message.content is not JSON: lone surrogate at index 4'],
    ['{"type":', 1, 'not JSON'],
  ])('refuses %s at line %i: %s', (text, at, reason) => {
    expect(() => importClaudeCode(text)).toThrow(expect.objectContaining({ code: 'E_DAG_MALFORMED_TRANSCRIPT', data: { format: 'claude-code', line: at, reason: expect.stringContaining(reason) as string } }));
  });

  it('refuses input that is not text, and unknown options', () => {
    expect(() => importClaudeCode(42 as never)).toThrow(MalformedTranscriptError);
    expect(importClaudeCode(42 as never, { malformed: 'skip' }).malformed).toEqual([{ reason: 'expected JSONL text, got number' }]);
    expect(() => importClaudeCode('', { malformed: 'ignore' as never })).toThrow(expect.objectContaining({ code: 'E_DAG_INVALID_ARGUMENT' }));
  });
});
