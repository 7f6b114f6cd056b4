import {
  DagError,
  MemoryNodeStore,
  appendNode,
  branchView,
  checkout,
  createSession,
  editNode,
  forkSession,
  retryNode,
  setAgentRunning,
  siblingIndex,
  type Node,
  type NodeInput,
} from '@ctxgit/dag';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

type Cmd =
  | { readonly op: 'append'; readonly s: number; readonly role: 'user' | 'assistant' | 'system'; readonly text: string }
  | { readonly op: 'tool'; readonly s: number; readonly pick: number; readonly text: string }
  | { readonly op: 'retry'; readonly s: number; readonly pick: number }
  | { readonly op: 'edit'; readonly s: number; readonly pick: number; readonly text: string }
  | { readonly op: 'checkout'; readonly s: number; readonly pick: number }
  | { readonly op: 'fork'; readonly s: number; readonly pick: number }
  | { readonly op: 'running'; readonly s: number; readonly on: boolean }
  | { readonly op: 'bad'; readonly s: number; readonly kind: number; readonly pick: number };

const text = fc.string({ maxLength: 12 });
const s = fc.nat(3);
const pick = fc.nat(1000);
const cmd: fc.Arbitrary<Cmd> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ op: fc.constant('append' as const), s, role: fc.constantFrom('user' as const, 'assistant' as const, 'system' as const), text }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('tool' as const), s, pick, text }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('retry' as const), s, pick }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('edit' as const), s, pick, text }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('checkout' as const), s, pick }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('fork' as const), s, pick }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('running' as const), s, on: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('bad' as const), s, kind: fc.nat(5), pick }) },
);

interface Run {
  readonly store: MemoryNodeStore;
  readonly nodes: Node[];
  readonly sessions: string[];
  readonly failures: number;
}

/** Everything in the store as JSON text: sessions, and every known node with its children and callees. */
async function dump(store: MemoryNodeStore, nodes: readonly Node[]): Promise<string> {
  const out: unknown[] = [];
  for (const id of await store.listSessions()) out.push(await store.getSession(id), [...(await store.rootsOf(id))]);
  for (const n of nodes) out.push(await store.getNode(n.id), [...(await store.childrenOf(n.id))], [...(await store.calleesOf(n.id))]);
  return JSON.stringify(out);
}

/** The sibling group of a node: children of a predecessor, callees of a caller, or roots of a session. */
const parentOf = (n: Node): string => (n.predecessor !== undefined ? `p:${n.predecessor}` : n.caller !== undefined ? `c:${n.caller}` : `r:${n.session}`);

async function checkInvariants(run: Run, snapshots: ReadonlyMap<string, string>): Promise<void> {
  const { store, nodes } = run;
  // Append-only: every node ever stored is still there, byte-identical.
  for (const n of nodes) expect(JSON.stringify(await store.getNode(n.id))).toBe(snapshots.get(n.id));
  // Branch views are valid chains with tool nodes right after their assistant.
  for (const id of run.sessions) {
    const rec = await store.getSession(id);
    if (rec?.head == null) continue;
    const view = await branchView(store, rec.head);
    let prev: Node | undefined;
    let lastTool: Node | undefined;
    for (const v of view) {
      if (v.role === 'tool') {
        // Hung right after its assistant (the last conversation node), in seq order.
        expect(prev?.role).toBe('assistant');
        expect(v.caller).toBe(prev?.id);
        expect(v.seq).toBeGreaterThan(prev?.seq ?? -1);
        // Callees in seq order; equal seqs (calls from different sessions) by id.
        if (lastTool !== undefined) expect(lastTool.seq < v.seq || (lastTool.seq === v.seq && lastTool.id < v.id)).toBe(true);
        lastTool = v;
      } else {
        // Each conversation node follows the previous one, with a higher seq.
        expect(v.predecessor).toBe(prev?.id);
        expect(v.seq).toBeGreaterThan(prev?.seq ?? -1);
        prev = v;
        lastTool = undefined;
      }
    }
    expect(prev?.id).toBe(rec.head);
    expect(new Set(view.map((v) => v.id)).size).toBe(view.length);
    expect(view.filter((v) => v.role === 'tool').length).toBe((await Promise.all(view.filter((v) => v.role === 'assistant').map((v) => store.calleesOf(v.id)))).flat().length);
  }
  // Siblings are consistent: every node is found at its index among nodes with the same parent.
  for (const n of nodes) {
    const pos = await siblingIndex(store, n.id);
    expect(pos.ids[pos.index - 1]).toBe(n.id);
    expect(pos.total).toBe(pos.ids.length);
    for (const sib of pos.ids) {
      const other = await store.getNode(sib);
      expect(other === undefined ? 'missing' : parentOf(other)).toBe(parentOf(n));
    }
    const expected = nodes.filter((m) => parentOf(m) === parentOf(n)).length;
    expect(pos.total).toBe(expected);
  }
}

async function execute(cmds: readonly Cmd[], check: boolean): Promise<Run> {
  let t = 0;
  const opts = { clock: () => t++ };
  const store = new MemoryNodeStore();
  const run: { store: MemoryNodeStore; nodes: Node[]; sessions: string[]; failures: number } = { store, nodes: [], sessions: ['s0'], failures: 0 };
  await createSession(store, 's0');
  const snapshots = new Map<string, string>();
  const of = (i: number): string => run.sessions[i % run.sessions.length] ?? 's0';
  const nodeAt = (i: number, filter: (n: Node) => boolean = () => true): Node | undefined => {
    const pool = run.nodes.filter(filter);
    return pool.length === 0 ? undefined : pool[i % pool.length];
  };
  for (const c of cmds) {
    const session = of(c.s);
    const before = check ? await dump(store, run.nodes) : '';
    const recBefore = await store.getSession(session);
    let made: Node | undefined;
    let failed = false;
    try {
      switch (c.op) {
        case 'append':
          made = await appendNode(store, session, { role: c.role, output: c.text }, opts);
          expect(made.predecessor).toBe(recBefore?.head ?? undefined);
          expect((await store.getSession(session))?.head).toBe(made.id);
          break;
        case 'tool': {
          const caller = nodeAt(c.pick, (n) => n.role === 'assistant');
          if (caller === undefined) continue;
          made = await appendNode(store, session, { role: 'tool', name: 'run', input: { n: c.pick }, output: c.text, caller: caller.id }, opts);
          expect((await store.getSession(session))?.head).toBe(recBefore?.head);
          break;
        }
        case 'retry':
        case 'edit': {
          const orig = nodeAt(c.pick);
          if (orig === undefined) continue;
          made = c.op === 'retry' ? await retryNode(store, session, orig.id, opts) : await editNode(store, session, orig.id, { output: `${orig.output}|${c.text}` }, opts);
          expect(parentOf(made)).toBe(parentOf(orig));
          expect(made.role).toBe(orig.role);
          if (c.op === 'retry') expect([made.name, made.input, made.output, made.metadata]).toEqual([orig.name, orig.input, orig.output, orig.metadata]);
          else expect(made.output).not.toBe(orig.output);
          expect((await store.getSession(session))?.head).toBe(orig.role === 'tool' ? recBefore?.head : made.id);
          break;
        }
        case 'checkout': {
          const target = nodeAt(c.pick, (n) => n.role !== 'tool');
          if (target === undefined) continue;
          const nodesBefore = check ? await dump(store, run.nodes) : '';
          const rec = await checkout(store, session, target.id);
          expect(rec.head).toBe(target.id);
          expect({ ...rec, head: null, version: 0 }).toEqual({ ...recBefore, head: null, version: 0 });
          if (check) {
            // Only HEAD (and the record version) moved: every node, list and other session is unchanged.
            const after = JSON.parse(await dump(store, run.nodes)) as unknown[];
            const prior = JSON.parse(nodesBefore) as unknown[];
            const strip = (xs: unknown[]): unknown[] => xs.map((x) => (x !== null && typeof x === 'object' && 'head' in x && (x as unknown as { id: string }).id === session ? null : x));
            expect(strip(after)).toEqual(strip(prior));
          }
          break;
        }
        case 'fork': {
          const at = nodeAt(c.pick, (n) => n.role !== 'tool');
          if (at === undefined) continue;
          const id = `s${run.sessions.length}`;
          const rec = await forkSession(store, session, id, { at: at.id });
          expect(rec).toMatchObject({ head: at.id, nextSeq: at.seq + 1, forkedFrom: { session, node: at.id } });
          run.sessions.push(id);
          break;
        }
        case 'running':
          await setAgentRunning(store, session, c.on);
          break;
        case 'bad': {
          const target = nodeAt(c.pick);
          const bads: Array<() => Promise<unknown>> = [
            () => appendNode(store, session, { role: 'robot', output: 'x' } as unknown as NodeInput, opts),
            () => appendNode(store, session, { role: 'tool', name: 't', output: 'x', caller: 'ffffffffffffffff' }, opts),
            () => appendNode(store, session, { role: 'user', output: 'x', input: { f: [1, undefined] } as never }, opts),
            () => appendNode(store, session, { role: 'user', output: 'way too long' }, { ...opts, maxOutputBytes: 4 }),
            () => (target === undefined ? checkout(store, session, 'ffffffffffffffff') : editNode(store, session, target.id, { output: target.output }, opts)),
            () => appendNode(store, `missing-${session}`, { role: 'user', output: 'x' }, opts),
          ];
          await (bads[c.kind] ?? bads[0])?.();
          throw new Error(`bad command ${c.kind} did not fail`);
        }
      }
    } catch (e) {
      if (!(e instanceof DagError)) throw e;
      failed = true;
      run.failures++;
      // A failing operation stores nothing.
      if (check) expect(await dump(store, run.nodes)).toBe(before);
    }
    if (made !== undefined && !failed) {
      run.nodes.push(made);
      snapshots.set(made.id, JSON.stringify(await store.getNode(made.id)));
      expect(await store.getNode(made.id)).toEqual(made);
    }
    if (check) await checkInvariants(run, snapshots);
  }
  return run;
}

describe('invariants over random operation sequences', () => {
  it('append-only, valid branch views, consistent siblings, failures store nothing', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(cmd, { maxLength: 40 }), async (cmds) => {
        await execute(cmds, true);
      }),
      { numRuns: 120 },
    );
  });

  it('the same calls give the same ids and the same store', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(cmd, { maxLength: 40 }), async (cmds) => {
        const a = await execute(cmds, false);
        const b = await execute(cmds, false);
        expect(b.nodes.map((n) => n.id)).toEqual(a.nodes.map((n) => n.id));
        expect(await dump(b.store, b.nodes)).toBe(await dump(a.store, a.nodes));
        expect(new Set(a.nodes.map((n) => n.id)).size).toBe(a.nodes.length);
      }),
      { numRuns: 60 },
    );
  });
});
