// A worker thread for test/graphql/work/worker.caches.test.ts: loads the service's worker entry
// point (src/graphql/work/worker.ts, through tsx, as worker-source.mjs does), which applies the
// engine's cache bounds from its workerData, and answers each task with this thread's engine
// cache sizes.
import { register } from 'tsx/esm/api';

register();
await import('../../src/graphql/work/worker.ts');
const { engineCacheSizes } = await import('@chess-paths/engine');
export default () => engineCacheSizes();
