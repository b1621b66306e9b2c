// @ts-check
// Processor adapters for `Checkout` (see adapter.js for the interface).
export { StripeAdapter } from "./stripe.js";
export { LocalstripeAdapter } from "./localstripe.js";
