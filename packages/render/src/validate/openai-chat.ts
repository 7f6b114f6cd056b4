import { Issues, TOOL_NAME, checkTextContent, isJsonObject, isNonBlank, isObject } from './issues.js';

const ROLES = new Set(['system', 'developer', 'user', 'assistant', 'tool']);

/** Chat Completions rules: roles, non-empty content, unique call ids, each call answered by the `tool` messages directly after it. */
export function validateOpenAIChat(body: unknown, allowAssistantLast: boolean, issues: Issues): void {
  if (!isObject(body)) return issues.add('', 'E_BODY', 'body must be an object');
  if (!isNonBlank(body['model'])) issues.add('model', 'E_MODEL', 'model must be a non-empty string');
  const messages = body['messages'];
  if (!Array.isArray(messages) || messages.length === 0) return issues.add('messages', 'E_NO_MESSAGES', 'messages must be a non-empty array');
  const ids = new Set<string>();
  let pending = new Set<string>();
  let conversational = 0;
  messages.forEach((message: unknown, index) => {
    const path = `messages[${index}]`;
    if (!isObject(message) || !ROLES.has(message['role'] as string)) return issues.add(`${path}.role`, 'E_ROLE', 'unknown role');
    const role = message['role'] as string;
    if (role !== 'tool' && pending.size > 0) {
      issues.add(path, 'E_TOOL_UNANSWERED', `tool calls ${[...pending].join(', ')} are not answered before this message`);
      pending = new Set();
    }
    if (role !== 'system' && role !== 'developer') conversational += 1;
    if (role === 'tool') {
      const id = message['tool_call_id'];
      if (typeof id !== 'string' || !pending.has(id)) {
        issues.add(`${path}.tool_call_id`, 'E_TOOL_ORPHAN', 'a tool message must answer a pending call of the assistant message before it');
      } else pending.delete(id);
      if (typeof message['content'] !== 'string') issues.add(`${path}.content`, 'E_CONTENT', 'tool content must be a string');
      return;
    }
    if (role !== 'assistant') return checkTextContent(issues, `${path}.content`, message['content']);
    const content = message['content'];
    const calls = message['tool_calls'];
    if (content !== null && content !== undefined && typeof content !== 'string') issues.add(`${path}.content`, 'E_CONTENT', 'assistant content must be a string or null');
    if (calls === undefined) {
      if (!isNonBlank(content)) issues.add(`${path}.content`, 'E_EMPTY_CONTENT', 'an assistant message needs content or tool_calls');
      return;
    }
    if (!Array.isArray(calls) || calls.length === 0) return issues.add(`${path}.tool_calls`, 'E_TOOL_CALLS', 'tool_calls must be a non-empty array');
    calls.forEach((call: unknown, j) => {
      const callPath = `${path}.tool_calls[${j}]`;
      const fn = isObject(call) ? call['function'] : undefined;
      const id = isObject(call) ? call['id'] : undefined;
      if (!isNonBlank(id) || ids.has(id)) issues.add(`${callPath}.id`, 'E_TOOL_ID', 'tool call ids must be non-empty and unique');
      else {
        ids.add(id);
        pending.add(id);
      }
      if (!isObject(call) || call['type'] !== 'function') issues.add(`${callPath}.type`, 'E_TOOL_CALLS', "type must be 'function'");
      if (!isObject(fn) || typeof fn['name'] !== 'string' || !TOOL_NAME.test(fn['name'])) issues.add(`${callPath}.function.name`, 'E_TOOL_NAME', 'invalid function name');
      if (!isObject(fn) || !isJsonObject(fn['arguments'])) issues.add(`${callPath}.function.arguments`, 'E_TOOL_ARGUMENTS', 'arguments must be JSON text of an object');
    });
  });
  if (pending.size > 0) issues.add('messages', 'E_TOOL_UNANSWERED', `tool calls ${[...pending].join(', ')} are never answered`);
  if (conversational === 0) issues.add('messages', 'E_NO_MESSAGES', 'no user, assistant or tool message');
  const last = messages[messages.length - 1] as unknown;
  if (isObject(last) && last['role'] === 'assistant' && !allowAssistantLast) issues.add(`messages[${messages.length - 1}]`, 'E_ENDING', 'the request ends with an assistant message');
}
