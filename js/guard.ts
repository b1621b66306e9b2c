// Guards for the wasm exports of the other areas (Cart, Checkout, money
// helpers): before init() they throw a CirrusError (`invalid_state`) instead of
// a TypeError from deep inside the wasm-bindgen glue.
import { assertReady } from "./ready.js";

/**
 * The class itself behind a Proxy: `new`, and every static method, first check
 * `init()`. `instanceof` and the prototype are untouched, so instances made by
 * the wasm (e.g. `Cart.persistent()`) are still instances of the export.
 */
export function guardClass<C extends object>(cls: C): C {
  const wrapped = new Map<PropertyKey, unknown>();
  return new Proxy(cls, {
    construct(target, args, newTarget) {
      assertReady();
      return Reflect.construct(target as unknown as new (...a: unknown[]) => object, args, newTarget) as object;
    },
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      // Symbols (`Symbol.hasInstance`: `instanceof`) are not calls of the API.
      if (typeof value !== "function" || typeof key === "symbol" || key === "prototype" || !Object.prototype.hasOwnProperty.call(target, key)) {
        return value;
      }
      let w = wrapped.get(key);
      if (w === undefined) {
        w = (...args: unknown[]): unknown => {
          assertReady();
          return Reflect.apply(value, target, args);
        };
        wrapped.set(key, w);
      }
      return w;
    },
  });
}

/**
 * `f`, checking `init()` first. Typed as `f` itself (`typeof f`), so the declaration of a
 * guarded export points at the wasm function and its doc comment reaches the API reference
 * (a `@function` tag on the export tells TypeDoc to list it as one).
 */
export function guardFn<F extends (...args: never[]) => unknown>(f: F): F {
  const call = f as unknown as (...args: unknown[]) => unknown;
  return ((...args: unknown[]): unknown => {
    assertReady();
    return call(...args);
  }) as unknown as F;
}
