import { Issues, TOOL_NAME, checkTextContent, isJsonObject, isNonBlank, isObject } from './issues.js';

const ROLES = new Set(['system', 'developer', 'user', 'assistant']);

/** Responses rules: message roles and content, unique call ids, every `function_call_output` after its call, every call answered. */
export function validateOpenAIResponses(body: unknown, allowAssistantLast: boolean, issues: Issues): void {
  if (!isObject(body)) return issues.add('', 'E_BODY', 'body must be an object');
  if (!isNonBlank(body['model'])) issues.add('model', 'E_MODEL', 'model must be a non-empty string');
  const input = body['input'];
  if (!Array.isArray(input) || input.length === 0) return issues.add('input', 'E_NO_MESSAGES', 'input must be a non-empty array');
  const calls = new Set<string>();
  const pending = new Set<string>();
  let conversational = 0;
  input.forEach((item: unknown, index) => {
    const path = `input[${index}]`;
    if (!isObject(item)) return issues.add(path, 'E_ITEM', 'an input item must be an object');
    const type = item['type'] ?? 'message';
    if (type === 'message') {
      const role = item['role'];
      if (!ROLES.has(role as string)) return issues.add(`${path}.role`, 'E_ROLE', 'unknown role');
      if (role !== 'system' && role !== 'developer') conversational += 1;
      return checkTextContent(issues, `${path}.content`, item['content']);
    }
    const id = item['call_id'];
    if (type === 'function_call' || type === 'function_call_output') conversational += 1;
    if (type === 'function_call') {
      if (!isNonBlank(id) || calls.has(id)) issues.add(`${path}.call_id`, 'E_TOOL_ID', 'call ids must be non-empty and unique');
      else {
        calls.add(id);
        pending.add(id);
      }
      if (typeof item['name'] !== 'string' || !TOOL_NAME.test(item['name'])) issues.add(`${path}.name`, 'E_TOOL_NAME', 'invalid function name');
      if (!isJsonObject(item['arguments'])) issues.add(`${path}.arguments`, 'E_TOOL_ARGUMENTS', 'arguments must be JSON text of an object');
      return;
    }
    if (type === 'function_call_output') {
      if (typeof id !== 'string' || !pending.has(id)) issues.add(`${path}.call_id`, 'E_TOOL_ORPHAN', 'an output must answer an earlier, unanswered function_call');
      else pending.delete(id);
      if (typeof item['output'] !== 'string') issues.add(`${path}.output`, 'E_CONTENT', 'output must be a string');
      return;
    }
    issues.add(`${path}.type`, 'E_ITEM', `unsupported item type ${String(type)}`);
  });
  if (pending.size > 0) issues.add('input', 'E_TOOL_UNANSWERED', `function calls ${[...pending].join(', ')} are never answered`);
  if (conversational === 0) issues.add('input', 'E_NO_MESSAGES', 'no user, assistant or tool item');
  const last = input[input.length - 1] as unknown;
  if (isObject(last) && (last['type'] ?? 'message') === 'message' && last['role'] === 'assistant' && !allowAssistantLast) {
    issues.add(`input[${input.length - 1}]`, 'E_ENDING', 'the request ends with an assistant message');
  }
}
