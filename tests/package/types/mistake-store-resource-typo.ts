// expect: TS2353 'handle'
// A store resource names its `slug` (Shopify's `handle` is not one).
import { storePath, type Store } from "cirrus-storefront";
export const path = (store: Store) => storePath(store, { kind: "collection", handle: "summer" });
