import { describe, expect, it } from 'vitest';
import { DEFAULT_MODELS, InvalidModelError, UnknownModelError, resolveModel } from '../src/index.js';

describe('resolveModel', () => {
  it('knows current OpenAI and Anthropic models', () => {
    expect(resolveModel('openai:gpt-4o')).toEqual({
      id: 'openai:gpt-4o',
      model: 'gpt-4o',
      known: true,
      provider: 'openai',
      window: 128_000,
      maxOutput: 16_384,
      encoding: 'o200k_base',
      cache: { read: 0.5, write: 1 },
    });
    for (const id of ['openai:gpt-4o-mini', 'openai:gpt-4.1', 'openai:gpt-4.1-mini', 'openai:gpt-4.1-nano', 'openai:o3', 'openai:o4-mini', 'openai:gpt-5', 'openai:gpt-5-mini', 'openai:gpt-5-nano']) {
      expect(resolveModel(id).encoding).toBe('o200k_base');
    }
    expect(resolveModel('openai:gpt-4').encoding).toBe('cl100k_base');
    for (const id of ['anthropic:claude-opus-4-1', 'anthropic:claude-sonnet-4-5', 'anthropic:claude-haiku-4-5', 'anthropic:claude-3-7-sonnet', 'anthropic:claude-3-5-haiku']) {
      const m = resolveModel(id);
      expect(m).toMatchObject({ provider: 'anthropic', window: 200_000, encoding: 'estimate' });
    }
    expect(resolveModel('openai:gpt-4.1').window).toBe(1_047_576);
    expect(resolveModel('anthropic:claude-sonnet-4-5').maxOutput).toBe(64_000);
  });

  it('knows what a cached input token bills: the entry prices, else the provider defaults', () => {
    expect(resolveModel('anthropic:claude-haiku-4-5').cache).toEqual({ read: 0.1, write: 1.25 });
    expect(resolveModel('anthropic:claude-3-haiku').cache).toEqual({ read: 0.12, write: 1.2 });
    expect(resolveModel('openai:gpt-4.1-mini').cache).toEqual({ read: 0.25, write: 1 });
    expect(resolveModel('openai:gpt-5').cache).toEqual({ read: 0.1, write: 1 });
    expect(resolveModel('openai:gpt-4').cache).toEqual({ read: 1, write: 1 }); // no prompt caching
    expect(resolveModel('anthropic:next', { window: 500_000 }).cache).toEqual({ read: 0.1, write: 1.25 });
    const models = { 'openai:x': { provider: 'openai', window: 1000, maxOutput: 0, encoding: 'o200k_base', cache: { read: 0.2, write: 1 } } } as const;
    expect(resolveModel('openai:x', { models }).cache).toEqual({ read: 0.2, write: 1 });
    for (const info of Object.values(DEFAULT_MODELS)) expect(info.cache === undefined || (info.cache.read <= 1 && info.cache.write >= 1)).toBe(true);
  });

  it('falls back from dated snapshots to their base entry', () => {
    expect(resolveModel('openai:gpt-4o-2024-08-06')).toMatchObject({ window: 128_000, known: true, id: 'openai:gpt-4o-2024-08-06' });
    expect(resolveModel('anthropic:claude-sonnet-4-5-20250929')).toMatchObject({ window: 200_000, encoding: 'estimate' });
  });

  it('refuses unknown models unless a window is given', () => {
    expect(() => resolveModel('openai:gpt-9')).toThrow(UnknownModelError);
    try {
      resolveModel('anthropic:claude-9');
    } catch (error) {
      expect(error).toMatchObject({ code: 'E_TOKENIZE_UNKNOWN_MODEL', data: { id: 'anthropic:claude-9' } });
      expect((error as UnknownModelError).data['known']).toContain('openai:gpt-4o');
    }
    expect(resolveModel('openai:my-tune', { window: 32_000 })).toEqual({
      id: 'openai:my-tune',
      model: 'my-tune',
      known: false,
      provider: 'openai',
      window: 32_000,
      maxOutput: 0,
      encoding: 'o200k_base',
      cache: { read: 0.5, write: 1 },
    });
    expect(resolveModel('anthropic:next', { window: 500_000, maxOutput: 10 }).encoding).toBe('estimate');
  });

  it('lets the caller override or extend the table', () => {
    expect(resolveModel('openai:gpt-4o', { window: 64_000 })).toMatchObject({ window: 64_000, maxOutput: 16_384 });
    const models = { 'openai:gpt-4o': { provider: 'openai', window: 1000, maxOutput: 100, encoding: 'cl100k_base' }, 'anthropic:x': { provider: 'anthropic', window: 10, maxOutput: 1, encoding: 'estimate' } } as const;
    expect(resolveModel('openai:gpt-4o', { models })).toMatchObject({ window: 1000, encoding: 'cl100k_base' });
    expect(resolveModel('anthropic:x', { models }).window).toBe(10);
    expect(DEFAULT_MODELS['openai:gpt-4o']?.window).toBe(128_000);
    expect(Object.isFrozen(DEFAULT_MODELS)).toBe(true);
  });

  it('refuses malformed ids, overrides and entries by field', () => {
    const field = (fn: () => unknown): unknown => {
      try {
        fn();
      } catch (error) {
        expect(error).toBeInstanceOf(InvalidModelError);
        return (error as InvalidModelError).data['field'];
      }
      return 'no error';
    };
    expect(field(() => resolveModel('gpt-4o'))).toBe('id');
    expect(field(() => resolveModel('openai:gpt-4o', { window: 0 }))).toBe('window');
    expect(field(() => resolveModel('openai:gpt-4o', { window: 1.5 }))).toBe('window');
    expect(field(() => resolveModel('openai:gpt-4o', { maxOutput: -1 }))).toBe('maxOutput');
    expect(field(() => resolveModel('openai:gpt-4o', { window: 1000 }))).toBe('no error');
    expect(field(() => resolveModel('openai:gpt-4o', { window: 1000, maxOutput: 2000 }))).toBe('maxOutput');
    expect(field(() => resolveModel('mistral:large', { window: 1000 }))).toBe('provider');
    expect(field(() => resolveModel('openai:x', { models: { 'openai:x': { provider: 'anthropic', window: 1, maxOutput: 0, encoding: 'estimate' } } }))).toBe('models[openai:x].provider');
    expect(field(() => resolveModel('openai:x', { models: { 'openai:x': { provider: 'openai', window: 1, maxOutput: 0, encoding: 'p50k' as 'estimate' } } }))).toBe('models[openai:x].encoding');
    expect(field(() => resolveModel('openai:x', { models: { 'openai:x': { provider: 'openai', window: 1, maxOutput: 0, encoding: 'estimate', cache: { read: -1, write: 1 } } } }))).toBe('models[openai:x].cache');
    expect(field(() => resolveModel('openai:x', { models: { 'openai:x': { provider: 'openai', window: 1, maxOutput: 0, encoding: 'estimate', cache: { read: 0.5, write: 0 } } } }))).toBe('models[openai:x].cache');
  });
});
