/**
 * The HTTP status of a request GraphQL could not execute, by the media type of its answer (the
 * GraphQL-over-HTTP specification, "Status Codes"). Apollo answers a document that does not parse,
 * one that fails validation (graphql-js's rules and the service's shape limits, which are
 * validation rules too: MAX_DEPTH, MAX_ALIASES, MAX_DIRECTIVES; MAX_TOKENS is found by the
 * parser), an operation it cannot pick and variables it cannot coerce with 400 whatever the media
 * type. That is right for `application/graphql-response+json`; for the legacy `application/json`
 * the specification says 200 (SHOULD), because a client cannot tell a 4xx JSON body of GraphQL's
 * from one an intermediary made. This plugin turns those 400s into 200 when the answer is
 * `application/json`, and nothing else: refusals the service's plugins make after the document
 * is known (MAX_COST and a subscription 400, the rate limit 429, overload 503), statuses set
 * before GraphQL runs (a missing query, a persisted-query mistake) and every status of the HTTP
 * layer keep theirs.
 *
 * Which failures: the phase tells, not the error's wording or code (a variable's coercion error
 * and MAX_COST both read BAD_USER_INPUT). A failed parse or validation is seen by its hook; an
 * answer with no `data` after execution began is graphql-js refusing to start (the operation or
 * its variables), since an executed operation always has `data`, null or not.
 *
 * Which media type: Apollo chooses it after the last hook, so this plugin chooses it the same
 * way (`answerMediaType`, the negotiation Apollo does) and sets `Content-Type` itself with the
 * 200, so the status and the media type it goes with cannot part.
 */
import type { ApolloServerPlugin, BaseContext } from '@apollo/server';

/** The legacy GraphQL response media type, as Apollo writes it. */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** A media type Apollo may answer a single result in. */
interface Offered {
  type: string;
  subtype: string;
  params: Record<string, string>;
  /** What `answerMediaType` returns for it. */
  name: AnswerMediaType;
}

/** What Apollo answers a single result in: the two GraphQL response types, or its JSON callback type. */
export type AnswerMediaType = 'application/json' | 'application/graphql-response+json' | 'callback';

/** Apollo's offer, in its order (its `chooseContentTypeForSingleResultResponse`). */
const OFFERED: readonly Offered[] = [
  { type: 'application', subtype: 'json', params: { charset: 'utf-8' }, name: 'application/json' },
  {
    type: 'application',
    subtype: 'graphql-response+json',
    params: { charset: 'utf-8' },
    name: 'application/graphql-response+json',
  },
  { type: 'application', subtype: 'json', params: { callbackspec: '1.0' }, name: 'callback' },
];

/** One media range of an Accept header. */
interface Range {
  type: string;
  subtype: string;
  params: Record<string, string>;
  q: number;
  /** Its place in the header. */
  order: number;
}

/** The media ranges of an Accept header, or undefined for a header this reading cannot follow. */
function parseAccept(header: string): Range[] | undefined {
  const ranges: Range[] = [];
  for (const [order, element] of header.split(',').entries()) {
    const [range = '', ...parameters] = element.split(';').map((part) => part.trim());
    const slash = range.indexOf('/');
    if (slash <= 0 || slash === range.length - 1 || parameters.some((p) => !p.includes('='))) return undefined;
    const params: Record<string, string> = {};
    for (const parameter of parameters) {
      const at = parameter.indexOf('=');
      params[parameter.slice(0, at).trim().toLowerCase()] = parameter
        .slice(at + 1)
        .trim()
        .replace(/^"(.*)"$/, '$1');
    }
    const q = params.q === undefined ? 1 : Number(params.q);
    delete params.q;
    if (Number.isNaN(q)) return undefined;
    ranges.push({ type: range.slice(0, slash), subtype: range.slice(slash + 1), params, q, order });
  }
  return ranges;
}

/** How specifically `range` names `offered` (4 type, 2 subtype, 1 parameters), or -1 when it does not. */
function specificity(range: Range, offered: Offered): number {
  let s = 0;
  if (range.type.toLowerCase() === offered.type) s |= 4;
  else if (range.type !== '*') return -1;
  if (range.subtype.toLowerCase() === offered.subtype) s |= 2;
  else if (range.subtype !== '*') return -1;
  const names = Object.keys(range.params);
  if (names.length === 0) return s;
  const fits = names.every((n) => range.params[n] === '*' || range.params[n]?.toLowerCase() === offered.params[n]);
  return fits ? s | 1 : -1;
}

/**
 * The media type Apollo answers a single result in for this `Accept` header, or undefined when it
 * accepts none of them (Apollo then answers 406) or is beyond this reading. No header (or an empty
 * one) is `application/json`. Otherwise the offer with the highest q wins, then the one named most
 * specifically, then the one named earlier in the header, then Apollo's order: the negotiation
 * of the `negotiator` package that Apollo uses. So a wildcard (any type) is `application/json`,
 * and `application/graphql-response+json, application/json` is the former.
 */
export function answerMediaType(accept: string | undefined): AnswerMediaType | undefined {
  if (!accept) return 'application/json';
  const ranges = parseAccept(accept);
  if (!ranges) return undefined;
  const candidates = OFFERED.map((offered, index) => {
    let best = { q: 0, s: 0, order: -1, index };
    for (const range of ranges) {
      const s = specificity(range, offered);
      if (s < 0) continue;
      // The range that names it most specifically, then with the higher q, then the later one.
      const better = s - best.s || range.q - best.q || range.order - best.order;
      if (better > 0) best = { q: range.q, s, order: range.order, index };
    }
    return best;
  });
  const [winner] = candidates
    .filter((c) => c.q > 0)
    .sort((a, b) => b.q - a.q || b.s - a.s || a.order - b.order || a.index - b.index);
  return winner === undefined ? undefined : OFFERED[winner.index]?.name;
}

/** The essence of a Content-Type header (`application/json` of `application/json; charset=utf-8`). */
const essence = (contentType: string) => contentType.split(';')[0]?.trim().toLowerCase();

/**
 * The plugin: a request that could not be executed (parse, validation, operation or variables)
 * is answered 200 instead of 400 when its answer is `application/json`.
 */
export function requestErrorStatusPlugin<TContext extends BaseContext>(): ApolloServerPlugin<TContext> {
  return {
    async requestDidStart() {
      let refusedDocument = false;
      let executionBegan = false;
      return {
        async parsingDidStart() {
          return async (error) => {
            if (error) refusedDocument = true;
          };
        },
        async validationDidStart() {
          return async (errors) => {
            if (errors?.length) refusedDocument = true;
          };
        },
        async executionDidStart() {
          executionBegan = true;
        },
        async willSendResponse({ request, response }) {
          const body = response.body;
          // Only HTTP requests: another door (`executeOperation`, the picture route) has its own statuses.
          if (!request.http || body.kind !== 'single' || response.http.status !== 400) return;
          if (body.singleResult.data !== undefined || !(refusedDocument || executionBegan)) return;
          // A batch's operations share one head: an earlier operation may have set its media type.
          const set = response.http.headers.get('content-type');
          const media = set === undefined ? answerMediaType(request.http.headers.get('accept')) : essence(set);
          if (media !== 'application/json') return;
          response.http.status = 200;
          if (set === undefined) response.http.headers.set('content-type', JSON_CONTENT_TYPE);
        },
      };
    },
  };
}
