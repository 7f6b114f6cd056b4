import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ContextCommit } from '@ctxgit/commit';
import { openRepo } from '@ctxgit/commit';
import type { CatalogueTool } from '@ctxgit/rules';
import { OPEN_TOOLS } from '@ctxgit/rules';
import type { ProviderName } from '../src/index.js';
import { render, stablePrefix, validateRequest } from '../src/index.js';

const host = { type: 'object', properties: { host: { type: 'string', description: 'Host name or IP address.' } }, required: ['host'] };
/** The catalogue of docs/tools.md. */
const CATALOGUE: CatalogueTool[] = [
  { path: 'security/scan/port_scan', description: 'Scan the TCP ports of a host.', parameters: { ...host, properties: { ...host.properties, ports: { type: 'string', description: 'e.g. 1-1024' } } } },
  { path: 'security/scan/ping_sweep', description: 'Ping every address of a subnet.', parameters: { type: 'object', properties: { cidr: { type: 'string' } }, required: ['cidr'] } },
  { path: 'security/audit/audit_log', description: 'Read the audit log of a host.', parameters: host },
  { path: 'files/read_file', description: 'Read a file.', parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } },
  { path: 'files/write_file', description: 'Write a file.', parameters: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } }, required: ['path', 'content'] } },
  { path: 'net/dns/dns_lookup', description: 'Resolve a domain name.', parameters: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } },
];

/** The session of docs/tools.md: one request, auto-opened group, one navigation round. */
async function example(): Promise<{ first: ContextCommit; second: ContextCommit }> {
  const repo = await openRepo({ memory: true, clock: () => Date.UTC(2025, 0, 1) });
  const s = await repo.createSession('ops', { model: 'openai:gpt-4o', tools: CATALOGUE });
  await s.append({ role: 'user', output: 'Scan the ports of 10.0.0.7, then resolve example.com.' });
  const first = await s.commit();
  const a = await s.append({ role: 'assistant', output: 'Looking for a DNS tool.' });
  const r = await s.resolveToolCall({ name: OPEN_TOOLS, input: { search: 'resolve domain' } });
  if (r.kind !== 'navigation') throw new Error(r.kind);
  await s.append({ role: 'tool', name: OPEN_TOOLS, input: { search: 'resolve domain' }, output: r.output, caller: a.id, metadata: { callId: 'call_1' } });
  return { first, second: await s.commit() };
}

const PROVIDERS = ['openai-chat', 'openai-responses', 'anthropic'] as const satisfies readonly ProviderName[];
const toolNames = (provider: (typeof PROVIDERS)[number], body: unknown): string[] => {
  const tools = (body as { tools?: unknown[] }).tools ?? [];
  return tools.map((t) => (provider === 'openai-chat' ? (t as { function: { name: string } }).function.name : (t as { name: string }).name));
};

describe('render of a commit with a tool catalogue', () => {
  it('emits exactly the advertised tools, open_tools last, in every provider schema', async () => {
    const { first, second } = await example();
    expect(first.tools?.advertised.map((t) => t.name)).toEqual(['ping_sweep', 'port_scan', OPEN_TOOLS]);
    expect(second.tools?.advertised.map((t) => t.name)).toEqual(['ping_sweep', 'port_scan', 'dns_lookup', OPEN_TOOLS]);
    for (const c of [first, second]) {
      for (const provider of PROVIDERS) {
        const body = render(c, { provider, allowAssistantLast: true, model: 'gpt-4o' });
        expect(validateRequest(provider, body)).toEqual([]);
        const names = toolNames(provider, body);
        expect(names).toEqual(c.tools?.advertised.map((t) => t.name));
        expect(JSON.stringify(render(c, { provider, allowAssistantLast: true, model: 'gpt-4o' }))).toBe(JSON.stringify(body));
      }
    }
    const anthropic = render(second, { provider: 'anthropic', model: 'claude-sonnet-4-5' });
    expect(anthropic.tools?.[1]).toEqual({ name: 'port_scan', description: 'Scan the TCP ports of a host.', input_schema: CATALOGUE[0]?.parameters });
    const responses = render(second, { provider: 'openai-responses' });
    expect(responses.tools?.[3]).toMatchObject({ type: 'function', name: OPEN_TOOLS, strict: false });
  });

  it('adds the options’ tools after the advertised ones, once per name', async () => {
    const { first } = await example();
    const body = render(first, { provider: 'openai-chat', tools: [{ name: 'port_scan', description: 'other' }, { name: 'backend_only' }] });
    expect(toolNames('openai-chat', body)).toEqual(['ping_sweep', 'port_scan', OPEN_TOOLS, 'backend_only']);
    expect(body.tools?.[1]?.function.description).toBe('Scan the TCP ports of a host.');
  });

  it('a change of the view keeps the tools before it as a prefix (OpenAI) and is the only prefix break of the turn', async () => {
    const { first, second } = await example();
    const [a, b] = [render(first, { provider: 'openai-chat' }), render(second, { provider: 'openai-chat', allowAssistantLast: true })];
    expect(b.tools?.slice(0, 2)).toEqual(a.tools?.slice(0, 2));
    expect(stablePrefix(a, b).bytes).toBeGreaterThan(JSON.stringify({ model: 'gpt-4o', messages: [] }).length);
  });

  it('docs/tools.md shows the request body render produces', async () => {
    const { second } = await example();
    const doc = readFileSync(new URL('../../../docs/tools.md', import.meta.url), 'utf8');
    const block = /<!-- example-body -->\n```json\n([\s\S]*?)\n```/.exec(doc)?.[1];
    expect(block).toBe(JSON.stringify(render(second, { provider: 'openai-chat', allowAssistantLast: true }), null, 2));
  });
});
