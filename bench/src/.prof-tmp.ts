import { runPipeline, type ContextItem } from '@ctxgit/rules';
import { loadTokenizer } from '@ctxgit/tokenize';
import type { Node } from '@ctxgit/dag';
const tokenizer = await loadTokenizer('o200k_base');
const W = ['parse', 'config', 'loader', 'schema', 'field', 'nested', 'value', 'marshal'];
const w = (i: number) => W[i % W.length] as string;
function turn(i: number): Node[] {
  const at = i * 20000;
  return [
    { id: `u${i}`, session: 'b', seq: 3 * i, createdAt: at, role: 'user', output: `Step ${i}: look at ${w(i)}_${w(i + 3)} now.` },
    { id: `a${i}`, session: 'b', seq: 3 * i + 1, createdAt: at + 1000, role: 'assistant', output: `I will check ${w(i)}_${w(i + 3)} in src/pkg${i % 17} and ${w(i - 1)}_${(i - 1) % 9}.`, predecessor: `u${i}` },
    { id: `t${i}`, session: 'b', seq: 3 * i + 2, createdAt: at + 2000, role: 'tool', name: 'bash', input: { command: `cat src/pkg${i % 17}/${w(i)}.py` }, output: Array.from({ length: 30 }, (_, k) => `${k}: def ${w(i + k)}_${k}(): return ${w(k)}_${i % 9}`).join('\n'), caller: `a${i}` },
  ];
}
const N = Number(process.argv[2] ?? 10000);
const mode = process.argv[3] ?? 'steady';
const ctx = mode === 'steady' ? { historyBudget: 1e12, band: { epochs: false } } : { historyBudget: 32000, band: {} };
let items: readonly ContextItem[] = [];
const chunk = mode === 'steady' ? 500 : 6;
for (let i = 0; i < N; i += chunk) { const ns: Node[] = []; for (let k = i; k < Math.min(N, i + chunk); k++) ns.push(...turn(k)); items = runPipeline(items, ns, { now: (ns.at(-1) as Node).createdAt, tokenizer, ...ctx }).items; }
import { Session } from 'node:inspector/promises';
const sess = new Session(); sess.connect(); await sess.post('Profiler.enable'); await sess.post('Profiler.start');
const ts: number[] = []; (globalThis as any).__T = {};
for (let k = 0; k < 200; k++) { const ns = turn(N + k); const s = performance.now(); items = runPipeline(items, ns, { now: (ns.at(-1) as Node).createdAt, tokenizer, ...ctx }).items; ts.push(performance.now() - s); }
const { profile } = await sess.post('Profiler.stop'); (await import('node:fs')).writeFileSync('/tmp/prof/timed.cpuprofile', JSON.stringify(profile));
console.log(JSON.stringify(Object.fromEntries(Object.entries((globalThis as any).__T).map(([k,v]:any)=>[k,(v/200).toFixed(3)]))));
ts.sort((a, b) => a - b);
console.log(mode, N, items.length, 'median', ts[100]?.toFixed(3));
