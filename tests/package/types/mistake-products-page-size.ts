// expect: TS2769 pageSize is not an option of products()
// `pageSize` is allProducts's; products() takes `limit`. (Issue #27: compiled, the generic
// options type dropped the excess-property check as soon as one known option was present.)
import type { CirrusClient } from "cirrus-storefront";
export const page = (client: CirrusClient) => client.products({ pageSize: 12, minimal: true });
