// expect: TS2561 'returnURL'
// pay() takes `{ returnUrl }`.
import type { Checkout } from "cirrus-storefront";
export const pay = (checkout: Checkout) => checkout.pay({ returnURL: "https://shop.example/" });
