// expect: TS2322 'number' is not assignable to type 'string'
// expect: TS2353 'fallback'
// preferredLocale takes locale strings (the candidates), not a number among them or an options object.
import { preferredLocale } from "cirrus-storefront";
export const a = () => preferredLocale(["de-DE", 5]);
export const b = () => preferredLocale({ fallback: "en-US" });
