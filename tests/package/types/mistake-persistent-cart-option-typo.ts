// expect: TS2561 'keys'
// Cart.persistent's options: `{ key, storage, onChange }`.
import { Cart } from "cirrus-storefront";
export const cart = () => Cart.persistent("USD", { keys: "shop.cart" });
