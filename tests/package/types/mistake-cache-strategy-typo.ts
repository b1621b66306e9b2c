// expect: TS2561 'maxAgeMS'
// A cache strategy is `{ maxAgeMs, staleWhileRevalidateMs, staleIfErrorMs }`.
import type { CirrusClient } from "cirrus-storefront";
export const store = (client: CirrusClient) => client.productBySlug("x", { cache: { maxAgeMS: 1000 } });
