// Type-level test of the cart/money surface as a TypeScript user sees it:
// compiled with `tsc --strict --noEmit` against the built package (stage
// 50-cart). The `@ts-expect-error` lines must NOT compile.
import { Cart, addMoney, formatMoney, minorUnits, moneyToDecimal, parseMoney } from "../../pkg/index.js";
import type { CartChange, CartLine, CartSummary, CartTotals, MinorUnits, RefreshReport, RestoreProblem, ShippingOption, ShippingRatesResponse } from "../../pkg/index.js";

declare const product: Parameters<Cart["add"]>[0];
declare const answer: ShippingRatesResponse;

const cart = new Cart("USD");
cart.add(product, "v1", 2);
cart.setQuantity("v1", 3);
const removed: boolean = cart.remove("v1");
const lines: CartLine[] = cart.lines;
const subtotal: number = cart.subtotal;
const totals: CartTotals = cart.totals;
const compareAt: number | null = lines[0]!.compareAtPrice;
// @ts-expect-error compareAtPrice is nullable
const notNull: number = lines[0]!.compareAtPrice;
// @ts-expect-error an image may be null
const url: string = lines[0]!.image.url;

const report: RefreshReport = cart.refresh([product]);
for (const change of report.changes) {
  if (change.kind === "priceChanged") {
    const now: number = change.newUnitPrice;
    const was: number | null = change.oldCompareAtPrice;
  } else if (change.kind === "stockLowered") {
    const q: number = change.newQuantity;
    // @ts-expect-error a stock change has no prices
    const p = change.newUnitPrice;
  } else {
    const gone: number = change.removedQuantity;
  }
}
// @ts-expect-error not a kind of change
const kind: CartChange["kind"] = "priceDropped";

const options: ShippingOption[] = cart.shippingOptions(answer);
const total: number = options[0]!.estimatedTotal;
const rateId: string = options[0]!.rate.id;
const items: { variantId: string; quantity: number }[] = cart.paymentItems();

const minor = parseMoney("19.99", "USD");
const asNumber: number = minor; // minor units read as a plain number
const text: string = formatMoney(addMoney(minor, minorUnits(1)), "USD", "en-US");
const exact: string = moneyToDecimal(minor, "USD");
// @ts-expect-error amounts are minor-unit numbers, not decimal strings
formatMoney("19.99", "USD");
// @ts-expect-error a plain number is not minor units until minorUnits() says so
formatMoney(asNumber, "USD");
// @ts-expect-error a currency is a CurrencyCode (uppercase ISO 4217)
new Cart("usd");

const restored = Cart.restore(localStorage.getItem("k"), "USD");
const restoredCart: Cart = restored.cart;
const problem: RestoreProblem | null = restored.problem;
const persistent = Cart.persistent("USD", {
  key: "shop.cart",
  onChange: (event) => {
    const source: "change" | "storage" = event.source;
    const why: string | undefined = event.problem?.message;
    const version: number = event.version;
    // @ts-expect-error a save is not a source of its own: a failed one is a "change" with a problem
    const saved: typeof event.source = "save";
    void [source, why, version, saved];
  },
});
const version: number = persistent.version;
const summary: CartSummary = persistent.summary;
const summaryItems: number = summary.itemCount;
const summarySubtotal: MinorUnits = summary.subtotal;
// @ts-expect-error unknown option
Cart.persistent("USD", { keys: "x" });
const saved: string = persistent.serialize();
persistent.free();

export { removed, subtotal, totals, compareAt, notNull, url, kind, total, rateId, items, text, exact, restoredCart, problem, saved, version, summaryItems, summarySubtotal };
