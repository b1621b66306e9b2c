import type { NextConfig } from "next";

// Nothing here for the SDK: its package exports give Next the right entry on the server
// (node, the .wasm embedded) and in the browser (the .wasm a file of its own, streamed).
// The roots keep Next inside this folder when the template sits in a larger repository.
const root = import.meta.dirname;
// NEXT_SOURCE_MAPS=1 (scripts/bench-next.sh) ships the browser's source maps, to tell the SDK's share of each chunk.
// inlineCss: the stylesheet (1.4 KB gzip) in a <style> of the HTML, not a render-blocking request
// (one round trip less before the first paint: Lighthouse's FCP and LCP).
const config: NextConfig = {
  outputFileTracingRoot: root,
  turbopack: { root },
  poweredByHeader: false,
  productionBrowserSourceMaps: process.env.NEXT_SOURCE_MAPS === "1",
  experimental: { inlineCss: true },
  // Browsers fall back to /favicon.ico when a client-side navigation swaps the head's icon
  // links (Chromium did, under load, and logged a 404): the one icon, app/icon.svg, answers it.
  rewrites: async () => [{ source: "/favicon.ico", destination: "/icon.svg" }],
};
export default config;
