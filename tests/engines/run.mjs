// Stage 75-engines' runner: in each engine (tests/engines/engines.mjs) the demo's buyer flow
// (flow.mjs), then a checkout under the README's Content-Security-Policy (csp.mjs). Prints, per
// engine and version, each step passed or why it failed, and what the page showed (the
// browser's language, a grid price); exits 1 on any failed step, page error or CSP violation.
//   node tests/engines/run.mjs [engine...]   (default: every engine)
// Needs the stage's environment: E2E_SITE, CIRRUS_API_KEY, LOCALSTRIPE_URL, ENGINES_PORT
// (the first of the ports for the drivers and the CSP page), ENGINES_PKG_DIR.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ARTIFACTS, API } from '../e2e/harness.mjs';
import { ENGINES, open } from './engines.mjs';
import { Flow, flowProducts, steps } from './flow.mjs';
import { cspCheckout, readmePolicy, serveCspPage } from './csp.mjs';

const want = process.argv.slice(2);
for (const w of want) if (!ENGINES.includes(w)) throw new Error(`unknown engine ${w} (one of ${ENGINES.join(', ')})`);
const engines = want.length ? want : ENGINES;
const basePort = Number(process.env.ENGINES_PORT ?? 18810);
const pkgDir = process.env.ENGINES_PKG_DIR;
if (!pkgDir) throw new Error('ENGINES_PKG_DIR is not set (run through scripts/test.d/75-engines.sh)');
const shots = ARTIFACTS;
mkdirSync(shots, { recursive: true });

const policy = readmePolicy(new URL(API).origin, new URL(process.env.LOCALSTRIPE_URL).origin);
const page = await serveCspPage({ port: basePort, pkgDir, policy });
console.log(`CSP page ${page.origin} with the README's policy:\n  ${policy}`);
const products = await flowProducts();

const results = [];
for (const [i, name] of engines.entries()) {
  const t0 = Date.now();
  const row = { name, label: name, steps: [], failed: null, seen: {} };
  results.push(row);
  let engine;
  try {
    engine = await open(name, basePort + 1 + i);
    row.label = engine.label;
    const flow = new Flow(engine.session);
    const all = [...steps(products), ['checkout under the README\'s CSP', async (f) => { f.seen.cspTotal = await cspCheckout(f, page.origin); }]];
    for (const [step, fn] of all) {
      const s0 = Date.now();
      try {
        await fn(flow);
        await flow.collect();
        if (flow.problems.length) throw new Error(`page errors or CSP violations: ${flow.problems.join(' | ')}`);
        row.steps.push(`${step} (${((Date.now() - s0) / 1000).toFixed(1)} s)`);
      } catch (e) {
        row.failed = `${step}: ${e.message}`;
        try { writeFileSync(join(shots, `failure-${name}.png`), await engine.session.screenshot()); } catch { /* no screenshot */ }
        break;
      }
    }
    row.seen = flow.seen;
  } catch (e) {
    row.failed ??= `starting ${name}: ${e.message}`;
  } finally {
    await engine?.close();
  }
  row.seconds = ((Date.now() - t0) / 1000).toFixed(1);
  console.log(`\n${row.failed ? 'FAIL' : 'ok  '} ${row.label} in ${row.seconds} s`);
  for (const s of row.steps) console.log(`  ✓ ${s}`);
  if (row.failed) console.log(`  ✗ ${row.failed}`);
  if (row.seen.language !== undefined) {
    console.log(`  page: navigator.language ${JSON.stringify(row.seen.language)}, grid price "${row.seen.gridPrice}", cart line "${row.seen.cartLine}", checkout total "${row.seen.checkoutTotal}", decline "${row.seen.decline}", CSP page total "${row.seen.cspTotal}"`);
  }
}
await page.close();

console.log('\nengines:');
for (const r of results) console.log(`  ${r.failed ? 'FAIL' : 'ok  '} ${r.label}: ${r.steps.length} step(s) passed${r.failed ? `, failed at ${r.failed.split(':')[0]}` : ''} (${r.seconds} s)`);
process.exitCode = results.some((r) => r.failed) ? 1 : 0;
