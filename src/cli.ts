#!/usr/bin/env node
/**
 * The `chess-paths` command (package.json `bin`): `chess-paths solve ...` answers one path
 * question with the engine, `chess-paths serve` starts the GraphQL server. This file is only the
 * process boundary (arguments in, exit code out); the commands live in src/cli/, so they stay
 * importable without running anything. It sits at the top of the layers, above src/server.ts.
 */
import { run } from './cli/main.js';

// A reader that stops early (`chess-paths solve ... | head -3`) is not an error worth a stack.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(0);
  throw err;
});

// exitCode rather than process.exit(): stdout may be a pipe that has not drained yet. `serve`
// returns undefined and keeps the process alive with its listening server.
const code = await run(process.argv.slice(2));
if (code !== undefined) process.exitCode = code;
