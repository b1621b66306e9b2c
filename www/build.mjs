#!/usr/bin/env node
// Builds the demo storefront into an output directory the dev server serves
// (CIRRUS_WWW_DIR), using the SDK exactly as an npm consumer would:
//   1. `npm pack` the rendered package (pkg/) and `npm install` the tarball into
//      www/node_modules (not saved to package.json),
//   2. bundle src/main.ts with esbuild (imports `cirrus-storefront`),
//   3. copy the package's .wasm files (the root entry's, the checkout module's, the search entry's) into assets/
//      (every file there is named by its content's hash),
//   4. render index.html with its Content-Security-Policy and the hashed names, and write config.json.
//
// node www/build.mjs --out DIR --api-key ak_… [--pkg pkg] [--processor localstripe|stripe]
//                    [--localstripe http://127.0.0.1:8420] [--no-install]
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const WWW = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(WWW, '..');

function args(argv) {
  const o = { out: join(WWW, 'dist'), pkg: join(ROOT, 'pkg'), processor: 'localstripe',
    localstripe: 'http://127.0.0.1:8420', apiKey: process.env.CIRRUS_API_KEY ?? '', install: true };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i], v = () => { if (i + 1 >= argv.length) fail(`${a} needs a value`); return argv[++i]; };
    if (a === '--out') o.out = resolve(v());
    else if (a === '--pkg') o.pkg = resolve(v());
    else if (a === '--processor') o.processor = v();
    else if (a === '--localstripe') o.localstripe = v();
    else if (a === '--api-key') o.apiKey = v();
    else if (a === '--no-install') o.install = false;
    else fail(`unknown argument ${a}`);
  }
  if (!/^ak_[0-9a-f]{48}$/.test(o.apiKey)) fail('--api-key (or CIRRUS_API_KEY) must be ak_ followed by 48 lowercase hex digits');
  if (!['localstripe', 'stripe'].includes(o.processor)) fail('--processor is localstripe or stripe');
  let ls;
  try { ls = new URL(o.localstripe); } catch { fail(`--localstripe is not a URL: ${o.localstripe}`); }
  if (!['http:', 'https:'].includes(ls.protocol)) fail('--localstripe must be http(s)');
  o.localstripeOrigin = ls.origin;
  return o;
}

function fail(msg) {
  console.error(`www/build.mjs: ${msg}`);
  process.exit(2);
}

/** Pack pkg/ and install the tarball into www/node_modules, as a consumer would. */
function installPackage(pkgDir) {
  if (!existsSync(join(pkgDir, 'package.json'))) fail(`no package at ${pkgDir} (run scripts/build-pkg.sh first)`);
  const packDir = join(ROOT, '.cirrus', 'www-pack');
  rmSync(packDir, { recursive: true, force: true });
  mkdirSync(packDir, { recursive: true });
  const out = execFileSync('npm', ['pack', pkgDir, '--pack-destination', packDir, '--json', '--loglevel=error'], { encoding: 'utf8' });
  const tarball = join(packDir, JSON.parse(out)[0].filename);
  execFileSync('npm', ['install', '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--loglevel=error', tarball],
    { cwd: WWW, stdio: ['ignore', 'inherit', 'inherit'] });
  return tarball;
}

/**
 * The CSP of the page: same-origin everything, wasm compilation, and the processor's origins
 * (the README's "Content-Security-Policy" table: localstripe uses no iframe).
 */
function csp(o) {
  const proc = o.processor === 'stripe'
    ? { script: ['https://js.stripe.com', 'https://*.js.stripe.com'], frame: ['https://js.stripe.com', 'https://*.js.stripe.com', 'https://hooks.stripe.com'], connect: ['https://api.stripe.com'] }
    : { script: [o.localstripeOrigin], frame: [], connect: [o.localstripeOrigin] };
  return [
    "default-src 'none'",
    `script-src 'self' 'wasm-unsafe-eval' ${proc.script.join(' ')}`,
    `connect-src 'self' ${proc.connect.join(' ')}`,
    ...(proc.frame.length ? [`frame-src ${proc.frame.join(' ')}`] : []),
    "img-src 'self' data: https:",
    // Stripe.js (real and fake) styles its elements from script (CSSOM), which CSP allows;
    // no inline <style> or style="" is needed by the page itself.
    "style-src 'self'",
    "font-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "object-src 'none'",
  ].join('; ');
}

const o = args(process.argv.slice(2));
const t0 = performance.now();
if (o.install) installPackage(o.pkg);
const sdkDir = join(WWW, 'node_modules', 'cirrus-storefront');
if (!existsSync(join(sdkDir, 'package.json'))) fail('cirrus-storefront is not installed in www/node_modules');

rmSync(o.out, { recursive: true, force: true });
mkdirSync(join(o.out, 'assets'), { recursive: true });
// Every file under assets/ is named by a hash of its content (the dev server serves that
// folder as immutable, for a year); index.html and config.json are revalidated.
const wasmFiles = readdirSync(sdkDir).filter((f) => f.endsWith('.wasm'));
if (wasmFiles.length !== 1) fail(`the installed package should have one .wasm at its root, found ${wasmFiles.length}`);
const wasmBytes = readFileSync(join(sdkDir, wasmFiles[0]));
const wasmName = `assets/${wasmFiles[0].replace(/\.wasm$/, '')}-${createHash('sha256').update(wasmBytes).digest('hex').slice(0, 12)}.wasm`;
writeFileSync(join(o.out, wasmName), wasmBytes);
// The checkout's own wasm module (fetched on the first Checkout.start/resume; src/sdk.ts hands
// its URL to setCheckoutWasm, since esbuild does not emit `new URL(…, import.meta.url)` assets).
const checkoutWasmBytes = readFileSync(join(sdkDir, 'checkout', 'cirrus_storefront_bg.wasm'));
const checkoutWasmName = `assets/cirrus_storefront_checkout_bg-${createHash('sha256').update(checkoutWasmBytes).digest('hex').slice(0, 12)}.wasm`;
writeFileSync(join(o.out, checkoutWasmName), checkoutWasmBytes);
// The search entry's wasm (cirrus-storefront/search), fetched when a search is first shown
// (src/views/search.ts hands its URL to that entry's init()).
const searchWasmBytes = readFileSync(join(sdkDir, 'search', 'cirrus_storefront_bg.wasm'));
const searchWasmName = `assets/cirrus_storefront_search_bg-${createHash('sha256').update(searchWasmBytes).digest('hex').slice(0, 12)}.wasm`;
writeFileSync(join(o.out, searchWasmName), searchWasmBytes);
const result = await build({
  entryPoints: { app: join(WWW, 'src', 'main.ts') },
  bundle: true,
  format: 'esm',
  target: 'es2022',
  platform: 'browser',
  minify: true,
  sourcemap: true,
  outdir: o.out,
  logLevel: 'warning',
  metafile: true,
  entryNames: 'assets/[name]-[hash]',
  assetNames: 'assets/[name]-[hash]',
  // The wasm is loaded by URL at runtime (see src/sdk.ts); never inline it.
  loader: { '.wasm': 'file' },
  define: { __CIRRUS_WASM_URL__: JSON.stringify(`/${wasmName}`), __CIRRUS_CHECKOUT_WASM_URL__: JSON.stringify(`/${checkoutWasmName}`), __CIRRUS_SEARCH_WASM_URL__: JSON.stringify(`/${searchWasmName}`) },
});
const url = (file) => '/' + relative(o.out, resolve(file)).split(sep).join('/');
const entry = Object.entries(result.metafile.outputs).find(([f, m]) => m.entryPoint !== undefined && f.endsWith('.js'));
if (!entry || !entry[1].cssBundle) fail('esbuild wrote no entry .js with its .css');
const [js, css] = [url(entry[0]), url(entry[1].cssBundle)];
const html = readFileSync(join(WWW, 'index.html'), 'utf8')
  .replace('%CSP%', csp(o))
  .replaceAll('%APP_CSS%', css)
  .replaceAll('%APP_JS%', js)
  // fetched by init() as soon as the bundle runs; start it with the HTML instead
  .replace('%PRELOAD_WASM%', `<link rel="preload" href="/${wasmName}" as="fetch" type="application/wasm" crossorigin="anonymous">`);
if (/%[A-Z_]+%/.test(html)) fail(`index.html has a placeholder left: ${html.match(/%[A-Z_]+%/)[0]}`);
writeFileSync(join(o.out, 'index.html'), html);
writeFileSync(join(o.out, 'config.json'), JSON.stringify({
  apiKey: o.apiKey,
  processor: o.processor,
  localstripeUrl: o.processor === 'localstripe' ? o.localstripeOrigin : null,
}, null, 2) + '\n');
console.log(`www: built ${o.out} in ${Math.round(performance.now() - t0)} ms`);
