/**
 * Writes `.env.example` and `docs/configuration.md` from the configuration table in
 * `src/config.ts` (`npm run env:example`). Both files are committed for readers, and
 * `test/config.test.ts` checks they equal what this script renders, so edit the table and run the
 * script rather than editing them.
 */

import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Variable } from '../src/config/kinds.js';
import { rows } from '../src/config.js';

const WIDTH = 100;

/** `text` as `# ` comment lines of at most WIDTH columns. */
function comment(text: string): string[] {
  const lines: string[] = [];
  let line = '#';
  for (const word of text.split(/\s+/)) {
    if (line.length + 1 + word.length > WIDTH && line !== '#') {
      lines.push(line);
      line = '#';
    }
    line += ` ${word}`;
  }
  lines.push(line);
  return lines;
}

/** The rows in order, cut where the heading changes. */
function sections(): { heading: string; intro: string; variables: [string, Variable][] }[] {
  const out: { heading: string; intro: string; variables: [string, Variable][] }[] = [];
  for (const [name, variable] of rows()) {
    const last = out.at(-1);
    if (last?.heading === variable.group.heading) last.variables.push([name, variable]);
    else out.push({ ...variable.group, variables: [[name, variable]] });
  }
  return out;
}

/** The default as written in the environment. */
function shown(variable: Variable): string {
  return variable.kind.show(variable.default);
}

/** What the variable accepts, when the kind says more than the description. */
function accepts(variable: Variable): string {
  return variable.kind.accepts === '' ? '' : ` Accepts: ${variable.kind.accepts}.`;
}

/** The text of `.env.example`: every variable set to its default, under a comment explaining it. */
export function renderEnvExample(): string {
  const out = [
    ...comment(
      'chess-paths server configuration. Every variable is optional; the value shown is the default. The server ' +
        'reads the environment only (copy what you need into your process manager or shell; nothing loads this ' +
        'file automatically). A malformed value stops start-up with a message naming the variable and the value.',
    ),
    ...comment('Generated from the table in src/config.ts by `npm run env:example`: edit the table, not this file.'),
  ];
  for (const { heading, intro, variables } of sections()) {
    out.push('', `# --- ${heading} `.padEnd(WIDTH, '-'), ...comment(intro));
    for (const [name, variable] of variables) {
      out.push('', ...comment(variable.doc + accepts(variable)), `${name}=${shown(variable)}`);
    }
  }
  return `${out.join('\n')}\n`;
}

/** A markdown table cell: no line breaks, pipes escaped. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\s+/g, ' ');
}

/** The text of `docs/configuration.md`: how to configure, then one table per group. */
export function renderConfigurationDoc(): string {
  const out = [
    '# Configuration',
    '',
    'The server is configured by environment variables only; every one is optional. Set them in the',
    'shell, your process manager or container (for example `PORT=8080 MAX_BOARD_SIDE=32 npm start`).',
    'The server does not load a `.env` file by itself: [`.env.example`](../.env.example) lists every',
    'variable at its default, to copy from.',
    '',
    'Values are checked at start-up. An empty variable means its default; a malformed or out-of-range',
    'value (a port of `abc`, a negative limit, an unknown log level) stops start-up with an error',
    'naming the variable and the value, for example `PORT="abc" is not a whole number, 0 to 65535`, rather than',
    'falling back to the default. Whole numbers may group digits with underscores (`1_000_000`);',
    'booleans are `true`/`false`, `1`/`0`, `yes`/`no` or `on`/`off`.',
    '',
    '<!-- Generated from the table in src/config.ts by `npm run env:example`: edit the table, not this file. -->',
  ];
  for (const { heading, intro, variables } of sections()) {
    out.push('', `## ${heading}`, '', intro, '', '| variable | default | meaning |', '| --- | --- | --- |');
    for (const [name, variable] of variables) {
      const value = shown(variable);
      const fallback = variable.follows
        ? `value of \`${variable.follows}\``
        : value === ''
          ? '(empty)'
          : `\`${value}\``;
      out.push(`| \`${name}\` | ${fallback} | ${cell(variable.doc + accepts(variable))} |`);
    }
  }
  return `${out.join('\n')}\n`;
}

/** Where each generated file goes, relative to the repository root. */
export const OUTPUTS = {
  '.env.example': renderEnvExample,
  'docs/configuration.md': renderConfigurationDoc,
};

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const [path, render] of Object.entries(OUTPUTS)) {
    writeFileSync(new URL(`../${path}`, import.meta.url), render());
    console.log(`wrote ${path}`);
  }
}
