import { EmptyRenderError, InvalidEndingError } from '../errors.js';
import type { Plan } from '../plan.js';
import type { ProviderOptions } from '../render-options.js';

/** Throws when the plan has no conversation message, or ends with the assistant's without `allowAssistantLast`. */
export function checkEnding(provider: string, items: number, plan: Plan, options: ProviderOptions): void {
  const last = plan.messages[plan.messages.length - 1];
  if (last === undefined) throw new EmptyRenderError({ provider, items, rendered: 0 });
  if (last.role === 'assistant' && !options.allowAssistantLast) {
    const part = last.parts[last.parts.length - 1];
    throw new InvalidEndingError({ provider, lastRole: 'assistant', lastKey: part?.key ?? '' });
  }
}
