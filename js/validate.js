// The one shape checker of the package: parsed JSON against the schemas generated
// from the Rust types (js/generated/schema.js; response bodies: parseChecked, the
// shape of arguments: checkArg, used by js/client.ts) and against the small schemas
// js/checkout.ts writes in the same language (check). Rules are then the core's.
//
// Why here and not serde in wasm: the body is parsed once by the engine's
// JSON.parse and checked in place, and the caller gets that same object; see
// "SDK" in BENCHMARKS.md for the measured alternatives.
//
// A type is a string: a primitive (s string, b bool, u u32, U u64, i i64 = safe
// integer, f f64) or the name of a schema entry, prefixed by ~ (may be null), ? (may
// be null or absent), [ (array of) or { (map of). A struct is { field: type }, an
// enum the array of its values. Types may also be written inline (objects, arrays).

const describe = (v) =>
  v === null ? "null"
  : Array.isArray(v) ? "an array"
  : typeof v == "string" ? `the string ${JSON.stringify(v.length > 40 ? v.slice(0, 40) + "…" : v)}`
  : typeof v == "number" ? `the number ${v}`
  : `a ${typeof v}`;

const isObj = (v) => typeof v == "object" && v !== null && !Array.isArray(v);

// [test, what it expects] per primitive.
const PRIM = {
  s: [(v) => typeof v == "string", "a string"],
  b: [(v) => typeof v == "boolean", "a boolean"],
  f: [(v) => typeof v == "number", "a number"],
  u: [(v) => Number.isInteger(v) && v >= 0 && v <= 4294967295, "an integer in 0..=4294967295"],
  U: [(v) => Number.isSafeInteger(v) && v >= 0, "a non-negative safe integer"],
  i: [Number.isSafeInteger, "a safe integer"],
};

/** The first problem: its message and the path to it (built on the way out), or undefined. */
const bad = (m) => ({ m, p: "" });
const expected = (what, v) => bad(`expected ${what}, got ${describe(v)}`);
const under = (p, e) => (e && (e.p = p + e.p), e);

// Checkers compiled per schema and type (the schemas are read-only), so a body of 500
// products is checked at close to the speed of walking it.
const compiled = new WeakMap();

/** The checker of type `t` of `schema`: a function of the value, returning the problem. */
function fn(t, schema) {
  if (typeof t != "string") return build(t, schema);
  let m = compiled.get(schema), f, real;
  if (!m) compiled.set(schema, (m = new Map()));
  if (!(f = m.get(t))) {
    m.set(t, (v) => real(v)); // recursive types end here
    m.set(t, (f = real = build(t, schema)));
  }
  return f;
}

function build(t, schema) {
  if (typeof t == "string") {
    const c = t[0], f = "~?[{".includes(c) && fn(t.slice(1), schema);
    if (c == "~" || c == "?") return (v) => (v === null || (c == "?" && v === undefined) ? undefined : f(v));
    if (c == "[")
      return (v) => {
        if (!Array.isArray(v)) return expected("an array", v);
        for (let i = 0, e; i < v.length; i++) if ((e = f(v[i]))) return under(`[${i}]`, e);
      };
    if (c == "{")
      return (v) => {
        if (!isObj(v)) return expected("an object", v);
        for (const k in v) { const e = f(v[k]); if (e) return under("." + k, e); }
      };
    const p = PRIM[t];
    if (p) return (v) => (p[0](v) ? undefined : expected(p[1], v));
    t = schema[t];
  }
  if (Array.isArray(t)) return (v) => (t.includes(v) ? undefined : expected(`one of ${t.join(", ")}`, v));
  const ks = Object.keys(t), fs = ks.map((k) => fn(t[k], schema));
  return (v) => {
    if (!isObj(v)) return expected("an object", v);
    for (let i = 0; i < ks.length; i++) {
      const k = ks[i], x = v[k];
      if (x === undefined && t[k][0] != "?") return bad(`missing field \`${k}\``);
      const e = fs[i](x);
      if (e) return under("." + k, e);
    }
  };
}

/** `v` against type `t`; throws the string `${what}${path}: ${message}`. */
export function check(v, t, what, schema = {}, strict) {
  let e = fn(t, schema)(v);
  // `strict`: an unknown member of the top object is refused (members that are
  // `undefined` or functions are ignored, as JSON.stringify would).
  if (!e && strict) for (const k in v) if (!(k in schema[t]) && v[k] !== undefined && typeof v[k] != "function") { e = bad(`unknown field \`${k}\``); break; }
  if (e) throw `${what}${e.p}: ${e.m}`;
  return v;
}

// Parses `text` and checks it against the schema `name` of `schema`. Returns the parsed
// value, or throws a string naming the JSON path of the first problem.
export function parseChecked(text, name, schema) {
  let value;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw `the response body is not valid JSON (truncated?): ${e && e.message ? e.message : e}`;
  }
  const e = fn(name, schema)(value);
  if (e) throw `at ${e.p ? e.p.replace(/^\./, "") : "(root)"}: ${e.m}`;
  return value;
}

// Checks the shape of argument `value` against the schema `name` and returns it; throws a
// string naming `what` and the path (`options.limit: expected …`). `undefined`/`null` read
// as `{}`.
export const checkArg = (value, name, what, schema, strict) => check(value ?? {}, name, what, schema, strict);

// The member names of argument type `name` and of the types it holds: JSON.stringify's
// replacer for a request body, so members the API does not know are not sent.
export function fieldNames(name, schema, out = []) {
  const def = schema[name.replace(/^\W+/, "")];
  if (isObj(def)) for (const k in def) out.push(k), fieldNames(def[k], schema, out);
  return out;
}
