// Branch and merge from code: edit a question (a sibling `< 2/2 >`), switch back, fork a session at a node, and merge
// the fork back with a multi-parent commit. The "model" is a stand-in so that the run is deterministic.
// Run: node --conditions=@ctxgit/source --import tsx examples/branch-and-merge.ts
import type { ContextCommit, Session } from '@ctxgit/commit';
import type { Node } from '@ctxgit/dag';
import { openRepo } from '@ctxgit/commit';
import { render } from '@ctxgit/render';

let now = Date.UTC(2025, 0, 1);
const repo = await openRepo({ memory: true, clock: () => (now += 60_000) });
const main = await repo.createSession('main', { model: 'openai:gpt-4o' });

/** The stand-in model: answers the last user message of the rendered request. */
function model(commit: ContextCommit): string {
  const last = render(commit, { provider: 'openai-chat' }).messages.at(-1);
  return `(answer to: ${typeof last?.content === 'string' ? last.content : ''})`;
}

/** One model call from the session's head (after a user turn): commit, render, append the answer. */
async function answer(s: Session): Promise<{ commit: ContextCommit; reply: Node }> {
  const commit = await s.commit();
  return { commit, reply: await s.append({ role: 'assistant', output: model(commit) }) };
}

await main.append({ role: 'system', output: 'You plan trips.' });
await main.append({ role: 'user', output: 'Plan a day in Lyon.' });
const plan = await answer(main);
const museum = await main.append({ role: 'user', output: 'Add a museum.' });
const museumAnswer = await answer(main);

// Edit: a sibling of the question (the original stays in the DAG), answered from its own commit.
const market = await main.edit(museum.id, 'Add a food market instead.');
const marketAnswer = await answer(main);
const pos = await main.siblings(market.id);
console.log(`edited question is < ${pos.index}/${pos.total} >: ${marketAnswer.reply.output}`);

// Switch back to the first version: display-only, nothing re-runs; its commit already exists.
const back = await main.checkout(museumAnswer.reply.id, { commit: true });
console.log(`back on < ${(await main.siblings(museum.id)).index}/${pos.total} >, commit ${back?.id.slice(0, 12)}`);

// Fork a session at the first plan and explore there.
const alt = await main.fork('rainy-day', { at: plan.reply.id });
await alt.append({ role: 'user', output: 'What if it rains?' });
await answer(alt);

// Merge the fork back: one attach pointer, an instruction, and a commit with two parents.
const merged = await repo.merge({ target: 'main', peers: ['rainy-day'], instruction: 'Combine both plans.' });
console.log(`merge ${merged.id.slice(0, 12)} has ${merged.parentIds.length} parents, ${merged.items.length} items`);
for (const e of await main.log()) console.log(`${e.id.slice(0, 12)} ${e.message.split('\n')[0]}`);
