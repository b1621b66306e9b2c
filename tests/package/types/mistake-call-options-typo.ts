// expect: TS2353 'cach'
// The last argument of a call: `{ signal, cache, fetchOptions, onStale }`.
import { CacheShort, type CirrusClient } from "cirrus-storefront";
export const store = (client: CirrusClient) => client.store({ cach: CacheShort() });
