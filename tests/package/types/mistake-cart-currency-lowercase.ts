// expect: TS2345 '"usd"' is not assignable to parameter of type 'CurrencyCode'
// A currency is an ISO 4217 code in uppercase (`CurrencyCode`, generated from the SDK's table).
import { Cart } from "cirrus-storefront";
export const cart = () => new Cart("usd");
