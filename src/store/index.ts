/**
 * The store's one door from the layers above: the contract (`./types.ts`) and its errors, the
 * helpers the server and the GraphQL layer use while starting and per request, and what
 * `chess-paths export` and `import` use (`./transfer/`). It stays light to load: what needs Prisma
 * or a database driver (opening the store, `./open.ts`; opening a database for a transfer) is
 * imported on its first call, so a process that never opens a database (a server without one, a
 * worker thread, `chess-paths solve`) never loads them.
 */
import type { OpenedStore, StoreExtras } from './open.js';
import type { OpenTransferOptions, TransferDatabase } from './transfer/database.js';
import type { StoreOptions } from './types.js';

export { databaseFileFromUrl } from '../config/kinds.js';
export { unavailableReason } from './availability.js';
export type { LockingMode } from './connection.js';
export { type Dialect, dialectOf, redactUrl } from './dialect.js';
export * from './errors.js';
export { idempotencyKeyProblem } from './idempotency-key.js';
export type { MigrateOptions, MigrateResult, StoreLogger } from './migrate.js';
export type { OpenedStore, StoreExtras } from './open.js';
export { readPieceColumn } from './result-cache.js';
export type { StoreTotals } from './totals.js';
export type { OpenTransferOptions, TransferDatabase } from './transfer/database.js';
export { type ExportCounts, type ExportOptions, exportStore } from './transfer/export.js';
export { TransferError } from './transfer/format.js';
export {
  type CheckedFile,
  checkExportFile,
  type ImportLimits,
  type ImportRow,
  type ImportSummary,
  importStore,
  type RowCheck,
} from './transfer/import.js';
export * from './types.js';

/**
 * Opens the store: creates the directory, applies pending migrations, connects Prisma, runs a
 * trial write (its failure leaves the store open but unavailable). Loads Prisma on first call.
 */
export async function openStore(options: StoreOptions, extras: StoreExtras = {}): Promise<OpenedStore> {
  const open = await import('./open.js');
  return open.openStore(options, extras);
}

/** Opens a database for `chess-paths export` or `import` (see `./transfer/database.ts`). Loads Prisma on first call. */
export async function openTransferDatabase(url: string, options: OpenTransferOptions): Promise<TransferDatabase> {
  const transfer = await import('./transfer/database.js');
  return transfer.openTransferDatabase(url, options);
}
