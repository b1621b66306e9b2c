// expect: TS2353 'returnUrl'
// `returnUrl` is pay()'s option, not Checkout.start's.
import { Checkout, type Cart, type CirrusClient, type ProcessorAdapter } from "cirrus-storefront";
export const start = (client: CirrusClient, cart: Cart, adapter: ProcessorAdapter) => Checkout.start(client, { cart, adapter, returnUrl: "https://shop.example/" });
