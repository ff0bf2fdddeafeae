/**
 * The `Cache-Control` header of every GraphQL answer. Path answers never change: the same
 * question on the same board always has the same answer. So the schema marks what may be cached,
 * with `@cacheControl` hints (`PathResult` and `Position`, and the objects under them inherit
 * theirs), and Apollo's cache-control plugin works out each operation's policy from the fields it
 * resolved: any field without a hint (analyses, mutations, introspection) makes the whole answer
 * uncacheable. The plugins here turn that policy into the header: a GET answer without errors
 * whose policy is cacheable and public gets PATH_CACHE_CONTROL (by default
 * `public, max-age=31536000, immutable`), anything else `no-store`.
 *
 * Why only GET: browsers, CDNs and proxies cache GET, and a GET request names its whole question
 * in its URL, which is what they key on. Why not answers with errors: some errors depend on the
 * moment (an engine budget spent under load, an overloaded server), not on the question. The
 * ETag and the 304 answer to a matching `If-None-Match` need the body, so the HTTP layer adds them.
 */
import type { ApolloServerPlugin, BaseContext } from '@apollo/server';
import { ApolloServerPluginCacheControl } from '@apollo/server/plugin/cacheControl';
import { ApolloServerPluginCacheControlDisabled } from '@apollo/server/plugin/disabled';
import { BREAK, type DocumentNode, visit } from 'graphql';

/** The header of an answer no cache may keep. */
export const NO_STORE = 'no-store';

/**
 * Apollo plugins that set `Cache-Control` on every answer. Apollo's cache-control plugin (without
 * headers of its own) computes the policy of GET requests only: working it out means a hook on
 * every field resolved, a cost worth paying only where the answer can be cached. Its disabled
 * twin keeps Apollo from installing a default one of its own. A batch is always POST, so every
 * answer of a batch is `no-store`; `pathCacheControl` set to `no-store` turns HTTP caching off.
 */
export function httpCachePlugins<TContext extends BaseContext>(
  pathCacheControl: string,
): ApolloServerPlugin<TContext>[] {
  const policyPlugin = ApolloServerPluginCacheControl({ defaultMaxAge: 0, calculateHttpHeaders: false });
  return [
    ApolloServerPluginCacheControlDisabled(),
    {
      async serverWillStart(service) {
        await policyPlugin.serverWillStart?.(service);
      },
      async requestDidStart(requestContext) {
        const isGet = requestContext.request.http?.method === 'GET';
        const policyListeners = isGet ? await policyPlugin.requestDidStart?.(requestContext) : undefined;
        let introspects = false;
        return {
          async didResolveOperation({ document }) {
            // Apollo gives meta fields no cache hint: the schema changes with a deploy, so an
            // answer that reads it is never kept.
            introspects = isGet && readsSchema(document);
          },
          executionDidStart: policyListeners?.executionDidStart,
          async willSendResponse({ response, overallCachePolicy }) {
            const policy = overallCachePolicy.policyIfCacheable();
            const body = response.body;
            const cacheable =
              isGet &&
              !introspects &&
              policy?.scope === 'PUBLIC' &&
              body.kind === 'single' &&
              !body.singleResult.errors?.length;
            response.http.headers.set('cache-control', cacheable ? pathCacheControl : NO_STORE);
          },
        };
      },
    },
  ];
}

/** True when the document reads the schema (`__schema` or `__type`, in any operation or fragment). */
function readsSchema(document: DocumentNode): boolean {
  let found = false;
  visit(document, {
    Field(node) {
      if (node.name.value !== '__schema' && node.name.value !== '__type') return undefined;
      found = true;
      return BREAK;
    },
  });
  return found;
}
