// @ts-check
/**
 * The processor-adapter interface: how `Checkout` talks to a payment
 * processor's browser library without ever touching card data.
 *
 * `Checkout` drives the adapter; applications only construct one and pass it
 * in. The calls, in order:
 *
 * 1. `mount(session)` once a payment session exists (after `initiate`, and
 *    again after `Checkout.resume()` on a fresh page). Shows the processor's
 *    own payment form (an iframe or the processor's inputs) in the
 *    container the adapter was constructed with.
 * 2. `updateAmount(amount, currency)` whenever the session total changes
 *    (a shipping choice added shipping and tax). Amounts are integer minor
 *    units, `currency` is the ISO 4217 code as the server sent it ("USD").
 * 3. `collectToken()` when the buyer pays: validates the form and returns the
 *    id of a single-use token the server can confirm (`ctoken_…` with Stripe
 *    ConfirmationTokens, `tok_…` with localstripe). Rejects with an `Error`
 *    whose message can be shown to the buyer (e.g. "Your card number is
 *    incomplete."); nothing has been charged then.
 * 4. `handleNextAction(clientSecret)` when the server's confirm answered
 *    `requires_action` (3-D Secure). Resolves once the buyer finished the
 *    step, whichever the outcome: `Checkout` then confirms again and the
 *    server's answer says whether the payment succeeded. Rejects only when
 *    the step could not be run at all.
 * 5. `unmount()` (optional) removes the form. `Checkout` calls it when the
 *    checkout ends (succeeded, cancelled, failed for good) or is freed.
 *
 * A container holds one form: mounting into a container that holds another
 * adapter's form unmounts that one first (`claimContainer`), so a page that
 * opens the next checkout in the same place never shows two forms.
 *
 * Adapters must not retry, confirm or create payments themselves: the
 * single-flight and no-double-charge guarantees live in `Checkout`.
 *
 * @typedef {object} AdapterSession
 * @property {string} publishableKey The processor's client-side key from initiate.
 * @property {number} amount Integer minor units.
 * @property {string} currency ISO 4217 code, e.g. "USD".
 *
 * @typedef {object} ProcessorAdapter
 * @property {(session: AdapterSession) => Promise<void>} mount
 * @property {(amount: number, currency: string) => Promise<void>} updateAmount
 * @property {() => Promise<string>} collectToken
 * @property {(clientSecret: string) => Promise<void>} handleNextAction
 * @property {() => void} [unmount]
 */

/**
 * Resolve a container given as an element or a CSS selector.
 * @param {HTMLElement | string} container
 * @returns {HTMLElement}
 */
export function resolveContainer(container) {
  if (typeof container === "string") {
    const el = document.querySelector(container);
    if (!(el instanceof HTMLElement)) throw new Error(`payment form container ${JSON.stringify(container)} not found`);
    return el;
  }
  if (!(container instanceof HTMLElement)) throw new Error("payment form container must be an HTMLElement or a CSS selector");
  return container;
}

/** The adapter whose form each container holds. @type {WeakMap<HTMLElement, { unmount(): void }>} */
const holders = new WeakMap();

/**
 * The container (an element or a CSS selector) for `adapter`'s form: another
 * adapter's form in it is unmounted first, so the container holds one form.
 * @param {HTMLElement | string} container
 * @param {{ unmount(): void }} adapter
 * @returns {HTMLElement}
 */
export function claimContainer(container, adapter) {
  const el = resolveContainer(container);
  const previous = holders.get(el);
  if (previous && previous !== adapter) previous.unmount();
  holders.set(el, adapter);
  return el;
}

/**
 * `adapter`'s form left `el` (its `unmount`).
 * @param {HTMLElement | null} el
 * @param {{ unmount(): void }} adapter
 */
export function releaseContainer(el, adapter) {
  if (el && holders.get(el) === adapter) holders.delete(el);
}

/**
 * The message of whatever a processor library reported.
 * @param {unknown} error
 * @param {string} fallback
 * @returns {string}
 */
export function messageOf(error, fallback) {
  if (error && typeof error === "object" && "message" in error && typeof error.message === "string" && error.message) {
    return error.message;
  }
  return fallback;
}

export {};
