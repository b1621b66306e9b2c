// Node ESM consumer of the packed tarball (run from a throwaway project).
import * as lib from "cirrus-storefront";
import { smoke } from "./smoke.mjs";

const passed = await smoke(lib, { baseUrl: process.env.CIRRUS_BASE_URL, apiKey: process.env.CIRRUS_API_KEY });
console.log(`node consumer: ${passed.length} checks passed`);
