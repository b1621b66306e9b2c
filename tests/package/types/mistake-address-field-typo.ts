// expect: TS2353 'zip'
// A shipping address has `postalCode`.
import type { Checkout } from "cirrus-storefront";
export const choose = (checkout: Checkout, rateId: string) =>
  checkout.selectShipping(rateId, { email: "a@b.c", firstName: "A", lastName: "B", address1: "1 Main St", city: "C", zip: "12345", country: "US" });
