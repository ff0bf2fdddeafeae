/**
 * Playground benchmark (`npm run bench:playground`): how long GraphiQL at `GET /graphql` takes to
 * open in Debian's headless Chromium, on a first visit and on later ones, and what it transfers.
 *
 * The built server (`dist/server.js`, built first when dist/ is older than src/; ATTACK_SERVER=
 * /path/to/dist/server.js measures another build, as in bench:attack) runs as a child process with
 * the production defaults. Each run launches Chromium on a fresh profile of its own (a temporary
 * user-data directory, so the disk cache and V8's code cache behave as a new visitor's would) at
 * 1,920 x 1,080; the first visit opens the page in it, and each later one opens it again in a new
 * tab of the same profile after the previous tab is closed. The third visit is there because
 * Chromium keeps compiled code of a script (V8's code cache) from its second load and uses it from
 * the third. Every time is read from the page's own clock (`performance.now()`, from the start of
 * the navigation), checked on every animation frame:
 * - ready: the query editor and an enabled run button are on screen;
 * - interactive: the editor shows the seed example too (an older build opened an empty tab on a
 *   later visit: then it is never, and the answer is not measured);
 * - answer: from a click on the run button until the result pane shows `"distance": 4` after a
 *   POST to /graphql that started after the click (the answer of an earlier visit may be restored).
 * Bytes are the Resource Timing API's `transferSize` (headers and compressed body as received; 0
 * when served from the browser's cache) of the page and of every file it loads, read once the
 * editor's three workers have started (they start when it needs them) and their scripts arrived,
 * but not of the GraphQL requests (the schema's introspection, the query). After the first visit,
 * the bench waits until the service worker the page registers (if it does) is active: a visitor's
 * next visit comes later than the bench's.
 *
 * Each run is measured twice, on two fresh profiles: driven by Playwright as above, then "plain":
 * Chromium driven over its DevTools pipe without Playwright (`bench/chromium-pipe.ts`), the same
 * three visits, the same ready and interactive times read by a probe the bench puts into every
 * document (no answer, no bytes). Playwright turns on DevTools' Runtime domain, which makes V8
 * parse GraphiQL's 5 MB script again on every visit that starts from compiled code (see
 * chromium-pipe.ts); the plain run is the page as a visitor's browser runs it.
 *
 * It prints each run and the medians of both against the goals (first visit under 2 s, second
 * under 0.5 s) and writes bench/playground-results.json (BENCH_OUT chooses another file).
 * Options (env): BENCH_RUNS (default 5), ATTACK_SKIP_BUILD=1 (use dist/ as it is).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS } from '../test/support/browser.js';
import { ensureBuilt, root, serverPath, sleep, startServer, stopServer } from './attack-server.js';
import { launchOverPipe, type PipeBrowser } from './chromium-pipe.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const OUT = process.env.BENCH_OUT ?? join(root, 'bench', 'playground-results.json');
const VIEWPORT = { width: 1920, height: 1080 };
/** Long enough for the single 9 MB page of older builds (10-16 s to open here). */
const TIMEOUT_MS = 180_000;
const GOALS = { firstMs: 2000, secondMs: 500 };
/** Monaco's editor workers: the base one, JSON's (variables, headers) and GraphQL's. */
const WORKERS = 3;
const VISITS = ['first', 'second', 'third'] as const;
type Visits = Record<(typeof VISITS)[number], Visit>;

/** What one visit measured (times from the start of the navigation, by the page's clock). */
interface Visit {
  /** The query editor and an enabled run button are on screen, whatever the editor holds. */
  readyMs: number;
  /** The editor shows the seed example too (null when it never did: a build that opened another tab). */
  interactiveMs: number | null;
  /** From the click on the run button to the answer on screen (null when the seed was not shown). */
  answerMs: number | null;
  /** Whether a service worker controlled the page. */
  controlled: boolean;
  /** Bytes received for the page and its files (compressed, with headers). */
  bytes: number;
  /** Requests for the page and its files, and how many of them reached the network. */
  requests: number;
  fromNetwork: number;
  files: { name: string; transferSize: number; encodedBodySize: number; decodedBodySize: number }[];
}

/** How long the seed example may take to show once the editor is ready before it counts as never shown. */
const SEED_GRACE_MS = 15_000;

/** Opens the playground in `page` and measures it. */
async function visit(page: Page, url: string): Promise<Visit> {
  const workers = new Set<string>();
  const workersStarted = new Promise<void>((resolve) => {
    page.on('worker', (worker) => {
      workers.add(worker.url());
      if (workers.size >= WORKERS) resolve();
    });
    setTimeout(resolve, TIMEOUT_MS).unref(); // a build whose editor starts fewer: counted as they are
  });
  await page.goto(`${url}/graphql`, { waitUntil: 'commit', timeout: TIMEOUT_MS });
  const frames = { polling: 'raf' as const, timeout: TIMEOUT_MS };
  const readyAt = await page.waitForFunction(
    () => {
      const lines = document.querySelector('.graphiql-query-editor .view-lines');
      const run = document.querySelector<HTMLButtonElement>('.graphiql-execute-button');
      return Boolean(lines && run && !run.disabled) && performance.now();
    },
    undefined,
    frames,
  );
  const readyMs = Number(await readyAt.jsonValue());
  let interactiveMs: number | null = null;
  let answerMs: number | null = null;
  try {
    const shownAt = await page.waitForFunction(
      () => document.querySelector('.graphiql-query-editor')?.textContent?.includes('SeedExample') && performance.now(),
      undefined,
      { ...frames, timeout: SEED_GRACE_MS },
    );
    interactiveMs = Math.max(readyMs, Number(await shownAt.jsonValue()));
  } catch {
    // Never shown: the answer is not measured either.
  }
  if (interactiveMs !== null) {
    const clicked = await page.evaluate(() => {
      const at = performance.now();
      document.querySelector<HTMLButtonElement>('.graphiql-execute-button')?.click();
      return at;
    });
    // The answer of an earlier visit may be restored on screen: it counts once a POST made after the click ended.
    const answeredAt = await page.waitForFunction(
      (after) => {
        const posted = performance
          .getEntriesByType('resource')
          .some(
            (e) =>
              e.name.endsWith('/graphql') && e.startTime >= after && (e as PerformanceResourceTiming).responseEnd > 0,
          );
        const shown = document.querySelector('.graphiql-response')?.textContent?.replace(/\u00a0/g, ' ') ?? '';
        return posted && shown.includes('"distance": 4') && performance.now();
      },
      clicked,
      frames,
    );
    answerMs = Math.round(Number(await answeredAt.jsonValue()) - clicked);
  }
  // The editor's workers start when it needs them: their bytes count once their scripts have
  // arrived (a worker made from a blob, as older builds made them, loads nothing).
  await workersStarted;
  await page.waitForFunction(
    (urls) => urls.every((url) => performance.getEntriesByName(url).length > 0),
    [...workers].filter((url) => url.startsWith('http')),
    frames,
  );
  const entries = await page.evaluate(() =>
    [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')].map((e) => {
      const r = e as PerformanceResourceTiming;
      return {
        name: new URL(r.name).pathname,
        api: r.entryType === 'resource' && new URL(r.name).pathname === '/graphql',
        transferSize: r.transferSize,
        encodedBodySize: r.encodedBodySize,
        decodedBodySize: r.decodedBodySize,
      };
    }),
  );
  const files = entries.filter((e) => !e.api).map(({ api: _api, ...file }) => file);
  const controlled: boolean = await page.evaluate('Boolean(navigator.serviceWorker?.controller)');
  return {
    controlled,
    readyMs: Math.round(readyMs),
    interactiveMs: interactiveMs === null ? null : Math.round(interactiveMs),
    answerMs,
    bytes: files.reduce((sum, f) => sum + f.transferSize, 0),
    requests: files.length,
    fromNetwork: files.filter((f) => f.transferSize > 0).length,
    files,
  };
}

/**
 * Waits until the service worker the page registered (if it does: older builds do not) is active,
 * its files in its cache: a visitor's next visit comes later than the bench's.
 */
async function workerInstalled(page: Page): Promise<void> {
  await page.evaluate(WORKER_INSTALLED);
}

/** How long after the first visit a page may take to register its service worker before it counts as having none. */
const WORKER_GRACE_MS = 5_000;

/** In the page: resolves once its service worker is active, or after WORKER_GRACE_MS without one registered. */
const WORKER_INSTALLED = `(async () => {
  const started = performance.now();
  while (!(await navigator.serviceWorker?.getRegistration())) {
    if (performance.now() - started > ${WORKER_GRACE_MS}) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await navigator.serviceWorker.ready;
})()`;

/** One run: a fresh profile, a first visit, then each later one in a new tab of the same profile. */
async function run(url: string): Promise<Visits> {
  const profile = mkdtempSync(join(tmpdir(), 'chess-paths-playground-bench-'));
  let context: BrowserContext | undefined;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      args: CHROMIUM_ARGS,
      viewport: VIEWPORT,
    });
    let tab = context.pages()[0] ?? (await context.newPage());
    const visits: Partial<Visits> = {};
    for (const name of VISITS) {
      if (name !== 'first') {
        await tab.close();
        tab = await context.newPage();
      }
      visits[name] = await visit(tab, url);
      if (name === 'first') await workerInstalled(tab);
    }
    return visits as Visits;
  } finally {
    await context?.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

/** The median of the figures that were measured (null when none was). */
const median = (values: (number | null)[]): number | null => {
  const sorted = values.filter((v): v is number => v !== null).sort((x, y) => x - y);
  if (sorted.length === 0) return null;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : Math.round((sorted[mid - 1] + sorted[mid]) / 2);
};

/** What a visit measured without Playwright (bench/chromium-pipe.ts): the same times, as a visitor's browser runs the page. */
interface PlainVisit {
  readyMs: number;
  interactiveMs: number | null;
  controlled: boolean;
}

/**
 * Set on every document of a plain run, before the page's own scripts: checks on every animation
 * frame what `visit` checks (the editor and an enabled run button; then the seed example too).
 */
const PROBE = `(() => {
  const check = () => {
    const now = performance.now();
    const lines = document.querySelector('.graphiql-query-editor .view-lines');
    const run = document.querySelector('.graphiql-execute-button');
    if (lines && run && !run.disabled) globalThis.__benchReady ??= now;
    const seed = document.querySelector('.graphiql-query-editor')?.textContent?.includes('SeedExample');
    if (globalThis.__benchReady !== undefined && seed) globalThis.__benchInteractive = now;
    else requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
})();`;

/** Opens the playground in a new tab of `browser` and reads the probe's times. */
async function plainVisit(browser: PipeBrowser, url: string) {
  const tab = await browser.newTab(VIEWPORT);
  await browser.send('Page.addScriptToEvaluateOnNewDocument', { source: PROBE }, tab.sessionId);
  await browser.send('Page.navigate', { url: `${url}/graphql` }, tab.sessionId);
  const read = `location.pathname === '/graphql' && globalThis.__benchReady !== undefined
    ? [globalThis.__benchReady, globalThis.__benchInteractive ?? null, performance.now(), Boolean(navigator.serviceWorker?.controller)]
    : null`;
  const started = performance.now();
  for (;;) {
    await sleep(50);
    const times = await browser.evaluate<[number, number | null, number, boolean] | null>(tab.sessionId, read);
    if (times) {
      const [ready, interactive, now, controlled] = times;
      if (interactive !== null || now - ready > SEED_GRACE_MS) {
        const visit: PlainVisit = {
          readyMs: Math.round(ready),
          interactiveMs: interactive === null ? null : Math.round(interactive),
          controlled,
        };
        return { tab, visit };
      }
    }
    if (performance.now() - started > TIMEOUT_MS) throw new Error('the playground did not open (plain run)');
  }
}

/** A plain run: as `run`, on a fresh profile of its own, without Playwright and without the answer. */
async function plainRun(url: string): Promise<Record<(typeof VISITS)[number], PlainVisit>> {
  const profile = mkdtempSync(join(tmpdir(), 'chess-paths-playground-bench-'));
  const browser = await launchOverPipe(CHROMIUM, CHROMIUM_ARGS, profile);
  try {
    const visits: Partial<Record<(typeof VISITS)[number], PlainVisit>> = {};
    let previous: { targetId: string; sessionId: string } | undefined;
    for (const name of VISITS) {
      if (previous) await browser.send('Target.closeTarget', { targetId: previous.targetId });
      const { tab, visit } = await plainVisit(browser, url);
      visits[name] = visit;
      previous = tab;
      if (name === 'first') await browser.evaluate(tab.sessionId, WORKER_INSTALLED, true);
    }
    return visits as Record<(typeof VISITS)[number], PlainVisit>;
  } finally {
    await browser.close();
    rmSync(profile, { recursive: true, force: true, maxRetries: 5 });
  }
}

/** The medians of a visit's figures over the runs, and in how many runs the seed example was shown. */
function medians(visits: Visit[]) {
  return {
    readyMs: median(visits.map((v) => v.readyMs)),
    interactiveMs: median(visits.map((v) => v.interactiveMs)),
    answerMs: median(visits.map((v) => v.answerMs)),
    seedShown: visits.filter((v) => v.interactiveMs !== null).length,
    bytes: median(visits.map((v) => v.bytes)) ?? 0,
    requests: median(visits.map((v) => v.requests)) ?? 0,
    fromNetwork: median(visits.map((v) => v.fromNetwork)) ?? 0,
    controlled: visits.filter((v) => v.controlled).length,
  };
}

/** The medians of a plain visit's times over the runs. */
function plainMedians(visits: PlainVisit[]) {
  return {
    readyMs: median(visits.map((v) => v.readyMs)),
    interactiveMs: median(visits.map((v) => v.interactiveMs)),
    seedShown: visits.filter((v) => v.interactiveMs !== null).length,
    controlled: visits.filter((v) => v.controlled).length,
  };
}

/** A plain visit as one line. */
function plainLine(v: PlainVisit | ReturnType<typeof plainMedians>): string {
  const seed = v.interactiveMs === null ? 'the seed example never shown' : `interactive ${v.interactiveMs} ms`;
  const worker =
    typeof v.controlled === 'number'
      ? `${v.controlled} by the service worker`
      : v.controlled
        ? 'the service worker'
        : '';
  return `ready ${v.readyMs} ms, ${seed}${worker ? ` (${worker})` : ''}`;
}

/** A visit as one line. */
function line(v: Visit | ReturnType<typeof medians>): string {
  const seed = v.interactiveMs === null ? 'the seed example never shown' : `interactive ${v.interactiveMs} ms`;
  const answer = v.answerMs === null ? '' : `, answer ${v.answerMs} ms`;
  const worker =
    typeof v.controlled === 'number'
      ? `${v.controlled} by the service worker`
      : v.controlled
        ? 'the service worker'
        : '';
  return `ready ${v.readyMs} ms, ${seed}${answer}, ${kb(v.bytes)} (${v.fromNetwork} of ${v.requests} requests reached the server${worker ? `; ${worker}` : ''})`;
}

async function main(): Promise<void> {
  ensureBuilt();
  const server = await startServer();
  const runs: Visits[] = [];
  const plainRuns: Record<(typeof VISITS)[number], PlainVisit>[] = [];
  const load = [loadavg()[0]];
  try {
    for (let i = 0; i < RUNS; i++) {
      const result = await run(server.url);
      runs.push(result);
      const plain = await plainRun(server.url);
      plainRuns.push(plain);
      load.push(loadavg()[0]);
      console.log(`run ${i + 1}:`);
      for (const name of VISITS) console.log(`  ${`${name} visit:`.padEnd(14)}${line(result[name])}`);
      for (const name of VISITS) console.log(`  ${`plain ${name}:`.padEnd(14)}${plainLine(plain[name])}`);
    }
  } finally {
    await stopServer(server);
  }
  const median = Object.fromEntries(VISITS.map((name) => [name, medians(runs.map((r) => r[name]))]));
  const plainMedian = Object.fromEntries(VISITS.map((name) => [name, plainMedians(plainRuns.map((r) => r[name]))]));
  const verdict = (ms: number | null, goal: number) => (ms !== null && ms < goal ? 'met' : 'NOT met');
  const goalOf = (name: string) => (name === 'first' ? GOALS.firstMs : name === 'second' ? GOALS.secondMs : undefined);
  const against = (name: string, ms: number | null) => {
    const goal = goalOf(name);
    return goal === undefined ? '' : `; goal under ${goal} ms ${verdict(ms, goal)}`;
  };
  console.log(`\nmedians of ${RUNS} runs (load average ${load.map((l) => l.toFixed(1)).join(', ')}):`);
  for (const name of VISITS) {
    const m = median[name];
    console.log(
      `  ${`${name} visit:`.padEnd(14)}${line(m)}, seed shown in ${m.seedShown} runs${against(name, m.interactiveMs)}`,
    );
  }
  console.log('without Playwright (a plain Chromium, as a visitor runs the page):');
  for (const name of VISITS) {
    const m = plainMedian[name];
    console.log(
      `  ${`${name} visit:`.padEnd(14)}${plainLine(m)}, seed shown in ${m.seedShown} runs${against(name, m.interactiveMs)}`,
    );
  }
  const report = {
    date: new Date().toISOString(),
    server: serverPath,
    chromium: await chromiumVersion(),
    viewport: VIEWPORT,
    runs: RUNS,
    loadAverage: { min: Math.min(...load), max: Math.max(...load) },
    goals: GOALS,
    median,
    plain: { median: plainMedian, each: plainRuns },
    files: runs[0]?.first.files,
    each: runs.map((r) => Object.fromEntries(VISITS.map((name) => [name, strip(r[name])]))),
  };
  writeFileSync(OUT, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\nwritten to ${OUT}`);
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
const strip = ({ files: _files, ...rest }: Visit) => rest;

/** The browser's version, as it reports it. */
async function chromiumVersion(): Promise<string> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  try {
    return `Chromium ${browser.version()}`;
  } finally {
    await browser.close();
  }
}

await main();
