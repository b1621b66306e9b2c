// Runs the client matrix (tests/sdk/matrix.mjs) in node against the built package's node
// entry: one node:test test per case, in order; every case runs and is reported, and the
// process exits 1 when any failed.
// Usage: node tests/sdk/matrix-node.mjs PKG_DIR   (CIRRUS_BASE_URL, CIRRUS_API_KEY from the environment)
import { resolve } from "node:path";
import { test } from "node:test";
import { pathToFileURL } from "node:url";
import { CASES, runCase, setup } from "./matrix.mjs";

const lib = await import(pathToFileURL(resolve(process.argv[2], "node.js")).href);
const t = setup(lib, { baseUrl: process.env.CIRRUS_BASE_URL, apiKey: process.env.CIRRUS_API_KEY });
for (const k of CASES) test(k[0], () => runCase(t, k));
