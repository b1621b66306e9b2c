// Money on the page: every amount is integer minor units from the SDK's money
// helpers (exact, no floating point); formatting goes through the SDK's
// Intl.NumberFormat helper in the shopper's locale.
import { parseMoney, formatMoney, minorUnits } from 'cirrus-storefront';
import type { CurrencyCode, MinorUnits } from 'cirrus-storefront';

const locale = (): string => navigator.language || 'en-US';

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
