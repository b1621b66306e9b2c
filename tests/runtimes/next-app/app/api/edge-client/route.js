// The same handler in the edge runtime with the catalog-only entry `cirrus-storefront/client`.
import * as lib from "cirrus-storefront/client";
import { productHandler } from "../../../lib/product-handler";

export const runtime = "edge";
export const dynamic = "force-dynamic";
export const GET = productHandler(lib);
