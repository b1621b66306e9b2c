// expect: TS2769 'onstale' does not exist in type 'AbortSignal | CallOptions'
// The call options of a products() call with options of its own.
import type { CirrusClient } from "cirrus-storefront";
export const page = (client: CirrusClient) => client.products({ limit: 5 }, { onstale: () => {} });
