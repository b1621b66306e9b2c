// The server's side of the SDK: one client per server process (shared by every request; it
import { notFound } from "next/navigation";
// holds no buyer's state), made on first use so `next build` needs no settings, and the
// settings the browser islands get. Imported by server components only.
import { CacheLong, CacheShort, CirrusClient, formatMoney, init, parseMoney, type CallOptions, type Store } from "cirrus-storefront";

/** The setting `name` from the environment, or an error that says where to set it. */
function setting(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run ./dev.sh, or set it in .env.local (see README.md)`);
  return value;
}

let client: Promise<CirrusClient> | undefined;
/** The one client of this process; catalog answers are cached with CacheShort (fresh 1 s, then stale-while-revalidate 9 s). */
export function cirrus(): Promise<CirrusClient> {
  return (client ??= init().then(() => new CirrusClient({ baseUrl: setting("CIRRUS_BASE_URL"), apiKey: setting("CIRRUS_API_KEY"), cache: CacheShort() })));
}

/** The store settings change rarely: an hour fresh, a day stale-while-revalidate. */
export const LONG: CallOptions = { cache: CacheLong() };

export async function store(): Promise<Store> {
  return (await cirrus()).store(LONG);
}

/** The API's origin, for the store's relative image URLs (`/static/…`). */
export function assetUrl(url: string): string {
  return new URL(url, setting("CIRRUS_BASE_URL")).href;
}

/** What the browser islands need: the API and its public storefront key (public by design: it reads the catalog and starts payments, nothing else), and the payment processor. */
export interface BrowserSettings {
  baseUrl: string;
  apiKey: string;
  /** localstripe's URL in development (LocalstripeAdapter), `null` for Stripe (StripeAdapter). */
  localstripeUrl: string | null;
}

export function browserSettings(): BrowserSettings {
  return { baseUrl: setting("CIRRUS_BASE_URL"), apiKey: setting("CIRRUS_API_KEY"), localstripeUrl: process.env.CIRRUS_LOCALSTRIPE_URL || null };
}

/** Formats the API's decimal prices in the store's currency (exact: parseMoney, then formatMoney). */
export async function priceFormat(): Promise<(decimal: string) => string> {
  const { defaultCurrency } = await store();
  return (decimal) => formatMoney(parseMoney(decimal, defaultCurrency), defaultCurrency, "en-US");
}

/** `f()`, or Next's 404 page when the API answers `not_found` (an unknown slug). */
export async function orNotFound<T>(f: () => Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (e) {
    if ((e as { code?: string }).code === "not_found") notFound();
    throw e;
  }
}
