/**
 * Values across a ShadowRealm's edge, which lets only primitives and
 * functions through: a call's arguments and `ctx` data go in as text, its
 * answer comes out as text. The text is JSON, with the kinds structured
 * cloning keeps and JSON does not (what a worker's `postMessage` carries)
 * written as tagged arrays, so an answer reads on the host as it would have
 * from a worker: `undefined`, NaN, Infinity, -0, a BigInt, a Date, a
 * RegExp, a Map, a Set, an Error (its name and message), a typed array and
 * an ArrayBuffer. What structured cloning refuses (a function, a symbol, a
 * Promise, a WeakMap, ...) makes `encode` throw, as `postMessage` does,
 * and so does a cycle (which cloning would keep; the caller then falls back
 * as it does for a refused value).
 *
 * Evaluated inside every realm from its source text
 * (`createValueCodec.toString()`), so it refers to nothing outside itself;
 * it takes what it uses from the built-ins when it is made, before any
 * module of a tool can patch them.
 */
export interface ValueCodec {
  encode(value: unknown): string;
  decode(text: string): unknown;
}

export function createValueCodec(): ValueCodec {
  // The tag that marks an array as an encoded value; a plain array whose first item is this string is tagged too.
  const TAG = "\u0000rienda";
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const isArray = Array.isArray;
  const keysOf = Object.keys;
  const defineOwn = Object.defineProperty;
  // Defined, not assigned: a field named __proto__ stays a field, and a setter a module put on
  // Object.prototype cannot swallow a field of the answer.
  const setField = (target: Record<string, unknown>, key: string, value: unknown) => {
    defineOwn(target, key, { value, writable: true, enumerable: true, configurable: true });
  };
  const tagOf = Function.prototype.call.bind(Object.prototype.toString) as (value: unknown) => string;
  const timeOf = Function.prototype.call.bind(Date.prototype.getTime) as (date: unknown) => number;
  const mapEntries = Function.prototype.call.bind(Map.prototype.forEach) as (
    map: unknown,
    each: (value: unknown, key: unknown) => void,
  ) => void;
  const setValues = Function.prototype.call.bind(Set.prototype.forEach) as (
    set: unknown,
    each: (value: unknown) => void,
  ) => void;
  const DateCtor = Date;
  const RegExpCtor = RegExp;
  const MapCtor = Map;
  const SetCtor = Set;
  const BigIntCtor = BigInt;
  const isView = ArrayBuffer.isView;
  const errors: Record<string, ErrorConstructor> = {
    Error,
    TypeError,
    RangeError,
    SyntaxError,
    ReferenceError,
    EvalError,
    URIError,
  };
  const views: Record<string, new (values: number[] | ArrayBuffer) => ArrayBufferView> = {
    Int8Array,
    Uint8Array,
    Uint8ClampedArray,
    Int16Array,
    Uint16Array,
    Int32Array,
    Uint32Array,
    Float32Array,
    Float64Array,
  };
  const refuse = (what: string): never => {
    throw new TypeError(`${what} cannot be copied`);
  };

  function toTree(value: unknown, path: unknown[]): unknown {
    switch (typeof value) {
      case "string":
      case "boolean":
        return value;
      case "undefined":
        return [TAG, "undefined"];
      case "number":
        // biome-ignore lint/suspicious/noSelfCompare: NaN, the one value not equal to itself, told apart without a global
        if (value !== value || value === Infinity || value === -Infinity || (value === 0 && 1 / value < 0))
          return [TAG, "number", String(value === 0 ? "-0" : value)];
        return value;
      case "bigint":
        return [TAG, "bigint", String(value)];
      case "function":
        return refuse("a function");
      case "symbol":
        return refuse("a symbol");
    }
    if (value === null) return null;
    for (let i = 0; i < path.length; i++) if (path[i] === value) refuse("a value that contains itself");
    path[path.length] = value;
    try {
      return objectTree(value as object, path);
    } finally {
      path.length--;
    }
  }

  function objectTree(value: object, path: unknown[]): unknown {
    if (isArray(value)) {
      const out: unknown[] = value[0] === TAG ? [TAG, "array"] : [];
      const offset = out.length;
      for (let i = 0; i < value.length; i++) out[offset + i] = toTree(value[i], path);
      return out;
    }
    const tag = tagOf(value).slice(8, -1);
    switch (tag) {
      case "Object":
        return plainTree(value, path);
      case "Date":
        return [TAG, "Date", String(timeOf(value))];
      case "RegExp":
        return [TAG, "RegExp", (value as RegExp).source, (value as RegExp).flags];
      case "Map": {
        const entries: unknown[] = [];
        mapEntries(value, (v, k) => {
          entries[entries.length] = [toTree(k, path), toTree(v, path)];
        });
        return [TAG, "Map", entries];
      }
      case "Set": {
        const items: unknown[] = [];
        setValues(value, (v) => {
          items[items.length] = toTree(v, path);
        });
        return [TAG, "Set", items];
      }
      case "Error": {
        const e = value as Error;
        const name = typeof e.name === "string" && errors[e.name] ? e.name : "Error";
        return [TAG, "Error", name, String(e.message ?? "")];
      }
      case "ArrayBuffer":
        return [TAG, "ArrayBuffer", bytesOf(new Uint8Array(value as ArrayBuffer))];
    }
    if (isView(value)) {
      const kind = tag === "Uint8Array" || views[tag] ? tag : refuse(`a ${tag}`);
      const view = value as ArrayBufferView;
      return [TAG, "view", kind, bytesOf(new Uint8Array(view.buffer, view.byteOffset, view.byteLength))];
    }
    if (typeof (value as { then?: unknown }).then === "function") return refuse("a Promise");
    if (tag === "WeakMap" || tag === "WeakSet" || tag === "WeakRef") return refuse(`a ${tag}`);
    // An instance of a class (or one with a tag of its own) is copied as its fields, as cloning does.
    return plainTree(value, path);
  }

  function plainTree(value: object, path: unknown[]): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const keys = keysOf(value);
    for (let i = 0; i < keys.length; i++)
      setField(out, keys[i]!, toTree((value as Record<string, unknown>)[keys[i]!], path));
    return out;
  }

  function bytesOf(bytes: Uint8Array): number[] {
    const out: number[] = [];
    for (let i = 0; i < bytes.length; i++) out[i] = bytes[i]!;
    return out;
  }

  function fromTree(tree: unknown): unknown {
    if (tree === null || typeof tree !== "object") return tree;
    if (isArray(tree)) {
      if (tree[0] !== TAG) {
        const out: unknown[] = [];
        for (let i = 0; i < tree.length; i++) out[i] = fromTree(tree[i]);
        return out;
      }
      switch (tree[1]) {
        case "array": {
          const out: unknown[] = [];
          for (let i = 2; i < tree.length; i++) out[i - 2] = fromTree(tree[i]);
          return out;
        }
        case "undefined":
          return undefined;
        case "number":
          return tree[2] === "-0" ? -0 : Number(tree[2]);
        case "bigint":
          return BigIntCtor(tree[2] as string);
        case "Date":
          return new DateCtor(Number(tree[2]));
        case "RegExp":
          return new RegExpCtor(tree[2] as string, tree[3] as string);
        case "Map": {
          const map = new MapCtor();
          const entries = tree[2] as unknown[][];
          for (let i = 0; i < entries.length; i++) map.set(fromTree(entries[i]![0]), fromTree(entries[i]![1]));
          return map;
        }
        case "Set": {
          const set = new SetCtor();
          const items = tree[2] as unknown[];
          for (let i = 0; i < items.length; i++) set.add(fromTree(items[i]));
          return set;
        }
        case "Error":
          return new (errors[tree[2] as string] ?? Error)(tree[3] as string);
        case "ArrayBuffer":
          return new Uint8Array(tree[2] as number[]).buffer;
        case "view": {
          const bytes = new Uint8Array(tree[3] as number[]);
          const View = views[tree[2] as string] ?? Uint8Array;
          return View === Uint8Array ? bytes : new View(bytes.buffer);
        }
      }
      return undefined;
    }
    const out: Record<string, unknown> = {};
    const keys = keysOf(tree);
    for (let i = 0; i < keys.length; i++)
      setField(out, keys[i]!, fromTree((tree as Record<string, unknown>)[keys[i]!]));
    return out;
  }

  return {
    encode: (value) => stringify(toTree(value, [])),
    decode: (text) => fromTree(parse(text)),
  };
}
