import { BothPredecessorAndCallerError, InvalidArgumentError } from '../errors.js';
import type { NodeInput } from '../node-input.js';
import { copyJson } from '../validate-json.js';
import { describeValue } from './describe-value.js';

const KEYS: ReadonlySet<string> = new Set(['role', 'name', 'input', 'output', 'caller', 'reads', 'metadata']);

/** Reads every own field of `input` once (a throwing getter or proxy trap becomes a typed error). */
function ownFields(input: object): Map<string, unknown> {
  try {
    if (Array.isArray(input)) throw new InvalidArgumentError({ argument: 'input', reason: 'expected a NodeInput object, not an array' });
    const fields = new Map<string, unknown>();
    for (const key of Object.keys(input)) fields.set(key, (input as Record<string, unknown>)[key]);
    return fields;
  } catch (err) {
    if (err instanceof InvalidArgumentError) throw err;
    throw new InvalidArgumentError({ argument: 'input', reason: 'reading its fields threw (a getter or a proxy); pass a plain object' });
  }
}

/** A plain copy of `reads` when it is an array (its elements are checked with the built node). */
function copyReads(reads: unknown): unknown {
  try {
    return Array.isArray(reads) ? Array.from(reads as unknown[]) : reads;
  } catch {
    throw new InvalidArgumentError({ argument: 'input.reads', reason: 'reading it threw (a getter or a proxy); pass an array of node ids' });
  }
}

/**
 * Checks that `input` is an object with only {@link NodeInput} keys and returns a plain snapshot of it: each field read
 * once, `input` and `metadata` deep-copied while they are checked as JSON, so nothing the caller holds (a getter, a
 * proxy, a later mutation) can change what is validated and written. The other values are checked with the built node.
 */
export function normalizeInput(input: unknown): NodeInput {
  if (typeof input !== 'object' || input === null) throw new InvalidArgumentError({ argument: 'input', reason: 'expected a NodeInput object' });
  const fields = ownFields(input);
  if (fields.has('predecessor')) {
    if (fields.has('caller')) throw new BothPredecessorAndCallerError({ id: '(new node)', predecessor: describeValue(fields.get('predecessor')), caller: describeValue(fields.get('caller')) });
    throw new InvalidArgumentError({ argument: 'input.predecessor', reason: 'the predecessor is always the session HEAD; checkout() the node to append under first' });
  }
  const out: Record<string, unknown> = {};
  for (const [key, value] of fields) {
    if (!KEYS.has(key)) throw new InvalidArgumentError({ argument: `input.${describeValue(key)}`, reason: 'unknown field' });
    if (value === undefined) continue;
    out[key] = key === 'input' || key === 'metadata' ? copyJson(value, key) : key === 'reads' ? copyReads(value) : value;
  }
  return out as unknown as NodeInput;
}
