// Fuzz (issue 12 item 11): the client's baseUrl check (crate::options::check_base_url, through
// `new CirrusClient` of the built package) against the WHATWG URL parser of node. Whatever
// the client accepts, `new URL()` must read the same way: an absolute URL, https (or http to
// a loopback host), no user info, query or fragment, a path ending in /api/v1, and a request
// path appended to it must stay on the same origin. The client may refuse more than WHATWG
// would accept (it is strict on purpose); those cases are counted, not failed.
// Usage: node tests/sdk/fuzz-base-url.mjs PKG_DIR   (CIRRUS_FUZZ_CASES, default 5000; seed printed)
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const lib = await import(pathToFileURL(resolve(process.argv[2], "node.js")).href);
await lib.init();
const cases = Number(process.env.CIRRUS_FUZZ_CASES || 5000);
let seed = Number(process.env.FUZZ_SEED || (Date.now() % 2 ** 31));
console.log(`base-URL fuzz: ${cases} cases, seed ${seed} (FUZZ_SEED= replays)`);
const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
const pick = (a) => a[Math.floor(rnd() * a.length)];
const schemes = ["https://", "http://", "HTTPS://", "Http://", "ftp://", "https:/", "https:", "https:///", "", "ws://", " https://", "https:\\\\"];
const hosts = ["shop.example", "SHOP.example", "127.0.0.1", "127.1", "127.255.255.255", "128.0.0.1", "localhost", "LocalHost", "localhost.", "[::1]", "[::1",
  "[0:0:0:0:0:0:0:1]", "0x7f.0.0.1", "127.0.0.1.", "127.0.0.1.evil.example", "user@shop.example", "user:pw@127.0.0.1", "", "shop.example:443", "shop.example:8443",
  "shop.example:99999", "shop.example:", "shop .example", "xn--bcher-kva.example", "sh%6fp.example", "127.000.000.001", "2130706433", "[::ffff:127.0.0.1]", "évil.example"];
const paths = ["/api/v1", "/api/v1/", "/x/api/v1", "/API/V1", "/api/v1?x=1", "/api/v1#f", "/api/v1/..", "/api/./v1", "\\api\\v1", "/api/v1 ", "", "/api/v2", "//api/v1",
  "/api%2Fv1", "/a b/api/v1", "/api/v1\t", "/%2e%2e/api/v1", "/api/v1//"];
const loopback = (h) => h === "localhost" || h === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(h);
const apiKey = "ak_" + "0".repeat(48);
let accepted = 0, refusedButWhatwgFine = 0, failures = [];
for (let i = 0; i < cases; i++) {
  let s = pick(schemes) + pick(hosts) + pick(paths);
  if (rnd() < 0.2) { // a random edit somewhere
    const at = Math.floor(rnd() * (s.length + 1));
    s = s.slice(0, at) + pick(["/", ".", "@", ":", "%", "?", "#", "\\", " ", "\u0000", "\n", "a", "[", "]"]) + s.slice(at);
  }
  let ours = true;
  try { new lib.CirrusClient({ baseUrl: s, apiKey }); } catch (e) {
    if (!(e instanceof lib.CirrusError) || e.code !== "invalid_argument") failures.push(`${JSON.stringify(s)}: threw ${e}`);
    ours = false;
  }
  let u = null;
  try { u = new URL(s); } catch {}
  const whatwg = !!u && (u.protocol === "https:" || (u.protocol === "http:" && loopback(u.hostname))) && !u.username && !u.password
    && !u.search && !u.hash && u.pathname.replace(/\/$/, "").endsWith("/api/v1");
  if (ours) {
    accepted++;
    if (!whatwg) failures.push(`${JSON.stringify(s)}: accepted by the client, but WHATWG reads ${u ? u.href : "no URL"}`);
    else if (new URL(s.replace(/\/$/, "") + "/store").origin !== u.origin) failures.push(`${JSON.stringify(s)}: a request path leaves the origin`);
  } else if (whatwg) refusedButWhatwgFine++;
}
console.log(`base-URL fuzz: ${accepted} accepted (all read the same by WHATWG URL), ${refusedButWhatwgFine} refused though WHATWG would read them as valid (strictness), ${failures.length} disagreements`);
if (failures.length) { console.error(failures.slice(0, 20).join("\n")); process.exit(1); }
