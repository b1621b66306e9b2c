// Loopback figures for BENCHMARKS.md: navigation -> first product grid, and
// wasm instantiation (performance marks the page sets), over fresh browser
// contexts (empty HTTP cache). Prints the medians and writes artifacts/e2e/bench.json.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ARTIFACTS, SITE, launch, openPage } from './harness.mjs';

const RUNS = Number(process.env.E2E_BENCH_RUNS ?? 15);
let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; };

test(`first product grid and wasm instantiation, median of ${RUNS} cold loads`, async () => {
  const grid = [], wasm = [];
  for (let i = 0; i < RUNS; i++) {
    const { context, page } = await openPage(browser);
    try {
      await page.goto(SITE);
      await page.locator('#product-grid > li').first().waitFor();
      const m = await page.evaluate(() => ({
        grid: performance.getEntriesByName('cirrus:first-grid')[0]?.startTime,
        wasm: performance.getEntriesByName('cirrus:wasm-init')[0]?.duration,
      }));
      assert.ok(m.grid > 0 && m.wasm > 0, `marks present: ${JSON.stringify(m)}`);
      grid.push(m.grid); wasm.push(m.wasm);
    } finally {
      await context.close();
    }
  }
  const out = {
    runs: RUNS,
    firstGridMs: { median: +median(grid).toFixed(1), min: +Math.min(...grid).toFixed(1), max: +Math.max(...grid).toFixed(1) },
    wasmInitMs: { median: +median(wasm).toFixed(1), min: +Math.min(...wasm).toFixed(1), max: +Math.max(...wasm).toFixed(1) },
  };
  writeFileSync(join(ARTIFACTS, 'bench.json'), JSON.stringify(out, null, 2) + '\n');
  console.log(`e2e bench: navigation -> first product grid median ${out.firstGridMs.median} ms (min ${out.firstGridMs.min}, max ${out.firstGridMs.max}); ` +
    `wasm instantiation median ${out.wasmInitMs.median} ms (min ${out.wasmInitMs.min}, max ${out.wasmInitMs.max}); ${RUNS} cold loads`);
});
