// Runs the LangGraph agent with its checkpoints in a ctxgit repository, then shows how to read them with plain git:
// `node --conditions=@ctxgit/source --import tsx examples/langgraph/src/main.ts [repo dir, default ./.ctxgit-langgraph]`
import { resolve } from 'node:path';
import { runAgent } from './agent.js';

const dir = resolve(process.argv[2] ?? '.ctxgit-langgraph');
const run = await runAgent(dir);
for (const answer of run.answers) console.log(`agent: ${answer}`);
console.log(`\n${run.checkpoints} checkpoints of thread support-42; its messages are session ${run.session}, latest ContextCommit ${run.commit.slice(0, 12)}`);
console.log(`the model would be sent ${run.request.messages.length} messages\n`);
console.log('read them with plain git:');
console.log(`  git --git-dir ${dir} log --oneline refs/langgraph/support-42          # one commit per checkpoint and per task's writes`);
console.log(`  git --git-dir ${dir} ls-tree -r --name-only refs/langgraph/support-42   # ns_/checkpoints/<xx>/<id>/…, ns_/channels/<channel>/<xx>/<version>…, ns_/latest`);
console.log(`  git --git-dir ${dir} log --oneline refs/ctxgit/sessions/${run.session}/context   # the ContextCommits of the conversation`);
console.log(`  git --git-dir ${dir} fsck --strict`);
