// expect: TS2353 'timeout' does not exist in type 'CirrusClient | ClientOptions'
// CirrusProvider's `client` takes a client or its options (`timeoutMs`).
import type { ReactElement } from "react";
import { CirrusProvider } from "cirrus-storefront/react";
export const Shop = (): ReactElement => <CirrusProvider client={{ baseUrl: "https://shop.example/api/v1", apiKey: "ak_x", timeout: 5000 }} />;
