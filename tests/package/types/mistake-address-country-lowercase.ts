// expect: TS2820 Type '"us"' is not assignable to type 'CountryCode'. Did you mean '"US"'?
// An address's country is an uppercase ISO 3166-1 alpha-2 code.
import type { ShippingAddress } from "cirrus-storefront";
export const address: ShippingAddress = { email: "a@b.c", firstName: "A", lastName: "B", address1: "1 Main St", city: "C", postalCode: "12345", country: "us" };
