// expect: TS2345 '"usa"' is not assignable to parameter of type 'CountryCode'
// The checkout's shippingOptions(country) takes the same codes as an address.
import type { Checkout } from "cirrus-storefront";
export const options = (checkout: Checkout) => checkout.shippingOptions("usa");
