import { Issues, TOOL_NAME, isNonBlank, isObject } from './issues.js';

const TOOL_ID = /^[a-zA-Z0-9_-]+$/;
const MAX_BREAKPOINTS = 4;

function countCacheControl(value: unknown, issues: Issues, path: string): number {
  if (Array.isArray(value)) return value.reduce((sum: number, entry, index) => sum + countCacheControl(entry, issues, `${path}[${index}]`), 0);
  if (!isObject(value)) return 0;
  let count = 0;
  for (const [key, field] of Object.entries(value)) {
    if (key === 'cache_control') {
      if (!isObject(field) || field['type'] !== 'ephemeral') issues.add(`${path}.cache_control`, 'E_CACHE_CONTROL', "cache_control must be { type: 'ephemeral' }");
      count += 1;
    } else count += countCacheControl(field, issues, path === '' ? key : `${path}.${key}`);
  }
  return count;
}

/**
 * Messages API rules: first message from the user, strict alternation, non-blank text, `tool_use` only in
 * assistant turns with unique ids, the next user turn starting with exactly one `tool_result` per
 * `tool_use` of the turn before, tools declared for every `tool_use`, at most 4 `cache_control` blocks,
 * system as text blocks, a final assistant turn only as a prefill without trailing whitespace.
 */
export function validateAnthropic(body: unknown, allowAssistantLast: boolean, issues: Issues): void {
  if (!isObject(body)) return issues.add('', 'E_BODY', 'body must be an object');
  if (!isNonBlank(body['model'])) issues.add('model', 'E_MODEL', 'model must be a non-empty string');
  const maxTokens = body['max_tokens'];
  if (typeof maxTokens !== 'number' || !Number.isInteger(maxTokens) || maxTokens < 1) issues.add('max_tokens', 'E_MAX_TOKENS', 'max_tokens must be a positive integer');
  const system = body['system'];
  if (system !== undefined) {
    if (typeof system === 'string') {
      if (system.trim() === '') issues.add('system', 'E_EMPTY_CONTENT', 'system is empty');
    } else if (!Array.isArray(system)) issues.add('system', 'E_SYSTEM', 'system must be a string or an array of text blocks');
    else {
      system.forEach((block: unknown, index) => {
        if (!isObject(block) || block['type'] !== 'text' || !isNonBlank(block['text'])) issues.add(`system[${index}]`, 'E_SYSTEM', 'system blocks must be non-blank text blocks');
      });
    }
  }
  const breakpoints = countCacheControl(body, issues, '');
  if (breakpoints > MAX_BREAKPOINTS) issues.add('', 'E_CACHE_CONTROL', `${breakpoints} cache_control blocks; at most ${MAX_BREAKPOINTS} are allowed`);
  const declared = new Set<string>();
  const tools = body['tools'];
  if (tools !== undefined) {
    if (!Array.isArray(tools)) issues.add('tools', 'E_TOOLS', 'tools must be an array');
    else {
      tools.forEach((tool: unknown, index) => {
        const name = isObject(tool) ? tool['name'] : undefined;
        if (typeof name !== 'string' || !TOOL_NAME.test(name) || declared.has(name)) issues.add(`tools[${index}].name`, 'E_TOOL_NAME', 'tool names must be unique and match ^[a-zA-Z0-9_-]{1,64}$');
        else declared.add(name);
        const schema = isObject(tool) ? tool['input_schema'] : undefined;
        if (!isObject(schema) || schema['type'] !== 'object') issues.add(`tools[${index}].input_schema`, 'E_TOOLS', "input_schema must be an object schema (type: 'object')");
      });
    }
  }
  const messages = body['messages'];
  if (!Array.isArray(messages) || messages.length === 0) return issues.add('messages', 'E_NO_MESSAGES', 'messages must be a non-empty array');
  const ids = new Set<string>();
  let usesTools = false;
  let previousUses: string[] = [];
  let previousRole: unknown;
  messages.forEach((message: unknown, index) => {
    const path = `messages[${index}]`;
    const role = isObject(message) ? message['role'] : undefined;
    if (role !== 'user' && role !== 'assistant') return issues.add(`${path}.role`, 'E_ROLE', "role must be 'user' or 'assistant'");
    if (index === 0 && role !== 'user') issues.add(`${path}.role`, 'E_FIRST_ROLE', 'the first message must be from the user');
    if (role === previousRole) issues.add(`${path}.role`, 'E_ALTERNATION', 'roles must alternate between user and assistant');
    previousRole = role;
    const raw = (message as Record<string, unknown>)['content'];
    const content: unknown[] = typeof raw === 'string' ? [{ type: 'text', text: raw }] : Array.isArray(raw) ? raw : [];
    if (content.length === 0) issues.add(`${path}.content`, 'E_EMPTY_CONTENT', 'content must not be empty');
    const uses: string[] = [];
    const answered: string[] = [];
    let leading = true;
    content.forEach((block: unknown, j) => {
      const blockPath = `${path}.content[${j}]`;
      const type = isObject(block) ? block['type'] : undefined;
      if (!isObject(block)) return issues.add(blockPath, 'E_BLOCK', 'a content block must be an object');
      if (type !== 'tool_result') leading = false;
      if (type === 'text') {
        if (!isNonBlank(block['text'])) issues.add(`${blockPath}.text`, 'E_EMPTY_CONTENT', 'text blocks must hold non-whitespace text');
      } else if (type === 'tool_use') {
        usesTools = true;
        if (role !== 'assistant') issues.add(blockPath, 'E_TOOL_ROLE', 'tool_use blocks belong to assistant turns');
        const id = block['id'];
        if (typeof id !== 'string' || !TOOL_ID.test(id) || ids.has(id)) issues.add(`${blockPath}.id`, 'E_TOOL_ID', 'tool_use ids must be unique and match ^[a-zA-Z0-9_-]+$');
        else {
          ids.add(id);
          uses.push(id);
        }
        const name = block['name'];
        if (typeof name !== 'string' || !declared.has(name)) issues.add(`${blockPath}.name`, 'E_TOOL_UNDECLARED', 'every tool used must be declared in tools');
        if (!isObject(block['input'])) issues.add(`${blockPath}.input`, 'E_TOOL_ARGUMENTS', 'input must be an object');
      } else if (type === 'tool_result') {
        usesTools = true;
        if (role !== 'user') issues.add(blockPath, 'E_TOOL_ROLE', 'tool_result blocks belong to user turns');
        if (!leading) issues.add(blockPath, 'E_TOOL_ORDER', 'tool_result blocks must come first in the user turn');
        const id = block['tool_use_id'];
        if (typeof id !== 'string' || !previousUses.includes(id) || answered.includes(id)) {
          issues.add(`${blockPath}.tool_use_id`, 'E_TOOL_ORPHAN', 'a tool_result must answer a tool_use of the assistant turn right before, once');
        } else answered.push(id);
        const result = block['content'];
        if (result !== undefined && typeof result !== 'string' && !Array.isArray(result)) issues.add(`${blockPath}.content`, 'E_CONTENT', 'tool_result content must be a string or blocks');
      } else issues.add(`${blockPath}.type`, 'E_BLOCK', `unsupported block type ${String(type)}`);
    });
    const missing = previousUses.filter((id) => !answered.includes(id));
    if (missing.length > 0) issues.add(path, 'E_TOOL_UNANSWERED', `tool_use ids ${missing.join(', ')} have no tool_result at the start of this turn`);
    previousUses = uses;
  });
  if (previousUses.length > 0) issues.add('messages', 'E_TOOL_UNANSWERED', `tool_use ids ${previousUses.join(', ')} are never answered`);
  if (usesTools && tools === undefined) issues.add('tools', 'E_TOOL_UNDECLARED', 'requests with tool_use or tool_result blocks must define tools');
  const last = messages[messages.length - 1] as unknown;
  if (isObject(last) && last['role'] === 'assistant') {
    if (!allowAssistantLast) issues.add(`messages[${messages.length - 1}]`, 'E_ENDING', 'the request ends with an assistant message');
    const content = last['content'];
    const final: unknown = Array.isArray(content) ? content[content.length - 1] : { type: 'text', text: content };
    if (isObject(final) && typeof final['text'] === 'string' && final['text'] !== final['text'].trimEnd()) {
      issues.add(`messages[${messages.length - 1}]`, 'E_PREFILL_WHITESPACE', 'a final assistant turn must not end with whitespace');
    }
  }
}
