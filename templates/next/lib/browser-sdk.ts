// The SDK in the browser, loaded when the buyer acts (or, on the product page, right after
// hydration so the first "Add to cart" is quick): `import("cirrus-storefront")` is a chunk of
// its own, and its .wasm a file Next emits. Pages that only show the cart count never load it.
import type { Cart, CurrencyCode } from "cirrus-storefront";
import { CART_KEY } from "./cart-summary";

type Sdk = typeof import("cirrus-storefront");
let sdk: Promise<Sdk> | undefined;
/** The package, initialised (once per page). */
export function loadSdk(): Promise<Sdk> {
  return (sdk ??= import("cirrus-storefront").then(async (m) => {
    await m.init();
    return m;
  }));
}

let cart: Promise<Cart> | undefined;
/** The persistent cart (localStorage, follows other tabs), once per page. */
export function persistentCart(currency: CurrencyCode): Promise<Cart> {
  return (cart ??= loadSdk().then((m) => m.Cart.persistent(currency, { key: CART_KEY })));
}
