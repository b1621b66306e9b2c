// Validates parsed JSON against the schemas generated from the Rust types
// (js/generated/schema.js): response bodies (parseChecked) and the shape of
// arguments (checkArg; their rules are then the core's). Used by js/client.ts.
//
// Why here and not serde in wasm: the body is parsed once by the engine's
// JSON.parse and checked in place, and the caller gets that same object; see
// "SDK" in BENCHMARKS.md for the measured alternatives.
//
// The schema object is passed in (so that a wasm-bindgen snippet, which is
// copied on its own, can use this file too: it imports nothing).
let SCHEMA = null;
let compiled = new Map();

function fail(message) {
  return { path: "", message };
}

function describe(v) {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  if (typeof v === "string") return `the string ${JSON.stringify(v.length > 40 ? v.slice(0, 40) + "…" : v)}`;
  if (typeof v === "number") return `the number ${v}`;
  return `a ${typeof v}`;
}

const PRIMITIVES = {
  string: (v) => (typeof v === "string" ? undefined : fail(`expected a string, got ${describe(v)}`)),
  bool: (v) => (typeof v === "boolean" ? undefined : fail(`expected a boolean, got ${describe(v)}`)),
  f64: (v) => (typeof v === "number" ? undefined : fail(`expected a number, got ${describe(v)}`)),
  u32: (v) => (Number.isInteger(v) && v >= 0 && v <= 4294967295 ? undefined : fail(`expected an integer in 0..=4294967295, got ${describe(v)}`)),
  u64: (v) => (Number.isSafeInteger(v) && v >= 0 ? undefined : fail(`expected a non-negative safe integer, got ${describe(v)}`)),
  i64: (v) => (Number.isSafeInteger(v) ? undefined : fail(`expected a safe integer, got ${describe(v)}`)),
};

function compile(type) {
  if (typeof type === "string") {
    if (PRIMITIVES[type]) return PRIMITIVES[type];
    let c = compiled.get(type);
    if (!c) {
      // Placeholder first, so recursive types terminate.
      let real;
      compiled.set(type, (v) => real(v));
      real = compileNamed(SCHEMA[type]);
      compiled.set(type, real);
      c = real;
    }
    return c;
  }
  const [op, inner] = type;
  const check = compile(inner);
  switch (op) {
    case "null":
      return (v) => (v === null ? undefined : check(v));
    case "optional":
      return (v) => (v === undefined || v === null ? undefined : check(v));
    case "array":
      return (v) => {
        if (!Array.isArray(v)) return fail(`expected an array, got ${describe(v)}`);
        for (let i = 0; i < v.length; i++) {
          const e = check(v[i]);
          if (e !== undefined) { e.path = `[${i}]${e.path}`; return e; }
        }
        return undefined;
      };
    case "map":
      return (v) => {
        if (typeof v !== "object" || v === null || Array.isArray(v)) return fail(`expected an object, got ${describe(v)}`);
        for (const k in v) {
          const e = check(v[k]);
          if (e !== undefined) { e.path = `.${k}${e.path}`; return e; }
        }
        return undefined;
      };
    default:
      throw new Error(`schema: unknown type ${JSON.stringify(type)}`);
  }
}

function compileNamed(def) {
  if (Array.isArray(def) && def[0] === "enum") {
    const values = new Set(def.slice(1));
    return (v) => (values.has(v) ? undefined : fail(`expected one of ${def.slice(1).join(", ")}, got ${describe(v)}`));
  }
  const names = Object.keys(def);
  const checks = names.map((n) => compile(def[n]));
  const optional = names.map((n) => Array.isArray(def[n]) && def[n][0] === "optional");
  return (v) => {
    if (typeof v !== "object" || v === null || Array.isArray(v)) return fail(`expected an object, got ${describe(v)}`);
    for (let i = 0; i < names.length; i++) {
      const x = v[names[i]];
      if (x === undefined && !optional[i]) return fail(`missing field \`${names[i]}\``);
      const e = checks[i](x);
      if (e !== undefined) { e.path = `.${names[i]}${e.path}`; return e; }
    }
    return undefined;
  };
}

// Parses `text` and checks it against the schema `name` of `schema`. Returns the parsed
// value, or throws a string naming the JSON path of the first problem.
export function parseChecked(text, name, schema) {
  if (schema !== SCHEMA) { SCHEMA = schema; compiled = new Map(); }
  let value;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw `the response body is not valid JSON (truncated?): ${e && e.message ? e.message : e}`;
  }
  const e = compile(name)(value);
  if (e !== undefined) throw `at ${e.path ? e.path.replace(/^\./, "") : "(root)"}: ${e.message}`;
  return value;
}

// Checks the shape of argument `value` against the schema `name` and returns it; throws a
// string naming `what` and the path (`options.limit: expected …`). `undefined`/`null` read
// as `{}`. `strict`: an unknown member of the top object is refused (members that are
// `undefined` or functions are ignored, as JSON.stringify would).
export function checkArg(value, name, what, schema, strict) {
  if (schema !== SCHEMA) { SCHEMA = schema; compiled = new Map(); }
  const v = value == null ? {} : value;
  let e = compile(name)(v);
  if (!e && strict) {
    for (const k in v) if (!(k in SCHEMA[name]) && v[k] !== undefined && typeof v[k] != "function") { e = fail(`unknown field \`${k}\``); break; }
  }
  if (e) throw `${what}${e.path}: ${e.message}`;
  return v;
}

// The member names of argument type `name` and of the types it holds: JSON.stringify's
// replacer for a request body, so members the API does not know are not sent.
export function fieldNames(name, schema, out = []) {
  const def = schema[name];
  if (def && !Array.isArray(def)) {
    for (const k in def) {
      out.push(k);
      let t = def[k];
      while (Array.isArray(t)) t = t[1];
      fieldNames(t, schema, out);
    }
  }
  return out;
}
