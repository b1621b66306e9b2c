// expect: TS2561 'timeout'
// The client option is `timeoutMs`.
import { CirrusClient } from "cirrus-storefront";
export const client = new CirrusClient({ baseUrl: "https://shop.example/api/v1", apiKey: "ak_x", timeout: 5000 });
