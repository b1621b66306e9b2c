// Runs tests/sdk/matrix.mjs in node against the built package's node entry.
// Usage: node tests/sdk/matrix-node.mjs PKG_DIR   (CIRRUS_BASE_URL, CIRRUS_API_KEY from the environment)
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { matrix } from "./matrix.mjs";

const lib = await import(pathToFileURL(resolve(process.argv[2], "node.js")).href);
const passed = await matrix(lib, { baseUrl: process.env.CIRRUS_BASE_URL, apiKey: process.env.CIRRUS_API_KEY });
console.log(`client matrix (node): ${passed.length} cases passed`);
