// expect: TS2769 includePagniation is not an option of products()
// A misspelled `includePagination` beside a known option: the error names the typo (it used
// to surface only later as "'pagination' is possibly 'undefined'").
import type { CirrusClient } from "cirrus-storefront";
export const page = async (client: CirrusClient) => (await client.products({ minimal: true, includePagniation: true })).products;
