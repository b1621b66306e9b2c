// expect: TS2322 Property 'storageKey' does not exist
// The provider's prop for the cart's localStorage key is `cartKey`.
import type { ReactElement } from "react";
import { CirrusProvider } from "cirrus-storefront/react";
export const Shop = (): ReactElement => <CirrusProvider client={{ baseUrl: "https://shop.example/api/v1", apiKey: "ak_x" }} storageKey="shop.cart" />;
