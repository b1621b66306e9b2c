// Money on the page: every amount is integer minor units from the SDK's money
// helpers (exact, no floating point); formatting goes through the SDK's
// Intl.NumberFormat helper in the shopper's locale: the first of the browser's languages
// the runtime supports (the SDK's preferredLocale: a browser under a C locale says
// navigator.language === "C", which Intl refuses), else en-US.
import { parseMoney, formatMoney, minorUnits, preferredLocale } from 'cirrus-storefront';
import type { CurrencyCode, MinorUnits } from 'cirrus-storefront';

let chosen: string | undefined;
/** Picked once, on the first amount shown (after init()). */
const locale = (): string => (chosen ??= preferredLocale());

/** Minor units -> "$19.99" (in the browser's locale). */
export function fmt(minor: MinorUnits, currency: CurrencyCode): string {
  return formatMoney(minor, currency, locale());
}

/** A decimal price string from the API -> "$19.99". Unparseable prices show as they are. */
export function formatPrice(decimal: string, currency: CurrencyCode): string {
  try {
    return fmt(parseMoney(decimal, currency), currency);
  } catch {
    return decimal;
  }
}

/** "You save" text when compare-at is above price, else null. */
export function savingsText(price: string, compareAt: string, currency: CurrencyCode): string | null {
  try {
    const diff = parseMoney(compareAt, currency) - parseMoney(price, currency);
    return diff > 0 ? fmt(minorUnits(diff), currency) : null;
  } catch {
    return null;
  }
}
