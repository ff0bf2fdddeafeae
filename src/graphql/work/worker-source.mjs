// The worker entry point when the service runs from its TypeScript source (tests, `npm run dev`):
// registers tsx in the worker thread, then loads worker.ts. The built package uses worker.js.
import { register } from 'tsx/esm/api';

register();
const { default: work } = await import('./worker.ts');
export default work;
