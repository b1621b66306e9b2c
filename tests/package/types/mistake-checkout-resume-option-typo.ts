// expect: TS2561 'adaptor'
// Checkout.resume's options: `{ adapter, cart, storage, storageKey, items }`.
import { Checkout, type Cart, type CirrusClient, type ProcessorAdapter } from "cirrus-storefront";
export const resume = (client: CirrusClient, cart: Cart, adaptor: ProcessorAdapter) => Checkout.resume(client, { adaptor, cart });
