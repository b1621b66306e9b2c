// `cirrus-storefront/picker`: a product's option picker for any framework, over the SDK's
// `productOptions` (src/storefront/variants.rs decides every rule). It starts from the matrix
// the server computed with the same SDK (`productOptions(product, defaultSelection(product))`),
// so the first render needs no wasm; the root entry is loaded on the first `select` (or
// `preload()`, which `mount()` calls for a component showing it). `useProductOptions`
// (cirrus-storefront/react) is its React binding.
import type { OptionMatrix, OptionSelection, Product } from "./cirrus_storefront.js";
import { asCirrusError, type CirrusError } from "./error.js";
import { loadSdk, loadSdkWhenIdle, sdkIfLoaded } from "./lazy-sdk.js";

export type { OptionMatrix, OptionSelection };

/** What a picker shows now (a new object after every change: a store snapshot). */
export interface PickerState {
  /** The selected value of each option chosen so far. */
  selection: OptionSelection;
  /** `productOptions(product, selection)`; `null` until computed (no server result, SDK not loaded yet, or a bad selection: `error`). */
  matrix: OptionMatrix | null;
  /** The variant the selection names (every option chosen), else `null`. */
  selectedVariant: OptionMatrix["selectedVariant"];
  /** `true` while the SDK is loading for a selection the matrix does not show yet. */
  pending: boolean;
  /** Why the last selection could not be computed (an option or value the product does not have, the SDK failing to load), else `null`. */
  error: CirrusError | null;
}

/** A server result (`OptionMatrix`), or a selection to start from. */
export type PickerInitial = OptionMatrix | OptionSelection | null | undefined;

const isMatrix = (x: PickerInitial): x is OptionMatrix => !!x && Array.isArray((x as OptionMatrix).options);

/** The selection and option matrix of one product, computed by the SDK's `productOptions`. */
export class ProductPicker {
  /** The product this picker chooses a variant of. */
  readonly product: Product;
  private current: PickerState;
  /** The last state the SDK computed (or the server's), which a refused selection keeps. */
  private valid: PickerState;
  private listeners = new Set<() => void>();
  private asked = 0;

  /**
   * `initial`: the server's `productOptions` result for this product (used as is: no wasm
   * needed to show it), or a selection (computed now if the SDK is loaded, else on `preload()`
   * or the first `select`).
   */
  constructor(product: Product, initial?: PickerInitial) {
    this.product = product;
    const selection = isMatrix(initial) ? { ...(initial.selection ?? {}) } : { ...(initial ?? {}) };
    this.current = { selection, matrix: isMatrix(initial) ? initial : null, selectedVariant: isMatrix(initial) ? initial.selectedVariant : null, pending: false, error: null };
    this.valid = isMatrix(initial) ? this.current : { ...this.current, selection: {} };
    const sdk = sdkIfLoaded();
    if (!isMatrix(initial) && sdk) this.current = this.compute(sdk, selection);
  }

  /** The current selection, matrix and selected variant (a new object after each change). */
  get state(): PickerState {
    return this.current;
  }

  /** Calls `listener` after every change of `state`; returns the function that stops it. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Chooses `value` for the option `name`; resolves once the matrix shows it (`state.error` says why it could not). */
  select(name: string, value: string): Promise<void> {
    return this.show({ ...this.current.selection, [name]: value });
  }

  /** Loads the SDK (and computes a matrix not given by the server) without a selection. */
  preload(): Promise<void> {
    return this.current.matrix ? loadSdk().then(() => {}, () => {}) : this.show(this.current.selection);
  }

  /**
   * For the component that shows the picker, once mounted in the browser: computes the matrix
   * the server did not give (`preload()`) and loads the SDK once the page is idle, so the first
   * choice and "Add to cart" wait for no download. Returns the function that cancels the idle
   * load (call it on unmount).
   */
  mount(): () => void {
    if (this.current.matrix === null) void this.preload();
    return loadSdkWhenIdle();
  }

  private show(selection: OptionSelection): Promise<void> {
    const ask = ++this.asked;
    const sdk = sdkIfLoaded();
    if (sdk) {
      this.set(this.compute(sdk, selection));
      return Promise.resolve();
    }
    this.set({ ...this.current, selection, pending: true });
    return loadSdk().then(
      (m) => void (ask === this.asked && this.set(this.compute(m, selection))),
      (e: unknown) => void (ask === this.asked && this.set({ ...this.valid, pending: false, error: asCirrusError(e) })),
    );
  }

  /** The state for `selection`, from the SDK (its refusal is `error`, never thrown). */
  private compute(sdk: { productOptions(p: Product, s: OptionSelection): OptionMatrix }, selection: OptionSelection): PickerState {
    try {
      const matrix = sdk.productOptions(this.product, selection);
      return (this.valid = { selection, matrix, selectedVariant: matrix.selectedVariant, pending: false, error: null });
    } catch (e) {
      return { ...this.valid, pending: false, error: asCirrusError(e) };
    }
  }

  private set(next: PickerState): void {
    this.current = next;
    for (const l of [...this.listeners]) l();
  }
}
