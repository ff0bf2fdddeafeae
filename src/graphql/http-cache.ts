/**
 * The `Cache-Control` header of every GraphQL answer. Path answers never change: the same
 * question on the same board always has the same answer. So the schema marks what may be cached,
 * with `@cacheControl` hints (`PathResult` and `Position`, and the objects under them inherit
 * theirs), and Apollo's cache-control plugin works out each operation's policy from the fields it
 * resolved: any field without a hint (analyses, mutations, introspection) makes the whole answer
 * uncacheable. This plugin turns that policy into the header: a GET answer without errors whose
 * policy is cacheable and public gets PATH_CACHE_CONTROL (by default
 * `public, max-age=31536000, immutable`), anything else `no-store`.
 *
 * Why only GET: browsers, CDNs and proxies cache GET, and a GET request names its whole question
 * in its URL, which is what they key on. Why not answers with errors: some errors depend on the
 * moment (an engine budget spent under load, an overloaded server), not on the question. The
 * ETag and the 304 answer to a matching `If-None-Match` need the body, so the HTTP layer adds them.
 */
import type { ApolloServerPlugin, BaseContext } from '@apollo/server';

/** The header of an answer no cache may keep. */
export const NO_STORE = 'no-store';

/**
 * Apollo plugin: sets `Cache-Control` on every answer from the operation's cache policy (which
 * Apollo's cache-control plugin computes, with `calculateHttpHeaders: false`). In a batch (always
 * POST) every answer is `no-store`; `pathCacheControl` set to `no-store` turns HTTP caching off.
 */
export function httpCachePlugin<TContext extends BaseContext>(pathCacheControl: string): ApolloServerPlugin<TContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ request, overallCachePolicy }) {
          // Only a GET answer can be cached: for any other, settle the policy now, which sends
          // Apollo's plugin down its short path instead of working out a hint for every field.
          if (request.http?.method !== 'GET') overallCachePolicy.restrict({ maxAge: 0 });
        },
        async willSendResponse({ request, response, overallCachePolicy }) {
          const policy = overallCachePolicy.policyIfCacheable();
          const body = response.body;
          const cacheable =
            request.http?.method === 'GET' &&
            policy?.scope === 'PUBLIC' &&
            body.kind === 'single' &&
            !body.singleResult.errors?.length;
          response.http.headers.set('cache-control', cacheable ? pathCacheControl : NO_STORE);
        },
      };
    },
  };
}
