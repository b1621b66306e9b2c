//! Checkout exports (issue 5).
