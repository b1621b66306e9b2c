// Main-thread CPU of a page's cold load, read from a Chromium trace: the thread time (`tdur`)
// of the renderer main thread's tasks, unthrottled, from navigation until 3 s after the load
// event. Lighthouse's simulated TBT is built from the same tasks'
// wall-clock durations (times its 4x CPU factor), which grow with whatever else the machine
// runs; thread time grows far less, so two builds measured here compare on a loaded machine.
//   node scripts/bench-cpu.mjs RUNS URL...
// Prints, per URL, the median (min–max) of: main-thread CPU ms; a blocking estimate (the sum,
// over tasks of 12.5 ms CPU or more, of 4 × CPU − 50 ms: TBT's rule on Lighthouse's 4x CPU,
// counting every task of the load, not only those between FCP and TTI); and how many wasm
// functions V8 compiled lazily on the main thread (`wasm.CompileLazy`: V8 compiles a wasm
// function on its first call) with their compile time.
import { chromium } from 'playwright-core';
import { CHROMIUM_FLAGS } from '../tests/e2e/flags.mjs';

const [runsArg, ...urls] = process.argv.slice(2);
const runs = Number(runsArg);
if (!Number.isInteger(runs) || runs < 1 || urls.length === 0) {
  console.error('usage: node scripts/bench-cpu.mjs RUNS URL...');
  process.exit(2);
}

const CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'toplevel', 'v8.wasm'];
const TASKS = new Set(['RunTask', 'ThreadControllerImpl::RunTask']);

/** One cold load of `url` in a fresh context: [main-thread CPU ms, blocking estimate ms, lazy wasm functions, their compile ms]. */
async function measure(browser, url) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await browser.startTracing(page, { categories: CATEGORIES });
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForTimeout(3000);
  const events = JSON.parse((await browser.stopTracing()).toString()).traceEvents;
  await context.close();
  // The page's main thread: the renderer's CrRendererMain that parsed the page's HTML.
  const parsed = new Set(events.filter((e) => e.name === 'ParseHTML').map((e) => e.pid));
  const thread = events.find((e) => e.name === 'thread_name' && e.args.name === 'CrRendererMain' && parsed.has(e.pid));
  if (!thread) throw new Error(`no renderer main thread in the trace of ${url}`);
  const mine = events.filter((e) => e.pid === thread.pid && e.tid === thread.tid && e.ph === 'X');
  // Top-level tasks only (a task nested in another is part of it).
  const tasks = mine.filter((e) => TASKS.has(e.name)).sort((a, b) => a.ts - b.ts);
  let cpu = 0, blocking = 0, end = -Infinity;
  for (const t of tasks) {
    if (t.ts < end) continue;
    end = t.ts + t.dur;
    const ms = (t.tdur ?? t.dur) / 1000;
    cpu += ms;
    if (ms >= 12.5) blocking += 4 * ms - 50;
  }
  const lazy = mine.filter((e) => e.name === 'wasm.CompileLazy');
  return [cpu, blocking, lazy.length, lazy.reduce((a, e) => a + (e.tdur ?? e.dur ?? 0), 0) / 1000];
}

const median = (xs) => [...xs].sort((a, b) => a - b)[(xs.length - 1) >> 1];
const show = (xs) => `${Math.round(median(xs))} (${Math.round(Math.min(...xs))}–${Math.round(Math.max(...xs))})`;

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_FLAGS });
try {
  console.log(`| page | main-thread CPU, ms | blocking estimate, ms | lazily compiled wasm functions | their compile, ms |`);
  console.log('|---|---|---|---|---|');
  for (const url of urls) {
    const rows = [];
    for (let i = 0; i < runs; i++) rows.push(await measure(browser, url));
    const col = (k) => rows.map((r) => r[k]);
    console.log(`| ${new URL(url).pathname} | ${show(col(0))} | ${show(col(1))} | ${show(col(2))} | ${show(col(3))} |`);
  }
  console.log(`median (min–max) of ${runs} cold load(s) each, unthrottled; load average ${(await import('node:os')).loadavg().map((x) => x.toFixed(2)).join(' ')}`);
} finally {
  await browser.close();
}
