// The README's cache example ("Cache strategies"), run by stage 45-react against the dev server.
// (CIRRUS_BASE_URL, CIRRUS_API_KEY from the environment.)
import { init, CirrusClient, CacheShort, CacheLong } from "cirrus-storefront/client";

await init();
// Fresh for 1 s, then answered at once while one request refreshes it (for 9 s more).
const client = new CirrusClient({ baseUrl: process.env.CIRRUS_BASE_URL, apiKey: process.env.CIRRUS_API_KEY, cache: CacheShort() });
const first = await client.products({ limit: 12, minimal: true });
console.log(`from the cache: ${first === (await client.products({ limit: 12, minimal: true }))}`); // true

// Per call: the store settings for an hour (23 h more while revalidating).
const store = await client.store({ cache: CacheLong() });
console.log(`store: ${store.name}`);

// No cache for this call; a framework's own data cache gets its options through fetchOptions.
const fresh = await client.products({ limit: 12, minimal: true }, { cache: "no-store", fetchOptions: { next: { revalidate: 60, tags: ["products"] } } });
console.log(`no-store: a new answer: ${fresh !== first}`); // true

// Stale-if-error: while the API cannot be reached, the last answer (and the call is told).
let offline = false;
const resilient = new CirrusClient({
  baseUrl: process.env.CIRRUS_BASE_URL,
  apiKey: process.env.CIRRUS_API_KEY,
  cache: { maxAgeMs: 100, staleIfErrorMs: 86_400_000 },
  fetch: (request, init) => (offline ? Promise.reject(new TypeError("offline")) : fetch(request, init)),
});
const pages = await resilient.pages();
await new Promise((r) => setTimeout(r, 150));
offline = true;
const onStale = ({ reason, error }) => console.log(`stale answer: ${reason} (${error.code})`); // "stale answer: error (network)"
console.log(`the same pages: ${pages === (await resilient.pages({ onStale }))}`); // true
