// The node entries' `.wasm`: scripts/build-pkg.sh writes each module's bytes, base64, into a
// `wasm-base64.js` next to its glue, so node, Deno, Bun and server bundles (Next.js with
// Turbopack or webpack) load it with no file path and no `import.meta.url` (a bundler rewrites
// those; a string literal it passes through). Browser entries never import it.

/** The bytes of a base64 string, in any host with `atob`. */
export function fromBase64(text: string): Uint8Array {
  const bin = atob(text);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return bytes;
}
