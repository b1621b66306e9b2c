// The storefront helpers through the catalog-only entry, cirrus-storefront/client, in node
// (run by scripts/test.d/40-pkg.sh from the throwaway project; the root entry runs the same
// checks inside smoke.mjs).
import * as lib from "cirrus-storefront/client";
import { storefrontChecks } from "./storefront-checks.mjs";

await lib.init();
const client = new lib.CirrusClient({ baseUrl: process.env.CIRRUS_BASE_URL, apiKey: process.env.CIRRUS_API_KEY });
const passed = [];
await storefrontChecks(lib, client, (name, ok, detail = "") => {
  if (!ok) throw new Error(`FAILED: ${name} ${detail}`);
  passed.push(name);
});
console.log(`cirrus-storefront/client: storefront helpers, ${passed.length} checks passed`);
