// expect: TS2345 'number' is not assignable to parameter of type 'MinorUnits'
// 5.99 dollars added to a subtotal in cents: addMoney takes minor units on both sides.
import { addMoney, type Cart } from "cirrus-storefront";
export const total = (cart: Cart) => addMoney(cart.totals.subtotal, 5.99);
