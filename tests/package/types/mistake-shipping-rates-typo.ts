// expect: TS2561 'variantId'
// shippingRates() takes `{ variantIds, country, orderTotal }`.
import type { CirrusClient } from "cirrus-storefront";
export const rates = (client: CirrusClient) => client.shippingRates({ variantId: "v1", country: "US" });
