// expect: TS2322 '"USA"' is not assignable to type 'CountryCode'
// shippingRates() takes an ISO 3166-1 alpha-2 code ("US"), not alpha-3.
import type { CirrusClient } from "cirrus-storefront";
export const rates = (client: CirrusClient) => client.shippingRates({ variantIds: ["v1"], country: "USA" });
