// @ts-check
/**
 * Stripe adapter: Stripe.js Payment Element in deferred-intent mode with
 * ConfirmationTokens (the "finalize payments on the server" flow).
 *
 * - `mount`: `loadStripe(publishableKey)` from `@stripe/stripe-js/pure`
 *   (nothing is injected at import time), `stripe.elements({ mode: "payment",
 *   amount, currency, paymentMethodCreation: "manual" })` and a Payment
 *   Element in the container.
 * - `updateAmount`: `elements.update({ amount, currency })`.
 * - `collectToken`: `elements.submit()` (validates the form), then
 *   `stripe.createConfirmationToken({ elements })` → `ctoken_…`.
 * - `handleNextAction`: `stripe.handleNextAction({ clientSecret })` (3-D Secure).
 *
 * Card data stays inside Stripe's iframes; the SDK only sees the token id.
 * This path needs real Stripe test keys and network access (README).
 */
import { loadStripe } from "@stripe/stripe-js/pure";
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
 * Where the Payment Element goes, and how it looks.
 * @typedef {object} StripeAdapterOptions
 * @property {HTMLElement | string} container Where the Payment Element goes.
 * @property {import("@stripe/stripe-js").Appearance} [appearance]
 * @property {import("@stripe/stripe-js").StripePaymentElementOptions} [paymentElementOptions]
 * @property {typeof loadStripe} [loadStripe] Override for tests or a preloaded Stripe.js.
 */

/**
 * The processor adapter for Stripe: a Payment Element with ConfirmationTokens, for the
 * publishable key the API's initiate answer gives. Pass it to `Checkout.start`/`resume` as `adapter`.
 * @example
 * const adapter = new StripeAdapter({ container: "#payment" });
 * @implements {ProcessorAdapter}
 */
export class StripeAdapter {
  /**
   * Checks the options; Stripe.js loads on `mount`.
   * @param {StripeAdapterOptions} options
   * @throws {Error} when `container` is missing.
   */
  constructor(options) {
    if (!options || !options.container) throw new Error("StripeAdapter: options.container is required");
    /** @private */ this.options = options;
    /** @private @type {import("@stripe/stripe-js").Stripe | null} */ this.stripe = null;
    /** @private @type {import("@stripe/stripe-js").StripeElements | null} */ this.elements = null;
    /** @private @type {import("@stripe/stripe-js").StripePaymentElement | null} */ this.element = null;
    /** @private @type {HTMLElement | null} */ this.el = null;
  }

  /**
   * Loads Stripe.js for the session's publishable key and mounts a Payment Element for its
   * amount and currency (a form of another adapter there is unmounted first). Called by `Checkout`.
   * @param {AdapterSession} session
   */
  async mount(session) {
    const load = this.options.loadStripe || loadStripe;
    const stripe = await load(session.publishableKey);
    if (!stripe) throw new Error("Stripe.js could not be loaded");
    this.unmount();
    const elements = stripe.elements({
      mode: "payment",
      amount: session.amount,
      currency: session.currency.toLowerCase(),
      paymentMethodCreation: "manual",
      ...(this.options.appearance ? { appearance: this.options.appearance } : {}),
    });
    const element = elements.create("payment", this.options.paymentElementOptions);
    const el = claimContainer(this.options.container, this);
    element.mount(el);
    this.el = el;
    this.stripe = stripe;
    this.elements = elements;
    this.element = element;
  }

  /**
   * Shows a new amount (after a shipping choice). Called by `Checkout`.
   * @param {number} amount integer minor units
   * @param {string} currency ISO 4217 code
   */
  async updateAmount(amount, currency) {
    if (!this.elements) throw new Error("StripeAdapter: updateAmount before mount");
    this.elements.update({ amount, currency: currency.toLowerCase() });
  }

  /**
   * Validates the form and creates a ConfirmationToken. Called by `Checkout` when the buyer pays.
   * @returns {Promise<string>} a ConfirmationToken id (`ctoken_…`)
   * @throws {Error} with Stripe's message for the buyer when the form is incomplete.
   */
  async collectToken() {
    const { stripe, elements } = this;
    if (!stripe || !elements) throw new Error("StripeAdapter: collectToken before mount");
    const submitted = await elements.submit();
    if (submitted.error) throw new Error(messageOf(submitted.error, "the payment form is incomplete"));
    const result = await stripe.createConfirmationToken({ elements });
    if (result.error) throw new Error(messageOf(result.error, "could not create a confirmation token"));
    return result.confirmationToken.id;
  }

  /**
   * Runs 3-D Secure. An authentication failure resolves (the next confirm
   * reports it); only a step that could not run rejects.
   * @param {string} clientSecret
   */
  async handleNextAction(clientSecret) {
    if (!this.stripe) throw new Error("StripeAdapter: handleNextAction before mount");
    const result = await this.stripe.handleNextAction({ clientSecret });
    if (result.error && result.error.type !== "card_error" && result.error.code !== "payment_intent_authentication_failure") {
      throw new Error(messageOf(result.error, "the authentication step could not run"));
    }
  }

  /** Removes the Payment Element from its container. Called by `Checkout` when the checkout ends or is freed. */
  unmount() {
    if (this.element) this.element.destroy();
    releaseContainer(this.el, this);
    this.el = null;
    this.element = null;
    this.elements = null;
  }
}
