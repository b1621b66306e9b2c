// expect: TS2769 limit is not an option of allProducts()
// allProducts() pages by `pageSize`; `limit` is products()'s.
import type { CirrusClient } from "cirrus-storefront";
export const all = (client: CirrusClient) => client.allProducts({ minimal: true, limit: 10 });
