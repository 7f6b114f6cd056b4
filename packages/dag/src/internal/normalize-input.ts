import { BothPredecessorAndCallerError, InvalidArgumentError } from '../errors.js';
import type { NodeInput } from '../node-input.js';

const KEYS: ReadonlySet<string> = new Set(['role', 'name', 'input', 'output', 'caller', 'reads', 'metadata']);

/** Checks that `input` is an object with only {@link NodeInput} keys; the values are checked with the built node. */
export function normalizeInput(input: unknown): NodeInput {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) throw new InvalidArgumentError({ argument: 'input', reason: 'expected a NodeInput object' });
  const rec = input as Record<string, unknown>;
  if ('predecessor' in rec) {
    if ('caller' in rec) throw new BothPredecessorAndCallerError({ id: '(new node)', predecessor: String(rec['predecessor']), caller: String(rec['caller']) });
    throw new InvalidArgumentError({ argument: 'input.predecessor', reason: 'the predecessor is always the session HEAD; checkout() the node to append under first' });
  }
  for (const key of Object.keys(rec)) if (!KEYS.has(key)) throw new InvalidArgumentError({ argument: `input.${key}`, reason: 'unknown field' });
  return input as NodeInput;
}
