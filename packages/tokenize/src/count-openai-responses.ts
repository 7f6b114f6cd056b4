import { InvalidRequestError } from './errors.js';
import { countOpenAITools } from './openai-tools.js';
import { arrayAt, recordAt } from './request-walker.js';
import type { RequestWalker } from './request-walker.js';

/**
 * Walks an OpenAI Responses body (`{ instructions?, input, tools? }`) with the chat rule: instructions as a system
 * message; a string input as one user message; message items 3 + role + content (`input_text`/`output_text`/`refusal`,
 * `input_image` by image rule); `function_call` 3 + name + arguments; `function_call_output` 3 + `tool` + output;
 * 3 for the reply priming. Other item types (reasoning, built-in tool calls) are refused.
 */
export function countOpenAIResponses(walker: RequestWalker, body: Record<string, unknown>, cl100k: boolean): void {
  if (body['instructions'] !== undefined && body['instructions'] !== null) {
    walker.fixed(3);
    walker.text('system', 'instructions');
    walker.text(body['instructions'], 'instructions');
    walker.endMessage();
  }
  const input = body['input'];
  if (typeof input === 'string') {
    walker.fixed(3);
    walker.text('user', 'input');
    walker.text(input, 'input');
    walker.endMessage();
  } else {
    arrayAt(input, 'input').forEach((item, i) => {
      const at = `input[${i}]`;
      const it = recordAt(item, at);
      const type = it['type'] ?? 'message';
      walker.fixed(3);
      if (type === 'message') {
        walker.text(it['role'], `${at}.role`);
        const content = it['content'];
        if (typeof content === 'string') walker.text(content, `${at}.content`);
        else {
          arrayAt(content, `${at}.content`).forEach((part, j) => {
            const pat = `${at}.content[${j}]`;
            const p = recordAt(part, pat);
            if (p['type'] === 'input_text' || p['type'] === 'output_text') walker.text(p['text'], `${pat}.text`);
            else if (p['type'] === 'refusal') walker.text(p['refusal'], `${pat}.refusal`);
            else if (p['type'] === 'input_image') walker.image(p, pat, p['detail']);
            else throw new InvalidRequestError(`${pat}.type`, `cannot count a content part of type ${JSON.stringify(p['type'])}`);
          });
        }
      } else if (type === 'function_call') {
        walker.text(it['name'], `${at}.name`);
        walker.text(it['arguments'], `${at}.arguments`);
      } else if (type === 'function_call_output') {
        walker.text('tool', `${at}.type`);
        walker.text(it['output'], `${at}.output`);
      } else {
        throw new InvalidRequestError(`${at}.type`, `cannot count an input item of type ${JSON.stringify(type)}`);
      }
      walker.endMessage();
    });
  }
  walker.overhead += 3;
  if (body['tools'] !== undefined) countOpenAITools(walker, body['tools'], 'tools', cl100k, false);
}
