// Configuration of the Prisma CLI (`prisma generate`, `prisma studio`, and `prisma migrate` on a
// machine that has Prisma's schema engine). The service itself does not read this file: it opens
// the database from DATABASE_URL and applies prisma/migrations with src/store/migrate.ts.
import { defineConfig } from 'prisma/config';

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? 'file:./data/chess-paths.db' },
});
