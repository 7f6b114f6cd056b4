import { render } from '/work/main/packages/render/src/index.ts';
const mk = (i, role, text, extra = {}) => ({ key: `k${i}`, sourceNodeId: `n${i}`, role, state: 'full', locked: false, blocks: [{ type: 'text', text }], tokens: 5, reason: 'new', touchedAt: 0, ...extra });
const items = [mk(0, 'user', 'start'), mk(1, 'assistant', 'summary of X', { state: 'summary', key: 'sm_1', sourceNodeId: 'sm_1', folded: ['k9'] }), mk(2, 'user', 'T', { attachedFrom: 'ptr' }), mk(3, 'assistant', 'T', { attachedFrom: 'ptr' }), mk(4, 'user', 'T')];
const c = { id: '0'.repeat(40), session: 's', parentIds: [], headNodeId: 'n0', rulesVersion: 'v', model: 'openai:gpt-4o', window: 128000, totalTokens: 10, items, summary: { added: 5, aged: 0, cleared: 0, folded: 0, firstChangedIndex: 0 }, createdAt: 0 };
console.log(JSON.stringify(render(c, { provider: 'text' })));
console.log(JSON.stringify(render(c, { provider: 'openai-chat' })));
