// expect: TS2345 'slug'
// A product resource needs its slug.
import { storePath, type Store } from "cirrus-storefront";
export const path = (store: Store) => storePath(store, { kind: "product" });
