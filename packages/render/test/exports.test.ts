import { describe, expect, it } from 'vitest';
import { InvalidCommitError, InvalidRenderOptionError, RenderError, UnknownProviderError, minCacheableTokens, render } from '../src/index.js';
import { commitOf, user } from './support/items.js';

describe('@ctxgit/render exports', () => {
  it('exports exactly the public API', async () => {
    expect(Object.keys(await import('../src/index.js')).sort()).toEqual([
      'ATTACH_CLOSE',
      'EmptyRenderError',
      'InvalidCommitError',
      'InvalidEndingError',
      'InvalidRenderOptionError',
      'MARKER_NAMESPACE',
      'MAX_CACHE_BREAKPOINTS',
      'ModelMismatchError',
      'OPENING_USER_TEXT',
      'RenderError',
      'SUMMARY_PREFIX',
      'TEXT_BLOCK_SEPARATOR',
      'UnknownProviderError',
      'escapeMarkers',
      'minCacheableTokens',
      'providers',
      'render',
      'stablePrefix',
      'unescapeMarkers',
      'validateRequest',
    ]);
  });
});

describe('render input checks', () => {
  const commit = commitOf([user('u', 'hi')]);

  it('refuses unknown providers and bad options with typed errors', () => {
    expect(() => render(commit, { provider: 'gemini' as 'text' })).toThrow(UnknownProviderError);
    expect(() => render(commit, { provider: 'toString' as 'text' })).toThrow(expect.objectContaining({ code: 'E_RENDER_UNKNOWN_PROVIDER' }));
    expect(() => render(commit, { provider: 'anthropic', maxTokens: 0 })).toThrow(expect.objectContaining({ code: 'E_RENDER_INVALID_OPTION', data: { option: 'maxTokens', value: '0', expected: 'a positive integer' } }));
    expect(() => render(commit, { provider: 'openai-chat', systemRole: 'root' as 'system' })).toThrow(InvalidRenderOptionError);
    expect(() => render(commit, { provider: 'openai-chat', tools: [{ name: 'a b' }] })).toThrow(InvalidRenderOptionError);
    expect(() => render(commit, { provider: 'openai-chat', tools: [{ name: 'a' }, { name: 'a' }] })).toThrow(InvalidRenderOptionError);
    expect(() => render(commit, { provider: 'anthropic', minCacheableTokens: -1 })).toThrow(InvalidRenderOptionError);
  });

  it('refuses malformed commits with InvalidCommitError, a RenderError', () => {
    const bad = { ...commit, items: [{ ...user('u', 'x'), role: 'robot' }] } as unknown as typeof commit;
    expect(() => render(bad, { provider: 'text' })).toThrow(InvalidCommitError);
    expect(() => render({ ...commit, items: 'x' } as unknown as typeof commit, { provider: 'text' })).toThrow(RenderError);
    expect(() => render(null as unknown as typeof commit, { provider: 'text' })).toThrow(expect.objectContaining({ code: 'E_RENDER_INVALID_COMMIT' }));
  });

  it('checks a summarized item but its blocks, which no provider reads', () => {
    const folded = { ...user('f', 'old'), state: 'summarized', mergedInto: 'sm_x' };
    const withFolded = (item: object) => ({ ...commit, items: [item, user('u', 'hi')] }) as unknown as typeof commit;
    expect(render(withFolded({ ...folded, blocks: undefined }), { provider: 'text' })).toContain('(folded into sm_x)');
    expect(() => render(withFolded({ ...folded, role: 'robot' }), { provider: 'text' })).toThrow(expect.objectContaining({ data: expect.objectContaining({ index: 0, field: 'role' }) }));
    expect(() => render(withFolded({ ...folded, tokens: Number.NaN }), { provider: 'openai-chat' })).toThrow(expect.objectContaining({ data: expect.objectContaining({ index: 0, field: 'tokens' }) }));
  });

  it('reads the minimum cacheable length from the model name', () => {
    expect([minCacheableTokens('claude-sonnet-4-5'), minCacheableTokens('anthropic:claude-3-haiku-20240307'), minCacheableTokens('claude-opus-4-5'), minCacheableTokens('claude-haiku-4-5')]).toEqual([1024, 2048, 4096, 4096]);
  });
});
