// The same handler in the edge runtime (the package's `edge-light` condition), root entry.
import * as lib from "cirrus-storefront";
import { productHandler } from "../../../lib/product-handler";

export const runtime = "edge";
export const dynamic = "force-dynamic";
export const GET = productHandler(lib);
