import { describe, expect, it } from 'vitest';
import { ModelMismatchError, render } from '../src/index.js';
import { commitOf, user } from './support/items.js';

describe("render checks the commit's model against the provider", () => {
  const openai = commitOf([user('u', 'hi')], 'openai:gpt-4o');
  const anthropic = commitOf([user('u', 'hi')], 'anthropic:claude-sonnet-4-5');

  it('refuses a provider of another family with a typed error naming both', () => {
    let err: unknown;
    try {
      render(openai, { provider: 'anthropic' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ModelMismatchError);
    expect(err).toMatchObject({ code: 'E_RENDER_MODEL_MISMATCH', data: { provider: 'anthropic', model: 'openai:gpt-4o', expected: 'anthropic' } });
    expect(() => render(anthropic, { provider: 'openai-chat' })).toThrow(ModelMismatchError);
    expect(() => render(anthropic, { provider: 'openai-responses' })).toThrow(ModelMismatchError);
  });

  it('renders it with the model passed, named in the request', () => {
    expect(render(openai, { provider: 'anthropic', model: 'claude-sonnet-4-5' }).model).toBe('claude-sonnet-4-5');
    expect(render(anthropic, { provider: 'openai-chat', model: 'gpt-4o' }).model).toBe('gpt-4o');
  });

  it('accepts the matching family, unprefixed or unknown-provider models, and text', () => {
    expect(render(openai, { provider: 'openai-chat' }).model).toBe('gpt-4o');
    expect(render(anthropic, { provider: 'anthropic' }).model).toBe('claude-sonnet-4-5');
    expect(render(commitOf([user('u', 'hi')], 'local:llama-3'), { provider: 'openai-chat' }).model).toBe('llama-3');
    expect(render(openai, { provider: 'text' })).toContain('hi');
  });
});
