// Benchmark: pricing a 1,000-line cart in headless Chromium, median of 20.
//   node tests/cart/bench.mjs            (needs pkg/, see harness.mjs)
// The page is cross-origin isolated so performance.now() has 5 µs resolution
// (instead of 100 µs). Prints one line per measurement; exits non-zero when
// totals, re-pricing (setQuantity + totals) or add on the 1,000-line cart is over
// the 1 ms budget.
import { launch, openSdkPage, product, startStatic } from './harness.mjs';

const LINES = 1000;
const RUNS = 20;
const BUDGET_MS = 1;

const server = await startStatic();
const browser = await launch();
try {
  const context = await browser.newContext();
  const { page, errors } = await openSdkPage(context, server.origin);
  const catalog = Array.from({ length: LINES }, (_, i) => product(`p${i}`, [[`v${i}`, `${1 + (i % 97)}.${String(i % 100).padStart(2, '0')}`, i % 3 ? null : `${200 + i}.00`, 50]]));
  const extra = Array.from({ length: RUNS }, (_, i) => product(`x${i}`, [[`xv${i}`, '9.99', null, 50]]));
  const result = await page.evaluate(([catalog, extra, runs]) => {
    const { Cart, formatMoney } = window.sdk;
    const cart = new Cart('USD');
    let t = performance.now();
    for (const p of catalog) cart.add(p, p.variants[0].id, 1 + (p.id.length % 3));
    const build = performance.now() - t;
    const median = (f) => {
      const xs = [];
      for (let i = 0; i < runs; i++) {
        const t0 = performance.now();
        f(i);
        xs.push(performance.now() - t0);
      }
      xs.sort((a, b) => a - b);
      return (xs[runs / 2 - 1] + xs[runs / 2]) / 2;
    };
    const totals = cart.totals;
    return {
      isolated: crossOriginIsolated,
      lines: totals.lineCount,
      subtotal: totals.subtotal,
      build,
      totals: median(() => cart.totals),
      reprice: median((i) => { cart.setQuantity('v' + (i * 37 % catalog.length), 1 + (i % 5)); return cart.totals; }),
      lines_: median(() => cart.lines),
      render: median(() => cart.lines.map((l) => formatMoney(l.lineTotal, 'USD', 'en-US'))),
      // Last: each run adds a new line (1,000 → 1,020 lines) and merges into an existing one.
      add: median((i) => cart.add(extra[i], extra[i].variants[0].id, 1)),
      merge: median((i) => cart.add(catalog[i * 37 % catalog.length], catalog[i * 37 % catalog.length].variants[0].id, 1)),
    };
  }, [catalog, extra, RUNS]);
  if (errors.length) throw new Error(`page errors: ${errors.join('; ')}`);
  const ms = (x) => `${x.toFixed(3)} ms`;
  console.log(`cart bench: ${result.lines} lines, subtotal ${result.subtotal} minor units, timer ${result.isolated ? '5 µs (isolated)' : '100 µs (not isolated)'}`);
  console.log(`  totals (subtotal, savings, counts)        median of ${RUNS}: ${ms(result.totals)}`);
  console.log(`  re-price: setQuantity + totals             median of ${RUNS}: ${ms(result.reprice)}`);
  console.log(`  lines (all 1000 line objects to JS)        median of ${RUNS}: ${ms(result.lines_)}`);
  console.log(`  lines + formatMoney of every line total    median of ${RUNS}: ${ms(result.render)}`);
  console.log(`  add a new line (product object in)          median of ${RUNS}: ${ms(result.add)}`);
  console.log(`  add merging into a line                    median of ${RUNS}: ${ms(result.merge)}`);
  console.log(`  building the cart (1000 adds)              once: ${ms(result.build)}`);
  if (result.lines !== LINES) throw new Error(`expected ${LINES} lines, got ${result.lines}`);
  if (!(result.reprice < BUDGET_MS && result.totals < BUDGET_MS && result.add < BUDGET_MS && result.merge < BUDGET_MS)) {
    console.error(`over budget: pricing must take < ${BUDGET_MS} ms`);
    process.exitCode = 1;
  }
} finally {
  await browser.close();
  await server.close();
}
