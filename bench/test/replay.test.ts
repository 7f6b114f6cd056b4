import { itemFromNode } from '@ctxgit/rules';
import { describe, expect, it } from 'vitest';
import { canonicalRequest } from '../src/eval/canonical-request.js';
import { chainSessions } from '../src/eval/chain-sessions.js';
import { fullHistoryPolicy } from '../src/eval/policies/full-history.js';
import { slidingWindowPolicy } from '../src/eval/policies/sliding-window.js';
import { prepareCalls } from '../src/eval/prepare-calls.js';
import { replayPolicy } from '../src/eval/replay-policy.js';
import { createTokenMeter } from '../src/eval/token-meter.js';
import { charTokenizer, node } from './fixtures/synthetic.js';

const nodes = [
  node('n0', 0, 'system', 'You are helpful.'),
  node('n1', 1, 'user', 'Find the config file.'),
  node('n2', 2, 'assistant', 'Searching.'),
  node('n3', 3, 'tool', 'found deploy/settings.yaml', { name: 'find', input: { pattern: '*.yaml' }, caller: 'n2' }),
  node('n4', 4, 'assistant', 'Opening deploy/settings.yaml now.', { predecessor: 'n2' }),
  node('n5', 5, 'user', 'thanks', { predecessor: 'n4' }),
  node('n6', 6, 'assistant', 'The file deploy/settings.yaml is open.', { predecessor: 'n5' }),
];
const transcript = { id: 'synthetic', corpus: 'synthetic', nodes, timestamps: false };
const calls = prepareCalls(transcript, (n) => itemFromNode(n, charTokenizer));
/** 3 tokens per message and per request, no tool-call wrapper: the figures below are counted by hand that way. */
const meter = createTokenMeter(charTokenizer, { perMessage: 3, perToolCall: 0, perRequest: 3 });
/** The canonical JSON as the body, counted by the meter (a valid request). */
const canonical = (items: Parameters<typeof canonicalRequest>[0]) => ({ body: canonicalRequest(items), tokens: meter.requestTokens(items) });
const pick = (r: Awaited<ReturnType<typeof replayPolicy>>[number]) => ({
  tokens: r.tokens,
  overBudget: r.overBudget,
  latestUserPresent: r.latestUserPresent,
  systemPresent: r.systemPresent,
  sharedPrefixTokens: r.sharedPrefixTokens,
  reused: r.reused,
  visible: r.visible,
  breakpoints: r.shape.breakpoints,
});

describe('prepareCalls', () => {
  it('makes one call per assistant step, with the nodes before it and the identifiers it reuses', () => {
    expect(calls.map((c) => [c.step.id, c.history.length, c.newNodes.map((n) => n.id), c.reused, c.now, c.at])).toEqual([
      ['n2', 2, ['n0', 'n1'], [], 1, null],
      ['n4', 4, ['n2', 'n3'], ['deploy/settings.yaml'], 3, null],
      ['n6', 6, ['n4', 'n5'], ['deploy/settings.yaml'], 5, null],
    ]);
  });

  it('in a chained session, counts a reuse only from the step\'s own conversation', () => {
    // Two conversations chained: the second one's agent never saw the first one's tool result, so the path it writes
    // (found by its own tool) is a reuse, the word it shares with the first one's result is not.
    const first = { id: 'a', corpus: 'synthetic', nodes: nodes.slice(0, 5), timestamps: false };
    const second = {
      id: 'b',
      corpus: 'synthetic',
      nodes: [
        node('m1', 0, 'user', 'Check the release.'),
        node('m2', 1, 'assistant', 'Listing.'),
        node('m3', 2, 'tool', 'release/notes.md', { name: 'ls', input: {}, caller: 'm2' }),
        node('m4', 3, 'assistant', 'Reading release/notes.md next to deploy/settings.yaml.', { predecessor: 'm2' }),
      ],
      timestamps: false,
    };
    const chained = chainSessions('long', [first, second], 3);
    const steps = prepareCalls(chained, (n) => itemFromNode(n, charTokenizer)).map((c) => [c.step.id, c.reused]);
    expect(steps).toEqual([
      ['0.0.n2', []],
      ['0.0.n4', ['deploy/settings.yaml']],
      ['0.1.m2', []],
      ['0.1.m4', ['release/notes.md']],
    ]);
    // Read as one conversation, the second one's step would count the first one's path too.
    const { conversationOf: _, ...plain } = chained;
    expect(prepareCalls(plain, (n) => itemFromNode(n, charTokenizer)).at(-1)?.reused).toEqual(['release/notes.md', 'deploy/settings.yaml']);
  });
});

describe('replayPolicy', () => {
  // Tokens (1 per char + 3 per message): n0 19, n1 24, n2 13, n3 'find({"pattern":"*.yaml"})\nfound deploy/settings.yaml' 56, n4 36, n5 9.
  it('measures the full history: tokens, shared prefix, recall, presence', async () => {
    const records = await replayPolicy(calls, fullHistoryPolicy, 100, meter, canonical);
    expect(records.map(pick)).toEqual([
      { tokens: 46, overBudget: false, latestUserPresent: true, systemPresent: true, sharedPrefixTokens: 0, reused: 0, visible: 0, breakpoints: [1, 2] },
      { tokens: 115, overBudget: true, latestUserPresent: true, systemPresent: true, sharedPrefixTokens: 43, reused: 1, visible: 1, breakpoints: [1, 4] },
      { tokens: 160, overBudget: true, latestUserPresent: true, systemPresent: true, sharedPrefixTokens: 112, reused: 1, visible: 1, breakpoints: [1, 6] },
    ]);
    const bodies = calls.map((c) => canonicalRequest(c.historyItems));
    expect(records[1]?.bytes).toBe(Buffer.byteLength(bodies[1] ?? ''));
    expect(records[1]?.sharedPrefixBytes).toBe((bodies[0] ?? '').length - 1);
  });

  it('measures a sliding window that loses the tool result, then finds the identifier again in an assistant message', async () => {
    const records = await replayPolicy(calls, slidingWindowPolicy, 100, meter, canonical);
    expect(records.map(pick)).toEqual([
      { tokens: 46, overBudget: false, latestUserPresent: true, systemPresent: true, sharedPrefixTokens: 0, reused: 0, visible: 0, breakpoints: [1, 2] },
      { tokens: 46, overBudget: false, latestUserPresent: true, systemPresent: true, sharedPrefixTokens: 43, reused: 1, visible: 0, breakpoints: [1, 2] },
      { tokens: 67, overBudget: false, latestUserPresent: true, systemPresent: true, sharedPrefixTokens: 19, reused: 1, visible: 1, breakpoints: [1, 3] },
    ]);
  });
});
