/**
 * Input errors. Every malformed or off-board input throws an `InputError` that names where the
 * value came from (a path such as `from[1]` or `board.files`) and the value itself, so the API
 * layer can turn it into a `BAD_USER_INPUT` GraphQL error without rewording it.
 */

/** A path to the offending input, e.g. `['from', 1]` prints as `from[1]`. */
export type InputPath = readonly (string | number)[];

/** Formats an input path: `['queries', 3, 'from', 1]` -> `queries[3].from[1]`. */
export function formatInputPath(path: InputPath): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? part : `.${part}`;
  }
  return out;
}

/** A value as a message prints it: strings quoted, and cut so an error never echoes megabytes. */
export function previewValue(value: unknown, maxLength = 80): string {
  const text = typeof value === 'string' ? JSON.stringify(value) : String(value);
  return text.length > maxLength ? `${text.slice(0, maxLength - 3)}..."` : text;
}

/**
 * A user's input the engine cannot accept: message `<path>: <value> <reason>`, or `<path>
 * <reason>` when no value was given (`query.betza is missing: ...`).
 */
export class InputError extends Error {
  override readonly name = 'InputError';
  constructor(
    /**
     * Where the value came from. Not named `path`: graphql-js takes any error with an array
     * `path` for one it has already located, and would report it without its field's path.
     */
    readonly argument: InputPath,
    /** The offending value as given; undefined when it was absent. */
    readonly value: unknown,
    /** What is wrong with it, e.g. `is not a square on an 8 x 8 board`. */
    readonly reason: string,
  ) {
    super(
      value === undefined
        ? `${formatInputPath(argument)} ${reason}`
        : `${formatInputPath(argument)}: ${previewValue(value)} ${reason}`,
    );
  }

  /** The same error placed under an outer path, e.g. `query` or `queries[3]`. */
  under(...prefix: (string | number)[]): InputError {
    return new InputError([...prefix, ...this.argument], this.value, this.reason);
  }
}

/** The text of a game could not be read; the message says what and where. */
export class PgnError extends InputError {
  constructor(reason: string) {
    super(['pgn'], '', reason);
    this.message = `pgn: ${reason}`;
  }
}
