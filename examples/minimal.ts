// The smallest embedding: each model call is made from a ContextCommit, rendered for the provider. Run:
// ANTHROPIC_API_KEY=... node --conditions=@ctxgit/source --import tsx examples/minimal.ts
import Anthropic from '@anthropic-ai/sdk';
import { openRepo } from '@ctxgit/commit';
import { render } from '@ctxgit/render';

const repo = await openRepo({ dir: '.ctxgit' }); // a bare git repository, created when missing
const chat = (await repo.listSessions()).includes('chat')
  ? await repo.openSession('chat') // a second run continues the conversation
  : await repo.createSession('chat', { model: 'anthropic:claude-sonnet-4-5' });
const anthropic = new Anthropic(); // reads ANTHROPIC_API_KEY (and ANTHROPIC_BASE_URL)

async function ask(question: string): Promise<string> {
  await chat.append({ role: 'user', output: question });
  const commit = await chat.commit(); // what the model is fed now, stored as a git commit
  const reply = await anthropic.messages.create(render(commit, { provider: 'anthropic', maxTokens: 512 }));
  const text = reply.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
  await chat.append({ role: 'assistant', output: text });
  await chat.recordUsage({ head: commit.id, inputTokens: reply.usage.input_tokens, cacheReadTokens: reply.usage.cache_read_input_tokens ?? 0 });
  return text;
}

console.log(await ask('Name three prime numbers.'));
console.log(await ask('Now add them up.'));
console.log(await chat.occupancy()); // { window, total_used, basis: 'measured', ... }
console.log((await chat.log()).map((c) => c.message.split('\n')[0])); // the context timeline, newest first
