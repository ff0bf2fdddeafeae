/**
 * Which idempotency key a save runs under, and the two ways a client gives one.
 *
 * - `SaveAnalysisInput.idempotencyKey`: one key per save. It works in every client library, in
 *   batches and with aliases (one HTTP request holding several saves), so it is the main carrier.
 * - The `Idempotency-Key` HTTP header (IETF httpapi draft), for clients that set keys on the
 *   request: its value is a Structured Field string (`"..."`) or, as most APIs accept it, the bare
 *   text. One request may hold several saves, so each save's key is the header's value combined
 *   with the save's place in the request: the operation's index in a batch (0 outside one) and the
 *   field's response path (its alias). An identical retry of the request puts every save in the
 *   same place, so each maps to its own first result. A save's own input key overrides the header.
 *
 * Either key is 1 to 255 printable ASCII characters; a bad one is `BAD_USER_INPUT` naming where it
 * came from and the value, and fails only the save that would use it. The operation's index is
 * found by a plugin from the body Apollo hands the operation, the very object of the batch's array.
 */
import type { ApolloServerPlugin } from '@apollo/server';
import { InputError } from '@chess-paths/engine';
import { type GraphQLResolveInfo, responsePathAsArray } from 'graphql';
import type { SaveOptions } from '../../store/index.js';
import { idempotencyKeyProblem } from '../../store/index.js';
import type { Context } from './context.js';

/** The header's name, as the IETF draft spells it (HTTP header names are case-insensitive). */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

/** Where the header's errors say the key came from. */
const HEADER_ARGUMENT = `${IDEMPOTENCY_HEADER} header`;

/** Sets each operation's `operationIndex`: its place in a batch (JSON array body), 0 outside one. */
export function operationPlacePlugin(): ApolloServerPlugin<Context> {
  return {
    async requestDidStart({ request, contextValue }) {
      const batch = contextValue.request.batch;
      if (!batch) return;
      const at = batch.indexOf(request.http?.body);
      contextValue.operationIndex = at < 0 ? 0 : at;
    },
  };
}

/**
 * The header's key: a Structured Field string (`"abc"`, with `\"` and `\\` escapes) is read as
 * its content, anything else as it is.
 */
function headerKey(value: string): string {
  const quoted = /^"((?:[^"\\]|\\["\\])*)"$/.exec(value);
  return quoted ? quoted[1].replace(/\\(["\\])/g, '$1') : value;
}

/** Throws `InputError` at `argument` unless `key` is 1 to 255 printable ASCII characters. */
function checkKey(key: string, argument: (string | number)[], shown: string): void {
  const problem = idempotencyKeyProblem(key);
  if (problem) throw new InputError(argument, shown, problem);
}

/**
 * The idempotency of one `saveAnalysis`: its input's key, else the request's header combined with
 * the save's place (see the file comment), else none.
 */
export function saveIdempotency(
  ctx: Context,
  inputKey: string | null | undefined,
  info: GraphQLResolveInfo,
): SaveOptions | undefined {
  if (inputKey != null) {
    checkKey(inputKey, ['input', 'idempotencyKey'], inputKey);
    return { idempotencyKey: inputKey };
  }
  const header = ctx.request.idempotencyKey;
  if (header === undefined) return undefined;
  const key = headerKey(header);
  checkKey(key, [HEADER_ARGUMENT], header);
  const place = `${ctx.operationIndex}\n${responsePathAsArray(info.path).join('.')}`;
  // A newline cannot be in a key a client gives, so no input key ever equals a derived one.
  return { idempotencyKey: `${IDEMPOTENCY_HEADER}\n${key}\n${place}`, clientKey: key };
}
