#!/usr/bin/env node
// Generates the Prisma clients without network: one per database the store speaks,
// prisma/schema.prisma (SQLite) -> src/store/generated/prisma and
// prisma/postgresql/schema.prisma (PostgreSQL) -> src/store/generated/prisma-postgres.
//
// `prisma generate` itself needs no engine, but the CLI first checks for its native schema engine
// and tries to download it unless PRISMA_SCHEMA_ENGINE_BINARY names an existing file. We set it,
// for this command only, to this very script (an existing file that generate never runs). Never
// set it for `prisma migrate`: with it set, `prisma migrate deploy` silently applies nothing.
//
// Skips a client whose inputs (schema, Prisma version) have not changed since it was generated;
// `--force` regenerates anyway. Run from `prepare` (so `npm ci` and `npm install` produce it before
// the TypeScript build) and from `pretest`.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));
const prismaPackage = require.resolve('prisma/package.json');
const prismaCli = join(dirname(prismaPackage), 'build', 'index.js');
const prismaVersion = JSON.parse(readFileSync(prismaPackage, 'utf8')).version;

const configFile = join(root, 'prisma.config.ts');
const env = {
  ...process.env,
  PRISMA_SCHEMA_ENGINE_BINARY: fileURLToPath(import.meta.url),
  CHECKPOINT_DISABLE: '1',
  PRISMA_HIDE_UPDATE_MESSAGE: '1',
};
const force = process.argv.includes('--force');

const clients = [
  { schema: join(root, 'prisma', 'schema.prisma'), output: join(root, 'src', 'store', 'generated', 'prisma') },
  {
    schema: join(root, 'prisma', 'postgresql', 'schema.prisma'),
    output: join(root, 'src', 'store', 'generated', 'prisma-postgres'),
  },
];

for (const { schema, output } of clients) {
  const stampFile = join(output, '.inputs-sha256');
  const stamp = createHash('sha256')
    .update(`prisma ${prismaVersion}\n`)
    .update(readFileSync(schema))
    .update(existsSync(configFile) ? readFileSync(configFile) : '')
    .digest('hex');
  const name = relative(root, output);
  if (!force && existsSync(join(output, 'client.ts')) && existsSync(stampFile)) {
    if (readFileSync(stampFile, 'utf8').trim() === stamp) {
      console.log(`prisma-generate: client in ${name} is up to date`);
      continue;
    }
  }
  const run = spawnSync(process.execPath, [prismaCli, 'generate', '--schema', schema], {
    cwd: root,
    env,
    stdio: 'inherit',
  });
  if (run.error) throw run.error;
  if (run.status !== 0) {
    console.error(`prisma-generate: prisma generate failed for ${name} (exit ${run.status ?? run.signal})`);
    process.exit(run.status ?? 1);
  }
  writeFileSync(stampFile, `${stamp}\n`);
}
