// Chromium's launch flags on these machines (TOOLCHAIN.md): the e2e suite and
// scripts/bench-lighthouse.sh use the same ones.
export const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];
