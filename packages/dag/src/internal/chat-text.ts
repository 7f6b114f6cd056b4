import { bad } from './transcript-builder.js';
import { isRecord } from './is-record.js';
import { kindOf } from './kind-of.js';

/**
 * The text of an OpenAI-style `content`: a string, `null` when allowed (read as `''`), or an array of
 * `{ type: 'text', text }` parts joined without separator. Anything else is a problem.
 */
export function chatText(content: unknown, allowNull: boolean, field = 'content'): string {
  if (typeof content === 'string') return content;
  if (content === null && allowNull) return '';
  if (content === undefined && allowNull) return '';
  if (!Array.isArray(content)) return bad(`${field} is ${kindOf(content)}; expected a string${allowNull ? ', null' : ''} or an array of text parts`);
  return content
    .map((part: unknown, i) => {
      if (!isRecord(part)) return bad(`${field}[${i}] is ${kindOf(part)}; expected a { type: 'text', text } part`);
      if (part['type'] !== 'text' || typeof part['text'] !== 'string') return bad(`${field}[${i}] has type ${JSON.stringify(part['type'])}; only text parts with a string text are supported`);
      return part['text'];
    })
    .join('');
}
