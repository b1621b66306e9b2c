// The shared-client route handler (lib/product-handler.js) in the Node.js runtime, root entry.
import * as lib from "cirrus-storefront";
import { productHandler } from "../../../lib/product-handler";

export const dynamic = "force-dynamic";
export const GET = productHandler(lib);
