import type { Json } from '../node.js';
import type { ChatCall } from './chat-types.js';
import { isRecord } from './is-record.js';
import { kindOf } from './kind-of.js';
import { omitKeys } from './omit-keys.js';
import { parseToolArguments } from './parse-tool-arguments.js';
import { bad } from './transcript-builder.js';

/**
 * Reads OpenAI-style `tool_calls` (`[{ id, type, function: { name, arguments } }]`) as calls keyed by id;
 * `metadata.source` of each gets `toolCallId`, `rawArguments` when needed, and any other fields.
 */
export function readToolCalls(value: unknown, source: { [key: string]: Json }): Array<[string, ChatCall]> {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) return bad(`tool_calls is ${kindOf(value)}; expected an array`);
  return value.map((tc: unknown, i): [string, ChatCall] => {
    if (!isRecord(tc)) return bad(`tool_calls[${i}] is ${kindOf(tc)}; expected an object`);
    const id = tc['id'];
    const fn = tc['function'];
    if (typeof id !== 'string' || id === '') return bad(`tool_calls[${i}] has no string id`);
    if (!isRecord(fn) || typeof fn['name'] !== 'string' || fn['name'] === '') return bad(`tool_calls[${i}].function has no string name`);
    const args = fn['arguments'] ?? '{}';
    if (typeof args !== 'string') return bad(`tool_calls[${i}].function.arguments is ${kindOf(args)}; expected JSON text`);
    const { input, raw } = parseToolArguments(args);
    const extra = omitKeys(tc, ['id', 'function']);
    const fnExtra = omitKeys(fn, ['name', 'arguments']);
    return [
      id,
      {
        name: fn['name'],
        input,
        source: {
          ...source,
          toolCallId: id,
          ...(raw === undefined ? {} : { rawArguments: raw }),
          ...(Object.keys(extra).length > 0 ? { call: extra } : {}),
          ...(Object.keys(fnExtra).length > 0 ? { function: fnExtra } : {}),
        },
      },
    ];
  });
}
