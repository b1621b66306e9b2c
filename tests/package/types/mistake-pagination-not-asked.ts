// expect: TS2532 possibly 'undefined'
// No `pagination` without `includePagination: true`.
import type { CirrusClient } from "cirrus-storefront";
export const total = async (client: CirrusClient) => (await client.products({ limit: 5 })).pagination.total;
