import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { importOpenAIChat, importSweAgentTraj } from '@ctxgit/dag';
import type { Transcript } from '@ctxgit/dag';
import { openRepo } from '@ctxgit/commit';
import type { CommitRequest } from '@ctxgit/commit';
import { render } from '@ctxgit/render';
import { RulesOverBudgetError } from '@ctxgit/rules';
import { countRequest, loadTokenizer } from '@ctxgit/tokenize';
import type { RequestFormat } from '@ctxgit/tokenize';
import { describe, expect, it } from 'vitest';

// The budget is the rendered request: a session with a request frame replays corpus conversations at a small window,
// and every commit, rendered for the frame's provider with its tools, is counted as the provider counts the body.

const CORPUS = fileURLToPath(new URL('../../shared/corpus/', import.meta.url));
const WINDOW = 4000;
const OUTPUT_RESERVE = 600;
const PROVIDER = { 'openai-chat': 'openai-chat', 'openai-responses': 'openai-responses', 'anthropic-messages': 'anthropic' } as const;
const TOOL = { name: 'bash', description: 'Run a shell command and return its output.', parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] } };
const TOOLS: Record<RequestFormat, unknown[]> = {
  'openai-chat': [{ type: 'function', function: TOOL }],
  'openai-responses': [{ type: 'function', name: TOOL.name, description: TOOL.description, parameters: TOOL.parameters }],
  'anthropic-messages': [{ name: TOOL.name, description: TOOL.description, input_schema: TOOL.parameters }],
};

function transcripts(): { name: string; t: Transcript }[] {
  const swe = readdirSync(`${CORPUS}swe-agent`).filter((f) => f.endsWith('.traj')).sort().slice(0, 3);
  const tau = importOpenAIChat(readFileSync(`${CORPUS}tau-bench-airline/gpt-4o-airline.jsonl`, 'utf8')).slice(0, 3);
  return [...swe.map((f, i) => ({ name: `swe-${i}`, t: importSweAgentTraj(readFileSync(`${CORPUS}swe-agent/${f}`, 'utf8')) })), ...tau.map((t, i) => ({ name: `tau-${i}`, t }))];
}

describe.each(Object.keys(PROVIDER) as RequestFormat[])('a session with a %s request frame', (format) => {
  it(`never renders a request over a ${WINDOW}-token window (tools, wrappers and the reply reserve included)`, async () => {
    const tokenizer = await loadTokenizer('o200k_base');
    const repo = await openRepo({ memory: true, clock: () => 1_700_000_000_000 });
    const request: CommitRequest = { format, tools: TOOLS[format], fixedTokens: 0 };
    let commits = 0;
    let refused = 0;
    let largest = 0;
    for (const { name, t } of transcripts()) {
      let now = 1_700_000_000_000;
      const s = await repo.createSession(name, { model: 'openai:gpt-4o', window: WINDOW, outputReserve: OUTPUT_RESERVE, request, clock: () => (now += 1000) });
      const ids: string[] = [];
      for (const e of t.entries) {
        if (e.role === 'assistant' && ids.length > 0) {
          try {
            const c = await s.commit();
            const body = { ...render(c, { provider: PROVIDER[format], allowAssistantLast: true, model: format === 'anthropic-messages' ? 'claude-sonnet-4-5' : 'gpt-4o' }), tools: TOOLS[format] };
            const sent = countRequest(format, body, tokenizer).total;
            largest = Math.max(largest, sent);
            expect(sent + OUTPUT_RESERVE, `${name}: commit ${c.id} renders ${sent} tokens`).toBeLessThanOrEqual(WINDOW);
            commits++;
          } catch (err) {
            // a round that cannot fit at all is refused with its figures, never sent over the window
            if (!(err instanceof RulesOverBudgetError)) throw err;
            expect((err.data as { window?: number }).window).toBe(WINDOW);
            refused++;
          }
        }
        const caller = e.caller === undefined ? undefined : ids[e.caller];
        const node = await s.append({ role: e.role, output: e.output, ...(e.name === undefined ? {} : { name: e.name }), ...(e.input === undefined ? {} : { input: e.input }), ...(caller === undefined ? {} : { caller }), ...(e.metadata === undefined ? {} : { metadata: e.metadata }) });
        ids.push(node.id);
      }
    }
    expect(commits).toBeGreaterThan(30);
    expect(refused, `${refused} refused of ${commits + refused}`).toBeLessThan(commits / 5);
    // the frame is used, not left idle: requests come close to the window
    expect(largest).toBeGreaterThan((WINDOW - OUTPUT_RESERVE) / 2);
  }, 600_000);
});
