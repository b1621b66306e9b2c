// Error states: the API answering errors (fault hook) and the server stopped
// while the page is open, each with a working "Try again".
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ROOT, SITE, launch, openPage, shot, testHook } from './harness.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

test('the store failing to load shows an error and recovers with Try again', async () => {
  // more failures than the client's retries, so the page sees the error
  await testHook('/__test/faults', { method: 'POST', body: JSON.stringify({ method: 'GET', path: '/api/v1/store', kind: 'status', status: 503, times: 50, retryAfter: 1, delayMs: 0 }) });
  const { context, page } = await openPage(browser);
  try {
    await page.goto(SITE);
    const alert = page.getByRole('alert');
    await alert.waitFor({ timeout: 30_000 });
    assert.match(await alert.textContent(), /try again/i);
    await testHook('/__test/faults', { method: 'DELETE' });
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.locator('#product-grid > li').first().waitFor();
    assert.equal(await page.getByRole('alert').count(), 0);
  } finally {
    await testHook('/__test/faults', { method: 'DELETE' }).catch(() => {});
    await context.close();
  }
});

// A server of our own (same binary, same page) so stopping it cannot disturb other tests.
const PORT = Number(process.env.E2E_SPARE_PORT ?? 18798);
function startServer() {
  const child = spawn(join(ROOT, 'target', 'server', 'cirrus-dev-server'), ['--test-hooks'], {
    env: { ...process.env, CIRRUS_ADDR: `127.0.0.1:${PORT}`, CIRRUS_DB: ':memory:', CIRRUS_WWW_DIR: process.env.E2E_WWW_DIR, STRIPE_API_BASE: process.env.LOCALSTRIPE_URL },
    stdio: 'ignore',
  });
  return child;
}
async function waitUp(url, up = true) {
  for (let i = 0; i < 300; i++) {
    const ok = await fetch(url).then(() => true, () => false);
    if (ok === up) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not ${up ? 'start' : 'stop'}`);
}

test('the server stopped while browsing: a clear message, and Try again works once it is back', async () => {
  const site = `http://127.0.0.1:${PORT}/`;
  let server = startServer();
  await waitUp(`${site}api/v1/store`);
  const { context, page } = await openPage(browser, { width: 390, height: 844 });
  try {
    await page.goto(site);
    await page.locator('#product-grid > li').first().waitFor();
    // A product: its view always asks the server (collections come with the shell).
    const target = page.locator('#product-grid > li a').first();
    const name = (await target.locator('h2').textContent()).trim();
    server.kill('SIGTERM');
    await waitUp(`${site}api/v1/store`, false);
    await target.click();
    const alert = page.getByRole('alert');
    await alert.waitFor({ timeout: 30_000 });
    assert.match(await alert.textContent(), /can’t reach the store/i);
    await shot(page, 'server-down-390');
    server = startServer();
    await waitUp(`${site}api/v1/store`);
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.locator('h1', { hasText: name }).waitFor();
    assert.equal(await page.getByRole('alert').count(), 0);
  } finally {
    await context.close();
    server.kill('SIGTERM');
  }
});
