// expect: TS2339 'variants'
// A minimal product has no variants.
import type { CirrusClient } from "cirrus-storefront";
export const first = async (client: CirrusClient) => (await client.products({ minimal: true })).products[0].variants;
