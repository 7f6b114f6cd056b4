import { InvalidRequestError } from './errors.js';
import { countOpenAITools } from './openai-tools.js';
import { arrayAt, recordAt } from './request-walker.js';
import type { RequestWalker } from './request-walker.js';

/**
 * Walks an OpenAI Chat Completions body (`{ messages, tools? }`): per message 3 + role + content, +1 + name when named;
 * per tool call 3 + function name + arguments; content parts `text`/`refusal` as text, `image_url` by image rule;
 * a `null` content counts nothing; 3 for the reply priming.
 */
export function countOpenAIChat(walker: RequestWalker, body: Record<string, unknown>, cl100k: boolean): void {
  arrayAt(body['messages'], 'messages').forEach((message, i) => {
    const at = `messages[${i}]`;
    const m = recordAt(message, at);
    walker.fixed(3);
    walker.text(m['role'], `${at}.role`);
    const content = m['content'];
    if (typeof content === 'string') walker.text(content, `${at}.content`);
    else if (Array.isArray(content)) {
      content.forEach((part, j) => {
        const pat = `${at}.content[${j}]`;
        const p = recordAt(part, pat);
        if (p['type'] === 'text') walker.text(p['text'], `${pat}.text`);
        else if (p['type'] === 'refusal') walker.text(p['refusal'], `${pat}.refusal`);
        else if (p['type'] === 'image_url') walker.image(p, pat, recordAt(p['image_url'], `${pat}.image_url`)['detail']);
        else throw new InvalidRequestError(`${pat}.type`, `cannot count a content part of type ${JSON.stringify(p['type'])}`);
      });
    } else if (content !== null && content !== undefined) {
      throw new InvalidRequestError(`${at}.content`, 'expected a string, an array of parts, or null');
    }
    if (m['name'] !== undefined) {
      walker.fixed(1);
      walker.text(m['name'], `${at}.name`);
    }
    if (m['tool_calls'] !== undefined) {
      arrayAt(m['tool_calls'], `${at}.tool_calls`).forEach((call, k) => {
        const cat = `${at}.tool_calls[${k}]`;
        const fn = recordAt(recordAt(call, cat)['function'], `${cat}.function`);
        walker.fixed(3);
        walker.text(fn['name'], `${cat}.function.name`);
        walker.text(fn['arguments'], `${cat}.function.arguments`);
      });
    }
    walker.endMessage();
  });
  walker.overhead += 3;
  if (body['tools'] !== undefined) countOpenAITools(walker, body['tools'], 'tools', cl100k, true);
}
