// @ts-check
/**
 * localstripe adapter, for offline development and tests: the fake Stripe.js
 * that localstripe serves at `$LOCALSTRIPE_URL/js.stripe.com/v3/`.
 *
 * localstripe has no ConfirmationTokens, Payment Element, `elements.submit`,
 * `elements.update` or `handleNextAction`. So:
 * - `mount`: loads the script with a plain `<script src>` (it reads
 *   `document.currentScript`; it must load before any unnamed iframe
 *   exists), then `Stripe(pk)` (a plain function, no `new`),
 *   `elements().create("card")` mounted in the container;
 * - `updateAmount`: nothing to do (the card element shows no amount);
 * - `collectToken`: `stripe.createToken(card)` → `tok_…`; the dev server
 *   turns it into the token's card;
 * - `handleNextAction`: `stripe.confirmCardPayment(clientSecret)`, which shows
 *   localstripe's "Complete authentication" / "Fail authentication" modal.
 */
import { claimContainer, releaseContainer, messageOf } from "./adapter.js";

/**
 * What `mount` is given: the processor's publishable key, the amount in integer minor units
 * and the ISO 4217 currency of the payment session (adapter.js has the whole interface).
 * @typedef {import("./adapter.js").AdapterSession} AdapterSession
 */
/**
 * The interface `Checkout` drives: `mount`, `updateAmount`, `collectToken`, `handleNextAction`
 * and an optional `unmount` (adapter.js says when each is called and what it must not do).
 * @typedef {import("./adapter.js").ProcessorAdapter} ProcessorAdapter
 */

/**
 * The parts of localstripe's fake Stripe.js this adapter uses.
 * @typedef {{ value?: { card: Record<string, string> }, mount(el: HTMLElement): void, destroy(): void }} FakeCardElement
 * @typedef {{ error?: { message?: string } | null }} FakeResult
 * @typedef {object} FakeStripe
 * @property {() => { create(type: "card"): FakeCardElement }} elements
 * @property {(el: FakeCardElement) => Promise<FakeResult & { token?: { id: string } }>} createToken
 * @property {(clientSecret: string) => Promise<FakeResult & { paymentIntent?: { status: string } }>} confirmCardPayment
 */

/** @type {Map<string, Promise<void>>} */
const loading = new Map();

/**
 * Load localstripe's Stripe.js once per page.
 * @param {string} src
 * @returns {Promise<void>}
 */
function loadScript(src) {
  let p = loading.get(src);
  if (!p) {
    p = new Promise((resolve, reject) => {
      const s = document.createElement("script");
      s.src = src;
      s.onload = () => resolve();
      s.onerror = () => {
        loading.delete(src);
        reject(new Error(`could not load localstripe's Stripe.js from ${src}`));
      };
      document.head.appendChild(s);
    });
    loading.set(src, p);
  }
  return p;
}

/**
 * Where the card form goes and where localstripe runs.
 * @typedef {object} LocalstripeAdapterOptions
 * @property {HTMLElement | string} container Where the card inputs go.
 * @property {string} localstripeUrl Base URL of localstripe, e.g. "http://127.0.0.1:8420".
 */

/**
 * The processor adapter for localstripe (the dev API's default processor: no keys, no
 * network), for development and tests. Pass it to `Checkout.start`/`resume` as `adapter`.
 * @example
 * const adapter = new LocalstripeAdapter({ container: "#card", localstripeUrl: "http://127.0.0.1:8420" });
 * @implements {ProcessorAdapter}
 */
export class LocalstripeAdapter {
  /**
   * Checks the options; nothing loads until `mount`.
   * @param {LocalstripeAdapterOptions} options
   * @throws {Error} when `container` is missing or `localstripeUrl` is not an http(s) URL.
   */
  constructor(options) {
    if (!options || !options.container) throw new Error("LocalstripeAdapter: options.container is required");
    if (!options.localstripeUrl || !/^https?:\/\//.test(options.localstripeUrl)) {
      throw new Error("LocalstripeAdapter: options.localstripeUrl must be an http(s) URL");
    }
    /** @private */ this.options = options;
    /** @private @type {FakeStripe | null} */ this.stripe = null;
    /** @private @type {FakeCardElement | null} */ this.card = null;
    /** @private @type {HTMLElement | null} */ this.el = null;
  }

  /**
   * Loads localstripe's Stripe.js once per page and mounts its card element in the container
   * (a form of another adapter there is unmounted first). Called by `Checkout`.
   * @param {AdapterSession} session
   */
  async mount(session) {
    await loadScript(`${this.options.localstripeUrl.replace(/\/+$/, "")}/js.stripe.com/v3/`);
    const factory = /** @type {{ Stripe?: (pk: string) => FakeStripe }} */ (/** @type {unknown} */ (window)).Stripe;
    if (typeof factory !== "function") throw new Error("localstripe's Stripe.js did not define Stripe()");
    this.unmount();
    const stripe = factory(session.publishableKey);
    const card = stripe.elements().create("card");
    const el = claimContainer(this.options.container, this);
    card.mount(el);
    this.el = el;
    this.stripe = stripe;
    this.card = card;
  }

  /**
   * Nothing to show: localstripe's card element shows no amount. Called by `Checkout`.
   * @param {number} _amount
   * @param {string} _currency
   */
  async updateAmount(_amount, _currency) {
    if (!this.stripe) throw new Error("LocalstripeAdapter: updateAmount before mount");
  }

  /**
   * Creates a card token from the form. Called by `Checkout` when the buyer pays.
   * @returns {Promise<string>} a card token id (`tok_…`)
   * @throws {Error} with a message for the buyer ("Your card number is incomplete.").
   */
  async collectToken() {
    const { stripe, card } = this;
    if (!stripe || !card) throw new Error("LocalstripeAdapter: collectToken before mount");
    if (!card.value || !card.value.card.number) throw new Error("Your card number is incomplete.");
    const result = await stripe.createToken(card);
    if (result.error || !result.token) throw new Error(messageOf(result.error, "could not create a card token"));
    return result.token.id;
  }

  /**
   * Runs 3-D Secure through localstripe's "Complete authentication" / "Fail authentication"
   * dialog. A failed authentication resolves (the next confirm reports it); only a step that
   * could not run rejects. Called by `Checkout`.
   * @param {string} clientSecret
   */
  async handleNextAction(clientSecret) {
    if (!this.stripe) throw new Error("LocalstripeAdapter: handleNextAction before mount");
    const result = await this.stripe.confirmCardPayment(clientSecret);
    // A failed authentication comes back as a payment needing a new method,
    // which the following confirm reports; anything else could not run.
    if (result.error && !result.paymentIntent) {
      const msg = messageOf(result.error, "");
      if (!/authenticat/i.test(msg)) throw new Error(msg || "the authentication step could not run");
    }
  }

  /** Removes the card element from its container. Called by `Checkout` when the checkout ends or is freed. */
  unmount() {
    if (this.card) this.card.destroy();
    releaseContainer(this.el, this);
    this.el = null;
    this.card = null;
    this.stripe = null;
  }
}
