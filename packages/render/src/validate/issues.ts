/** One broken rule found by {@link validateRequest}. */
export interface ValidationIssue {
  /** Where, as a property path, e.g. `messages[3].content[0]`. */
  readonly path: string;
  /** Stable rule code, e.g. `E_TOOL_UNANSWERED`. */
  readonly code: string;
  readonly message: string;
}

/** Collects issues; helpers shared by the per-provider validators. */
export class Issues {
  readonly list: ValidationIssue[] = [];
  add(path: string, code: string, message: string): void {
    this.list.push({ path, code, message });
  }
}

export const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const isNonBlank = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';

/** True when `text` is JSON of an object. */
export function isJsonObject(text: unknown): boolean {
  if (typeof text !== 'string') return false;
  try {
    return isObject(JSON.parse(text));
  } catch {
    return false;
  }
}

/** Text content as string or array of `{type:'text', text}` parts, not blank. */
export function checkTextContent(issues: Issues, path: string, content: unknown): void {
  if (typeof content === 'string') {
    if (content.trim() === '') issues.add(path, 'E_EMPTY_CONTENT', 'content is empty');
    return;
  }
  if (!Array.isArray(content) || content.length === 0) {
    issues.add(path, 'E_EMPTY_CONTENT', 'content must be a non-empty string or array of parts');
    return;
  }
  content.forEach((part: unknown, index) => {
    const text = isObject(part) ? part['text'] : undefined;
    if (!isNonBlank(text)) issues.add(`${path}[${index}]`, 'E_EMPTY_CONTENT', 'a content part must hold non-blank text');
  });
}
