// The README's quickstart, run as-is by scripts/test.d/40-pkg.sh against a dev server
// (CIRRUS_BASE_URL and CIRRUS_API_KEY come from the environment).
import { init, CirrusClient } from "cirrus-storefront";

await init(); // loads the WebAssembly, once
const client = new CirrusClient({ baseUrl: process.env.CIRRUS_BASE_URL, apiKey: process.env.CIRRUS_API_KEY });
const { products } = await client.products({ limit: 5, minimal: true });
for (const p of products) console.log(`${p.name}: ${p.price}`);
