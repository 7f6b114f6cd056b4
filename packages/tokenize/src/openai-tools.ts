import { InvalidRequestError } from './errors.js';
import { arrayAt, recordAt } from './request-walker.js';
import type { RequestWalker } from './request-walker.js';

/** Function definition as both OpenAI APIs carry it (chat nests it under `function`). */
interface FunctionDef {
  readonly name: unknown;
  readonly description: unknown;
  readonly parameters: unknown;
}

/**
 * Counts OpenAI tool definitions by the OpenAI cookbook rule ("How to count tokens with tiktoken", §7):
 * per function 7 (cl100k: 10) + `name:description`; if it has properties 3, then per property 3 + `key:type:description`,
 * enums −3 + per item 3 + the item; 12 once at the end. A trailing period of a description is dropped.
 */
export function countOpenAITools(walker: RequestWalker, tools: unknown, path: string, cl100k: boolean, nested: boolean): void {
  const list = arrayAt(tools, path);
  if (list.length === 0) return;
  const funcInit = cl100k ? 10 : 7;
  list.forEach((tool, i) => {
    const at = `${path}[${i}]`;
    const t = recordAt(tool, at);
    if (t['type'] !== 'function') throw new InvalidRequestError(`${at}.type`, `only function tools can be counted, got ${JSON.stringify(t['type'])}`);
    const fn: FunctionDef = nested ? (recordAt(t['function'], `${at}.function`) as unknown as FunctionDef) : (t as unknown as FunctionDef);
    if (typeof fn.name !== 'string') throw new InvalidRequestError(`${at}.name`, 'expected a string');
    walker.tools += funcInit;
    walker.toolText(`${fn.name}:${trimPeriod(fn.description, `${at}.description`)}`);
    const params = fn.parameters === undefined ? {} : recordAt(fn.parameters, `${at}.parameters`);
    const props = params['properties'] === undefined ? {} : recordAt(params['properties'], `${at}.parameters.properties`);
    const keys = Object.keys(props);
    if (keys.length > 0) {
      walker.tools += 3;
      for (const key of keys) {
        const p = recordAt(props[key], `${at}.parameters.properties.${key}`);
        walker.tools += 3;
        if (p['enum'] !== undefined) {
          walker.tools -= 3;
          for (const item of arrayAt(p['enum'], `${at}.parameters.properties.${key}.enum`)) {
            walker.tools += 3;
            walker.toolText(typeof item === 'string' ? item : JSON.stringify(item));
          }
        }
        const type = Array.isArray(p['type']) ? p['type'].join(',') : typeof p['type'] === 'string' ? p['type'] : '';
        walker.toolText(`${key}:${type}:${trimPeriod(p['description'], `${at}.parameters.properties.${key}.description`)}`);
      }
    }
  });
  walker.tools += 12;
}

function trimPeriod(value: unknown, path: string): string {
  if (value === undefined) return '';
  if (typeof value !== 'string') throw new InvalidRequestError(path, 'expected a string');
  return value.endsWith('.') ? value.slice(0, -1) : value;
}
