// A LangGraph.js StateGraph agent (an agent node and a tools node in a loop) whose checkpoints go to a ctxgit
// repository through CtxgitSaver. The model is scripted (no API key): it asks for a tool call, then answers.
import { openRepo } from '@ctxgit/commit';
import type { Repo } from '@ctxgit/commit';
import { CtxgitSaver } from '@ctxgit/langgraph';
import { render } from '@ctxgit/render';
import type { OpenAIChatRequest } from '@ctxgit/render';
import { AIMessage, HumanMessage, ToolMessage, isAIMessage } from '@langchain/core/messages';
import type { BaseMessage } from '@langchain/core/messages';
import { END, MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';

/** The tools the agent can call. */
const tools: Record<string, (args: Record<string, unknown>) => string> = {
  list_files: (args) => (args['path'] === '/srv/app' ? 'main.ts\npackage.json\nREADME.md' : 'no such directory'),
};

/** A scripted chat model: a tool call for each new question, then an answer from the tool's result. */
function fakeModel(messages: readonly BaseMessage[]): AIMessage {
  const last = messages.at(-1);
  const turn = messages.filter((m) => m.getType() === 'human').length;
  if (last instanceof ToolMessage) {
    const count = String(last.content).split('\n').length;
    return new AIMessage({ id: `answer-${turn}`, content: `There are ${count} files: ${String(last.content).split('\n').join(', ')}.` });
  }
  return new AIMessage({ id: `call-${turn}`, content: '', tool_calls: [{ id: `call_${turn}`, name: 'list_files', args: { path: '/srv/app' }, type: 'tool_call' }] });
}

function buildGraph(checkpointer: CtxgitSaver) {
  return new StateGraph(MessagesAnnotation)
    .addNode('agent', (state) => ({ messages: [fakeModel(state.messages)] }))
    .addNode('tools', (state) => {
      const last = state.messages.at(-1);
      const calls = last !== undefined && isAIMessage(last) ? (last.tool_calls ?? []) : [];
      return { messages: calls.map((c) => new ToolMessage({ id: `result-${c.id ?? ''}`, content: tools[c.name]?.(c.args) ?? `unknown tool ${c.name}`, tool_call_id: c.id ?? '', name: c.name })) };
    })
    .addEdge(START, 'agent')
    .addConditionalEdges('agent', (state) => {
      const last = state.messages.at(-1);
      return last !== undefined && isAIMessage(last) && (last.tool_calls?.length ?? 0) > 0 ? 'tools' : END;
    })
    .addEdge('tools', 'agent')
    .compile({ checkpointer });
}

/** What a run produced. */
export interface AgentRun {
  readonly repo: Repo;
  readonly answers: readonly string[];
  /** Number of checkpoints of the thread. */
  readonly checkpoints: number;
  /** The session the messages went to, and the ContextCommit of the latest checkpoint. */
  readonly session: string;
  readonly commit: string;
  /** That commit rendered for OpenAI Chat (it ends with the agent's answer). */
  readonly request: OpenAIChatRequest;
}

/** Runs two questions on thread `thread` with the checkpoints in the repository at `dir`. */
export async function runAgent(dir: string, thread = 'support-42'): Promise<AgentRun> {
  let t = Date.UTC(2026, 0, 1);
  const clock = () => (t += 1000);
  const repo = await openRepo({ dir, clock });
  const checkpointer = new CtxgitSaver({ repo, session: { model: 'openai:gpt-4o' }, clock });
  const graph = buildGraph(checkpointer);
  const config = { configurable: { thread_id: thread } };
  const answers: string[] = [];
  for (const [i, question] of ['What is in /srv/app?', 'Count them again, please.'].entries()) {
    const state = await graph.invoke({ messages: [new HumanMessage({ id: `question-${i + 1}`, content: question })] }, config);
    answers.push(String(state.messages.at(-1)?.content ?? ''));
  }
  let checkpoints = 0;
  for await (const _ of checkpointer.list(config)) checkpoints += 1;
  const context = await checkpointer.context(config);
  if (context === undefined) throw new Error('the latest checkpoint holds no messages');
  const request = render(await repo.readCommit(context.commit), { provider: 'openai-chat', allowAssistantLast: true });
  return { repo, answers, checkpoints, session: context.session, commit: context.commit, request };
}
