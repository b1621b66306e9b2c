// For scripts/bench-lighthouse.sh: puts one item in the demo's cart (through the page, as a
// shopper would) in a Chromium profile that Lighthouse then opens the checkout with.
// node scripts/lighthouse-cart.mjs SITE_PREFIX PRODUCT_SLUG PROFILE_DIR  (its first variant in stock is preselected)
import { chromium } from 'playwright-core';
import { CHROMIUM_FLAGS } from '../tests/e2e/flags.mjs';

const [prefix, slug, profile] = process.argv.slice(2);
const ctx = await chromium.launchPersistentContext(profile, { executablePath: '/usr/bin/chromium', args: CHROMIUM_FLAGS });
try {
  const page = ctx.pages()[0] ?? await ctx.newPage();
  await page.goto(`${prefix}/products/${encodeURIComponent(slug)}`);
  await page.locator('#add-to-cart:not([disabled])').click({ timeout: 30_000 });
  await page.locator('#cart-drawer:not([hidden])').waitFor({ timeout: 30_000 });
} finally {
  await ctx.close();
}
