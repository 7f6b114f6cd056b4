const FAILURE =
  /Traceback \(most recent call last\)|command not found|No such file|not found!|Permission denied|non-zero exit|exit(?:ed with)? (?:code|status)[: ]+[1-9]|^(?:Error|ERROR|error|fatal|FAILED)\b|\b(?:SyntaxError|NameError|TypeError|ValueError|KeyError|AttributeError|ImportError|ModuleNotFoundError|IndentationError): /m;

/**
 * Whether a tool result reports a failure: the `isError` flag, or error text such as a Python traceback,
 * `command not found`, `No such file`, a non-zero exit status, or a leading `Error:`.
 *
 * @param output - The tool result text.
 * @param isError - The provider's error flag, when known.
 * @returns True for a failed call.
 * @example
 * ```ts
 * isFailedResult('bash: foo: command not found'); // true
 * isFailedResult('3 passed'); // false
 * ```
 */
export function isFailedResult(output: string, isError?: boolean): boolean {
  return isError === true || FAILURE.test(output.length > 20_000 ? output.slice(0, 10_000) + output.slice(-10_000) : output);
}
