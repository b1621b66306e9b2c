// Stands in for @stripe/stripe-js/pure on the offline test page; the test
// always passes its own loadStripe, so this one must never run.
export function loadStripe() {
  throw new Error("real Stripe.js is not available offline");
}
