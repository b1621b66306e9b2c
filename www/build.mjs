#!/usr/bin/env node
// Builds the demo storefront into an output directory the dev server serves
// (CIRRUS_WWW_DIR), using the SDK exactly as an npm consumer would:
//   1. `npm pack` the rendered package (pkg/) and `npm install` the tarball into
//      www/node_modules (not saved to package.json),
//   2. bundle src/main.ts with esbuild (imports `cirrus-storefront`),
//   3. copy the package's .wasm next to the bundle,
//   4. render index.html with its Content-Security-Policy and write config.json.
//
// node www/build.mjs --out DIR --api-key ak_… [--pkg pkg] [--processor localstripe|stripe]
//                    [--localstripe http://127.0.0.1:8420] [--no-install]
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
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

/** The CSP of the page: same-origin everything, wasm compilation, and the processor's origins. */
function csp(o) {
  const proc = o.processor === 'stripe'
    ? { script: ['https://js.stripe.com'], frame: ['https://js.stripe.com', 'https://hooks.stripe.com'], connect: ['https://api.stripe.com'] }
    : { script: [o.localstripeOrigin], frame: [o.localstripeOrigin], connect: [o.localstripeOrigin] };
  return [
    "default-src 'none'",
    `script-src 'self' 'wasm-unsafe-eval' ${proc.script.join(' ')}`,
    `connect-src 'self' ${proc.connect.join(' ')}`,
    `frame-src ${proc.frame.join(' ')}`,
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
mkdirSync(o.out, { recursive: true });
await build({
  entryPoints: { app: join(WWW, 'src', 'main.ts') },
  bundle: true,
  format: 'esm',
  target: 'es2022',
  platform: 'browser',
  minify: true,
  sourcemap: true,
  outdir: o.out,
  logLevel: 'warning',
  // The wasm is loaded by URL at runtime (see src/sdk.ts); never inline it.
  loader: { '.wasm': 'file' },
  assetNames: '[name]',
});
const wasmFiles = readdirSync(sdkDir).filter((f) => f.endsWith('.wasm'));
if (wasmFiles.length === 0) fail('the installed package has no .wasm');
for (const f of wasmFiles) copyFileSync(join(sdkDir, f), join(o.out, f));
const html = readFileSync(join(WWW, 'index.html'), 'utf8')
  .replace('%CSP%', csp(o))
  // fetched by init() as soon as the bundle runs; start it with the HTML instead
  .replace('%PRELOAD_WASM%', wasmFiles.map((f) => `<link rel="preload" href="${f}" as="fetch" crossorigin="anonymous">`).join('\n  '));
writeFileSync(join(o.out, 'index.html'), html);
writeFileSync(join(o.out, 'config.json'), JSON.stringify({
  apiKey: o.apiKey,
  processor: o.processor,
  localstripeUrl: o.processor === 'localstripe' ? o.localstripeOrigin : null,
}, null, 2) + '\n');
console.log(`www: built ${o.out} in ${Math.round(performance.now() - t0)} ms`);
