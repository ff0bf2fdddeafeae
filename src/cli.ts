#!/usr/bin/env node
/**
 * The `chess-paths` command (package.json `bin`): `chess-paths solve ...` answers one path
 * question with the engine, `chess-paths serve` starts the GraphQL server. This file is only the
 * process boundary (arguments in, exit code out); the commands live in src/cli/, so they stay
 * importable without running anything. It sits at the top of the layers, above src/server.ts.
 */
import { outputFailure, run } from './cli/main.js';

// Output that cannot be written (a full disk, a reader that closed the pipe) ends the command
// with one line on stderr and exit 1: nothing more can be delivered, and a stack trace would only
// hide the reason.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  process.stderr.write(`chess-paths: ${outputFailure(err)}\n`);
  process.exit(1);
});

// exitCode rather than process.exit(): stdout may be a pipe that has not drained yet. `serve`
// returns undefined and keeps the process alive with its listening server.
const code = await run(process.argv.slice(2));
if (code !== undefined) process.exitCode = code;
