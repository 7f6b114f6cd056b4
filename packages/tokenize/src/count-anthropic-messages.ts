import { InvalidRequestError } from './errors.js';
import { arrayAt, recordAt } from './request-walker.js';
import type { RequestWalker } from './request-walker.js';

/** Tokens of Anthropic's tool-use system prompt for Claude 4.x / 3.7 (pricing docs): `auto`/`none` choice, then `any`/`tool`. */
const TOOL_PROMPT_AUTO = 346;
const TOOL_PROMPT_FORCED = 313;

/**
 * Walks an Anthropic Messages body (`{ system?, messages, tools?, tool_choice? }`), an estimate throughout (Anthropic
 * publishes no tokenizer): system text + 3; per message 3 + content blocks (`text`, `thinking`, `image` by image rule,
 * `tool_use` 3 + name + JSON input, `tool_result` 3 + its content); tools: the documented tool-use system prompt
 * (346, or 313 for a forced choice) + each definition's JSON.
 */
export function countAnthropicMessages(walker: RequestWalker, body: Record<string, unknown>): void {
  const system = body['system'];
  if (system !== undefined) {
    walker.fixed(3);
    if (typeof system === 'string') walker.text(system, 'system');
    else arrayAt(system, 'system').forEach((block, i) => walker.text(recordAt(block, `system[${i}]`)['text'], `system[${i}].text`));
    walker.endMessage();
  }
  arrayAt(body['messages'], 'messages').forEach((message, i) => {
    const at = `messages[${i}]`;
    const m = recordAt(message, at);
    walker.fixed(3);
    blocks(walker, m['content'], `${at}.content`, true);
    walker.endMessage();
  });
  if (body['tools'] !== undefined) {
    const tools = arrayAt(body['tools'], 'tools');
    if (tools.length > 0) {
      const choice = body['tool_choice'];
      const forced = typeof choice === 'object' && choice !== null && ['any', 'tool'].includes(String((choice as Record<string, unknown>)['type']));
      walker.overhead += forced ? TOOL_PROMPT_FORCED : TOOL_PROMPT_AUTO;
      tools.forEach((tool, i) => {
        const t = recordAt(tool, `tools[${i}]`);
        if (typeof t['name'] !== 'string') throw new InvalidRequestError(`tools[${i}].name`, 'expected a string');
        walker.toolText(JSON.stringify({ name: t['name'], description: t['description'], input_schema: t['input_schema'] }));
      });
    }
  }
}

function blocks(walker: RequestWalker, content: unknown, path: string, allowTools: boolean): void {
  if (typeof content === 'string') {
    walker.text(content, path);
    return;
  }
  arrayAt(content, path).forEach((block, j) => {
    const at = `${path}[${j}]`;
    const b = recordAt(block, at);
    switch (b['type']) {
      case 'text':
        walker.text(b['text'], `${at}.text`);
        break;
      case 'thinking':
        walker.text(b['thinking'], `${at}.thinking`);
        break;
      case 'image':
        walker.image(b, at, undefined);
        break;
      case 'tool_use':
        if (!allowTools) throw new InvalidRequestError(`${at}.type`, 'tool_use cannot nest in a tool_result');
        walker.fixed(3);
        walker.text(b['name'], `${at}.name`);
        walker.text(JSON.stringify(b['input'] ?? {}), `${at}.input`);
        break;
      case 'tool_result':
        if (!allowTools) throw new InvalidRequestError(`${at}.type`, 'tool_result cannot nest in a tool_result');
        walker.fixed(3);
        if (b['content'] !== undefined) blocks(walker, b['content'], `${at}.content`, false);
        break;
      default:
        throw new InvalidRequestError(`${at}.type`, `cannot count a content block of type ${JSON.stringify(b['type'])}`);
    }
  });
}
