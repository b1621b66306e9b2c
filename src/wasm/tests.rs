//! wasm-bindgen tests in headless Chromium (scripts/test.d/30-wasm.sh).
