// Option pickers -> variant. Options are resolved in position order, the way
// shoppers read them: a value of option N is selectable when some in-stock
// variant has it together with the values chosen for options 1..N-1. So the
// pickers can never reach a combination that does not exist or is sold out,
// and the shopper can never get stuck (option 1 only depends on stock).
import type { Product, ProductOption, Variant } from 'cirrus-storefront';

export type Selection = Record<string, string>;

export interface ValueState {
  value: string;
  /** Some variant has this value with the earlier options' choices. */
  exists: boolean;
  /** …and it is in stock. */
  inStock: boolean;
}

export function sortedOptions(product: Product): ProductOption[] {
  return [...product.options].sort((a, b) => a.position - b.position);
}

export function inStock(v: Variant): boolean {
  return v.stockStatus === 'IN_STOCK' && v.stockQuantity > 0;
}

function matches(v: Variant, sel: Selection, names: string[]): boolean {
  return names.every((n) => v.attributes[n] === sel[n]);
}

/** The state of each value of each option, given the current selection. */
export function optionStates(product: Product, sel: Selection): Map<string, ValueState[]> {
  const opts = sortedOptions(product);
  const out = new Map<string, ValueState[]>();
  opts.forEach((opt, i) => {
    const before = opts.slice(0, i).map((o) => o.name);
    const candidates = product.variants.filter((v) => matches(v, sel, before));
    const values = [...opt.values].sort((a, b) => a.position - b.position);
    out.set(opt.name, values.map(({ value }) => {
      const withValue = candidates.filter((v) => v.attributes[opt.name] === value);
      return { value, exists: withValue.length > 0, inStock: withValue.some(inStock) };
    }));
  });
  return out;
}

/**
 * Make `sel` valid: keep each choice while it is selectable, otherwise take the
 * first selectable value of that option (or the first existing one when all
 * are sold out, so the page can still show the product as sold out).
 */
export function normalize(product: Product, sel: Selection): Selection {
  const next: Selection = { ...sel };
  for (const opt of sortedOptions(product)) {
    const states = optionStates(product, next).get(opt.name) ?? [];
    const current = states.find((s) => s.value === next[opt.name]);
    if (!current || !current.inStock) {
      const pick = states.find((s) => s.inStock) ?? (current?.exists ? current : states.find((s) => s.exists));
      if (pick) next[opt.name] = pick.value;
      else delete next[opt.name];
    }
  }
  return next;
}

/** The variant the selection resolves to, or null. */
export function resolveVariant(product: Product, sel: Selection): Variant | null {
  const names = sortedOptions(product).map((o) => o.name);
  if (names.length === 0) return product.variants[0] ?? null;
  return product.variants.find((v) => matches(v, sel, names)) ?? null;
}

/** The initial selection: the first in-stock variant's attributes (or the first variant's). */
export function initialSelection(product: Product): Selection {
  const v = product.variants.find(inStock) ?? product.variants[0];
  return normalize(product, v ? { ...v.attributes } : {});
}
