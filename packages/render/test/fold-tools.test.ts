import type { Tool as AnthropicSdkTool } from '@anthropic-ai/sdk/resources/messages';
import type { ChatCompletionTool } from 'openai/resources/chat/completions';
import type { FunctionTool } from 'openai/resources/responses/responses';
import { describe, expect, it } from 'vitest';
import { foldTools, foldToolsFor, openRepo } from '@ctxgit/commit';
import { defaultRules } from '@ctxgit/rules';
import { render, validateRequest } from '../src/index.js';

// Type-level: the provider formats are the SDKs' own tool types (checked by `tsc -p tsconfig.json` at the root).
const chatTools: ChatCompletionTool[] = foldToolsFor('openai-chat');
const responsesTools: FunctionTool[] = foldToolsFor('openai-responses');
const anthropicTools: AnthropicSdkTool[] = foldToolsFor('anthropic');

describe('fold tools in provider requests', () => {
  it('a request declaring the fold tools, with a fold tool call and the handler result, is valid for every provider', async () => {
    let t = 1_700_000_000_000;
    const repo = await openRepo({ memory: true, clock: () => (t += 1000) });
    const s = await repo.createSession('desk', { model: 'openai:gpt-4o', budget: 600, rules: defaultRules({ graphProtection: false }) });
    // turns until the first fold, then the model searches what was folded
    for (let i = 0; i === 0 || !(await s.commit()).items.some((it) => it.state === 'summary'); i++) {
      await s.append({ role: 'user', output: `Where is order ORD-${1000 + i}?` });
      await s.commit();
      await s.append({ role: 'assistant', output: `Order ORD-${1000 + i} ships with parcel PX${7 * i}; the carrier confirmed the pickup at the depot and the tracking page is live.` });
      await s.append({ role: 'user', output: 'Noted.' });
    }
    await s.append({ role: 'user', output: 'Which parcel had ORD-1000?' });
    await s.commit();
    const a = await s.append({ role: 'assistant', output: 'Let me look in the earlier conversation.' });
    const args = { query: 'px0', limit: 1 };
    const result = await s.foldTool({ name: 'fold_search', arguments: JSON.stringify(args) });
    expect(result.isError).toBe(false);
    expect(result.output).toContain('PX0');
    await s.append({ role: 'tool', name: 'fold_search', input: args, output: result.output, caller: a.id, metadata: { callId: 'call_fold_1', isError: result.isError } });
    await s.append({ role: 'assistant', output: 'It was parcel PX0.' });
    await s.append({ role: 'user', output: 'Thanks.' });
    const commit = await s.commit();
    expect(commit.items.some((it) => it.state === 'summary')).toBe(true);

    const tools = foldTools();
    const chat = render(commit, { provider: 'openai-chat', tools });
    const responses = render(commit, { provider: 'openai-responses', tools });
    const anthropic = render(commit, { provider: 'anthropic', model: 'claude-sonnet-4-5', tools });
    expect(validateRequest('openai-chat', chat)).toEqual([]);
    expect(validateRequest('openai-responses', responses)).toEqual([]);
    expect(validateRequest('anthropic', anthropic)).toEqual([]);
    // render's own conversion of the neutral definitions is exactly the provider format foldToolsFor gives
    expect(chat.tools).toEqual(chatTools);
    expect(responses.tools).toEqual(responsesTools);
    expect(anthropic.tools).toEqual(anthropicTools);
    expect(validateRequest('anthropic', { ...render(commit, { provider: 'anthropic', model: 'claude-sonnet-4-5' }), tools: anthropicTools })).toEqual([]);
    expect(JSON.stringify(anthropic.messages)).toContain('call_fold_1');
  });
});
