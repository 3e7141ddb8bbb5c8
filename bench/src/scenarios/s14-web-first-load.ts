import { join } from 'node:path';
import { ISSUE_SIZE } from '@doable/sync-domain/testing';
import { Client } from 'pg';
import type { Browser, Cookie } from 'playwright-core';
import { benchEmail, postSyncText } from '../accounts';
import { createLargeAccount } from '../large-accounts';
import { withTimeout } from '../poll';
import { REPO_ROOT } from '../processes';
import { percentile, timeRounds } from '../stats';
import { chromiumCpuMs, launchChromium, signInThroughApp } from '../web-app-browser';
import { firstLoadFiles, GZIP_LEVEL, kib } from '../web-bundle';
import type { BenchContext, Scenario, ScenarioRow } from './scenario';

/** Issue #35's targets. */
const TARGET_JS_KIB = 150;
const TARGET_TODAY_MS = 1_000;
const ROUNDS = 9;
const WARMUP_ROUNDS = 2;
const PASSWORD = 'bench-web-password';
/** What the app renders per task (apps/web/src/views/task-row.tsx). */
const TASK_ROW = '[data-testid="task"]';
/** Rows a list draws before its "Show more" button (apps/web/src/views/task-row.tsx's FIRST_ROWS). */
const FIRST_ROWS = 100;
const TIMEOUT_MS = 60_000;
/** The page's own report that Today is drawn (see firstLoadOfToday). */
const SHOWN_BINDING = 'doableBenchTodayShown';
const TODAY_WHAT = "the web app's first load of Today (S3 account, 5,000 tasks) in Chromium, until the Today lists are drawn (each its first 100 rows)";
const TODAY_TARGET = `<= ${TARGET_TODAY_MS} ms p50`;

/**
 * S14: the web app's first load (issue #35). (a) The JavaScript the first load fetches, gzipped
 * here: every script dist/web/index.html loads and their static imports. (b) The time from
 * navigation to the Today view of the S3 account (5,000 tasks) shown in Debian's Chromium: a
 * fresh browser context per round (empty HTTP cache, as a first visit) holding the person's
 * session cookie (obtained once by signing in through the app; the app trades it for a token), then `page.goto('/app/#/today')`; the clock is the page's own (`performance.now()`, from the
 * navigation's start) when the Today lists hold every row they should. Baseline: the full sync the
 * app must wait for, alone (the same request from Node), so the ratio says what the page adds to
 * the answer it cannot do without.
 */
export const s14WebFirstLoad: Scenario = {
  id: 'S14',
  title: "the web app's first load: JavaScript (gzip) and the Today view of the S3 account in Chromium",
  target: `first-load JS <= ${TARGET_JS_KIB} KiB gzip; Today shown <= ${TARGET_TODAY_MS} ms p50`,
  run: async (context) => measure(context),
};

async function measure(context: BenchContext): Promise<ScenarioRow[]> {
  const webDir = join(REPO_ROOT, 'dist', 'web');
  const { scripts, styles } = await firstLoadFiles(webDir);
  const jsGzip = scripts.reduce((sum, file) => sum + file.gzipBytes, 0);
  const jsRaw = scripts.reduce((sum, file) => sum + file.bytes, 0);
  const bundleRow: ScenarioRow = {
    id: 'S14',
    mode: 'cluster',
    what: "the web app's first-load JavaScript (dist/web: index.html's module scripts, modulepreloads and their static imports)",
    status: 'measured',
    product: { 'JS KiB gzip': kib(jsGzip), 'JS KiB raw': kib(jsRaw), files: scripts.length, 'CSS KiB gzip': kib(styles.reduce((sum, file) => sum + file.gzipBytes, 0)) },
    target: `<= ${TARGET_JS_KIB} KiB gzip`,
    pass: kib(jsGzip) <= TARGET_JS_KIB,
    valid: true,
    notes: [`gzip by node:zlib level ${GZIP_LEVEL} of each file: ${scripts.map((file) => `${file.path} ${kib(file.gzipBytes)} KiB`).join(', ')}`],
    details: { scripts, styles },
  };
  // The bundle's figure stands even when the browser half fails.
  const todayRow = await measureToday(context).catch(
    (err: unknown): ScenarioRow => ({ id: 'S14', mode: 'cluster', what: TODAY_WHAT, status: 'failed', target: TODAY_TARGET, notes: [`failed: ${(err instanceof Error ? err.message : String(err)).slice(0, 600)}`] }),
  );
  return [bundleRow, todayRow];
}

async function measureToday(context: BenchContext): Promise<ScenarioRow> {
  const { cluster } = await context.cluster();
  const label = `${context.runId}-s14`;
  const account = await createLargeAccount(cluster.databaseUrl, label, ISSUE_SIZE, PASSWORD);
  const today = new Date().toISOString().slice(0, 10);
  const expectedRows = await dateTasksAroundToday(cluster.databaseUrl, account.userId, today);
  const browser = await launchChromium();
  try {
    const signIn = await browser.newContext({ timezoneId: 'UTC' });
    const session = await signInThroughApp(await signIn.newPage(), cluster.gatewayUrl, { email: benchEmail(label, 0), password: PASSWORD });
    await signIn.close();
    const openToday = () => firstLoadOfToday(browser, cluster.gatewayUrl, session, expectedRows);
    const fullSync = async () => {
      const answer = await postSyncText(cluster.gatewayUrl, account.token, { sync_token: '*', resource_types: ['all'] }, TIMEOUT_MS);
      if (answer.status !== 200) throw new Error(`full sync answered ${answer.status}`);
    };
    for (let round = 0; round < WARMUP_ROUNDS; round++) {
      await openToday();
      await fullSync();
    }
    const pageMs: number[] = [];
    const wallMs: number[] = [];
    const syncMs: number[] = [];
    const phases: LoadPhases[] = [];
    const chromiumMs: number[] = [];
    // Alternating, so the page and its baseline see the same moments of a noisy machine.
    for (let round = 0; round < ROUNDS; round++) {
      const shown = await openToday();
      pageMs.push(shown.pageMs);
      wallMs.push(shown.wallMs);
      phases.push(shown.phases);
      chromiumMs.push(shown.chromiumCpuMs);
      syncMs.push(...(await timeRounds(1, fullSync)));
    }
    const p50 = percentile(pageMs, 50);
    const ratio = Math.round((p50 / percentile(syncMs, 50)) * 100) / 100;
    return {
      id: 'S14',
      mode: 'cluster',
      what: TODAY_WHAT,
      status: 'measured',
      product: { rows: expectedRows, 'p50 ms': Math.round(p50), 'p99 ms': Math.round(percentile(pageMs, 99)), 'wall p50 ms': Math.round(percentile(wallMs, 50)) },
      baseline: { 'p50 ms': Math.round(percentile(syncMs, 50)) },
      ratio: { name: 'p50 time to Today / p50 full sync alone', value: ratio },
      target: TODAY_TARGET,
      pass: p50 <= TARGET_TODAY_MS,
      valid: true,
      notes: [
        `${ROUNDS} loads after ${WARMUP_ROUNDS} warm-up ones, each in a fresh browser context (empty cache) with the session cookie already set (the app asks it for a token), clock from the navigation's start to ${expectedRows} rows in the Today lists (the page's performance.now()); wall = Node's clock from page.goto; account seeded in ${account.seedS} s`,
        `baseline: the full sync (sync_token '*', resource_types ["all"]) alone from Node, alternating with the loads`,
        `Today drawn from the first look (the filter endpoint, apps/web/src/state/first-look.ts) in ${phases.filter((phase) => phase.drawnBy === 'first look').length} of ${phases.length} loads, from the full sync in the rest`,
        `p50 of each part (the app's User Timing marks, Resource Timing): page and script until the first request ${phaseP50(phases, 'beforeRequestMs')} ms, that request until its tasks are in the state ${phaseP50(phases, 'answerMs')} ms, rendered ${phaseP50(phases, 'renderMs')} ms; the full sync itself ${phaseP50(phases, 'fullSyncMs')} ms until its last byte, merged (the whole account in the app) ${phaseP50(phases, 'fullSyncMergedAtMs')} ms after the navigation`,
        `Chromium's own CPU per load (all its processes, /proc), p50 ${Math.round(percentile(chromiumMs, 50))} ms: the browser shares this machine's two cores with gateway, sync and PostgreSQL`,
      ],
      details: { pageMs, wallMs, syncMs, phases, chromiumCpuMs: chromiumMs, seedS: account.seedS, today },
    };
  } finally {
    await browser.close();
  }
}

function phaseP50(phases: readonly LoadPhases[], key: Exclude<keyof LoadPhases, 'drawnBy'>): number {
  return Math.round(percentile(phases.map((phase) => phase[key]), 50));
}

/**
 * The seed's dated tasks (every third) fall on ten days, today and every third day after it, by
 * PostgreSQL's `current_date`. Moved here to run from three days ago, by the UTC day the browser
 * will use (its context is in UTC): about a tenth of them overdue, a tenth due today. Returns how
 * many rows the Today view must then draw.
 */
async function dateTasksAroundToday(databaseUrl: string, userId: string, today: string): Promise<number> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(
      `UPDATE sync.items SET due = jsonb_set(due, '{date}', to_jsonb(to_char($2::date + (child_order % 30)::int - 3, 'YYYY-MM-DD')))
        WHERE user_id = $1 AND due IS NOT NULL`,
      [userId, today],
    );
    const { rows } = await client.query<{ overdue: string; today: string }>(
      `SELECT count(*) FILTER (WHERE (due->>'date')::date < $2::date)::text AS overdue, count(*) FILTER (WHERE (due->>'date')::date = $2::date)::text AS today
         FROM sync.items WHERE user_id = $1 AND NOT checked AND NOT is_deleted AND NOT in_history AND due IS NOT NULL`,
      [userId, today],
    );
    const overdue = Number(rows[0].overdue);
    const due = Number(rows[0].today);
    if (overdue === 0 || due === 0) throw new Error(`dating the seed left ${overdue} overdue and ${due} due today`);
    // Each list draws its first FIRST_ROWS rows and a "Show more" button (task-row.tsx).
    return Math.min(overdue, FIRST_ROWS) + Math.min(due, FIRST_ROWS);
  } finally {
    await client.end();
  }
}

/** Where one load's time went, each from the page's clock (User Timing marks the app sets, Resource Timing). */
interface LoadPhases {
  /** What drew the Today rows: the filter endpoint's early answer (first-look.ts) or the full sync. */
  drawnBy: 'first look' | 'full sync';
  /** Navigation, index.html, the script, boot: until the app sends its first request for tasks. */
  beforeRequestMs: number;
  /** From that request until its tasks are in the app's state (network, parse, merge). */
  answerMs: number;
  /** From the tasks in the state until the Today lists hold their rows (Preact's render, the DOM). */
  renderMs: number;
  /** The full sync alone: from sent to its last byte (Resource Timing's responseEnd). */
  fullSyncMs: number;
  /** From the navigation until the full sync's answer is merged: the whole account in the app. */
  fullSyncMergedAtMs: number;
}

/** The marks the app sets (apps/web/src/state/session.ts: FULL_SYNC_MARKS, FIRST_LOOK_MARKS). */
const MARKS = { syncSent: 'doable:full-sync-sent', syncMerged: 'doable:full-sync-merged', lookSent: 'doable:first-look-sent', lookMerged: 'doable:first-look-merged' };

interface PageReport {
  pageMs: number;
  marks: Record<string, number>;
  syncEndMs: number;
}

/** One first visit: a new context (no cache) holding the person's session cookie, then Today. */
async function firstLoadOfToday(browser: Browser, gatewayUrl: string, session: Cookie[], expectedRows: number): Promise<{ pageMs: number; wallMs: number; phases: LoadPhases; chromiumCpuMs: number }> {
  const context = await browser.newContext({ timezoneId: 'UTC' });
  try {
    await context.addCookies(session);
    // The page reports through a binding, twice: when Today is drawn, and when the full sync is
    // merged (which may come later). Polling from here (a DevTools round trip into the page every
    // few ms) would take the very CPU the load needs.
    let onShown: (report: PageReport) => void = () => undefined;
    let onSynced: (report: PageReport) => void = () => undefined;
    const shown = new Promise<PageReport>((resolve) => (onShown = resolve));
    const synced = new Promise<PageReport>((resolve) => (onSynced = resolve));
    await context.exposeBinding(SHOWN_BINDING, (_source, kind: 'shown' | 'synced', report: PageReport) => (kind === 'shown' ? onShown : onSynced)(report));
    // Init scripts go through the DevTools protocol, so the app's strict CSP does not stop them.
    // Page code as text: bench compiles without the DOM's types.
    await context.addInitScript(`(() => {
      if (location.protocol === 'about:') return;
      const report = (kind, pageMs) => {
        const marks = Object.fromEntries(performance.getEntriesByType('mark').map((mark) => [mark.name, mark.startTime]));
        const sync = performance.getEntriesByType('resource').find((entry) => entry.name.includes('/api/v1/sync'));
        globalThis.${SHOWN_BINDING}(kind, { pageMs, marks, syncEndMs: sync ? sync.responseEnd : NaN });
      };
      const whenSynced = () => {
        if (performance.getEntriesByName(${JSON.stringify(MARKS.syncMerged)}).length > 0) return report('synced', performance.now());
        const marks = new PerformanceObserver(() => {
          if (performance.getEntriesByName(${JSON.stringify(MARKS.syncMerged)}).length === 0) return;
          marks.disconnect();
          report('synced', performance.now());
        });
        marks.observe({ type: 'mark' });
      };
      const watcher = new MutationObserver(() => {
        if (document.querySelectorAll(${JSON.stringify(TASK_ROW)}).length < ${expectedRows}) return;
        const shownMs = performance.now();
        watcher.disconnect();
        report('shown', shownMs);
        whenSynced();
      });
      watcher.observe(document, { childList: true, subtree: true });
    })();`);
    const cpuBefore = await chromiumCpuMs();
    const page = await context.newPage();
    const started = process.hrtime.bigint();
    await page.goto(`${gatewayUrl}/app/#/today`);
    const { pageMs, marks } = await withTimeout(shown, TIMEOUT_MS, `${expectedRows} Today rows`);
    const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
    const { syncEndMs, marks: allMarks } = await withTimeout(synced, TIMEOUT_MS, 'the full sync merged');
    // Read before the context closes: its renderer's time goes with its process.
    const chromiumCpu = (await chromiumCpuMs()) - cpuBefore;
    const at = (name: string) => allMarks[name] ?? Number.NaN;
    // Drawn by the first look when its tasks were merged before the rows were counted.
    const byLook = marks[MARKS.lookMerged] !== undefined && marks[MARKS.syncMerged] === undefined;
    const sent = byLook ? at(MARKS.lookSent) : at(MARKS.syncSent);
    const merged = byLook ? at(MARKS.lookMerged) : at(MARKS.syncMerged);
    const phases: LoadPhases = {
      drawnBy: byLook ? 'first look' : 'full sync',
      beforeRequestMs: Math.min(sent, at(MARKS.syncSent)),
      answerMs: merged - sent,
      renderMs: pageMs - merged,
      fullSyncMs: syncEndMs - at(MARKS.syncSent),
      fullSyncMergedAtMs: at(MARKS.syncMerged),
    };
    return { pageMs, wallMs, phases, chromiumCpuMs: chromiumCpu };
  } finally {
    await context.close();
  }
}
