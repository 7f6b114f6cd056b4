import { BothPredecessorAndCallerError, FieldTooLargeError, InvalidArgumentError, InvalidEdgeError, NotJsonError, OutputTooLargeError, UnknownRoleError } from '../errors.js';
import type { Node } from '../node.js';
import { MAX_FIELD_BYTES, MAX_NAME_LENGTH, MAX_READS } from '../options.js';
import { validateJson } from '../validate-json.js';
import { validateNodeId } from '../validate-node-id.js';
import { validateSessionName } from '../validate-session-name.js';
import { loneSurrogateAt } from './lone-surrogate.js';
import { utf8Length } from './utf8-length.js';
import { describeValue } from './describe-value.js';

const ROLES: ReadonlySet<string> = new Set(['system', 'user', 'assistant', 'tool']);
const KEYS: ReadonlySet<string> = new Set(['id', 'session', 'seq', 'createdAt', 'role', 'name', 'input', 'output', 'predecessor', 'caller', 'reads', 'metadata']);

/** Checks everything about one node that needs no store: fields, JSON-ness, size, role/edge shape. */
export function checkNode(node: Node, maxOutputBytes: number): void {
  const id = validateNodeId(node.id);
  validateSessionName(node.session);
  for (const key of Object.keys(node)) if (!KEYS.has(key)) throw new InvalidArgumentError({ argument: `node ${id}`, reason: `unknown field ${JSON.stringify(key)}` });
  if (!Number.isSafeInteger(node.seq) || node.seq < 0) throw new InvalidArgumentError({ argument: `seq of node ${id}`, reason: 'expected a non-negative integer' });
  if (typeof node.createdAt !== 'number' || !Number.isFinite(node.createdAt)) throw new InvalidArgumentError({ argument: `createdAt of node ${id}`, reason: 'expected finite milliseconds' });
  if (typeof node.role !== 'string' || !ROLES.has(node.role)) throw new UnknownRoleError({ role: describeValue(node.role), id });
  if (node.predecessor !== undefined && node.caller !== undefined) throw new BothPredecessorAndCallerError({ id, predecessor: describeValue(node.predecessor), caller: describeValue(node.caller) });
  if (node.predecessor !== undefined) validateNodeId(node.predecessor);
  if (node.caller !== undefined) validateNodeId(node.caller);
  if (node.role === 'tool' && node.caller === undefined) throw new InvalidArgumentError({ argument: `caller of node ${id}`, reason: 'a tool node needs the assistant node that issued it as caller' });
  if (node.role !== 'tool' && node.caller !== undefined) throw new InvalidEdgeError({ id, reference: 'caller', target: node.caller, reason: `only tool nodes have a caller, this one is ${node.role}` });
  if (node.name !== undefined) {
    if (typeof node.name !== 'string') throw new InvalidArgumentError({ argument: `name of node ${id}`, reason: 'expected a string' });
    const i = loneSurrogateAt(node.name);
    if (i >= 0) throw new NotJsonError({ path: 'name', reason: `lone surrogate at index ${i}` });
    if (node.name.length > MAX_NAME_LENGTH) throw new FieldTooLargeError({ id, field: 'name', size: node.name.length, limit: MAX_NAME_LENGTH, unit: 'characters' });
  }
  if (node.role === 'tool' && (node.name === undefined || node.name === '')) throw new InvalidArgumentError({ argument: `name of node ${id}`, reason: 'a tool node needs the tool name' });
  if (node.input !== undefined) checkFieldSize(id, 'input', validateJson(node.input, 'input'));
  if (typeof node.output !== 'string') throw new InvalidArgumentError({ argument: `output of node ${id}`, reason: `expected a string, got ${typeof node.output}` });
  const i = loneSurrogateAt(node.output);
  if (i >= 0) throw new NotJsonError({ path: 'output', reason: `lone surrogate at index ${i}` });
  const bytes = utf8Length(node.output);
  if (bytes > maxOutputBytes) throw new OutputTooLargeError({ id, bytes, limit: maxOutputBytes });
  if (node.reads !== undefined) {
    if (!Array.isArray(node.reads)) throw new InvalidArgumentError({ argument: `reads of node ${id}`, reason: 'expected an array of node ids' });
    if (node.reads.length > MAX_READS) throw new FieldTooLargeError({ id, field: 'reads', size: node.reads.length, limit: MAX_READS, unit: 'entries' });
    for (const r of node.reads) validateNodeId(r);
  }
  if (node.metadata !== undefined) {
    if (typeof node.metadata !== 'object' || node.metadata === null || Array.isArray(node.metadata)) {
      throw new InvalidArgumentError({ argument: `metadata of node ${id}`, reason: 'expected a JSON object' });
    }
    checkFieldSize(id, 'metadata', validateJson(node.metadata, 'metadata'));
  }
}

function checkFieldSize(id: string, field: string, value: unknown): void {
  const bytes = utf8Length(JSON.stringify(value));
  if (bytes > MAX_FIELD_BYTES) throw new FieldTooLargeError({ id, field, size: bytes, limit: MAX_FIELD_BYTES, unit: 'bytes of JSON' });
}
