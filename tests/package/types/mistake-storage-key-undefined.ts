// expect: TS18047 'cart.storageKey'
// A cart that is not persistent has `storageKey === null`, never `undefined`: this check lets
// `null` through.
import type { Cart } from "cirrus-storefront";
export const keyLength = (cart: Cart): number => (cart.storageKey !== undefined ? cart.storageKey.length : 0);
