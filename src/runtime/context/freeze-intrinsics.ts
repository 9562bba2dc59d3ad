/**
 * Freezes the objects of this realm that another realm
 * could be handed (Bun's fs gives ShadowRealms Buffers of the realm that
 * made them), so nothing done to them reaches the next realm. A targeted
 * stand-in for SES `lockdown()`, which does this for every intrinsic but
 * costs about 17 MB of RSS and 10-50 ms per helper (measured here).
 *
 * - Every object reachable from the intrinsics and `Buffer` (through
 *   properties, accessors and prototypes) is frozen.
 * - The constructors of every kind of function are made inert on the shared
 *   prototypes: `anything.constructor.constructor("return globalThis")`
 *   would otherwise evaluate code in this realm.
 * - Assigning a property that a frozen prototype also has (`x.constructor =
 *   …`, `x.toString = …`) keeps working on `x` itself (the "override
 *   mistake" would make it fail, and Bun's own modules, loaded later, do
 *   it): such properties become accessors whose setter defines the property
 *   on the object assigned to.
 */
export function freezeIntrinsics(): number {
  const functionPrototypes = [
    Function.prototype,
    Object.getPrototypeOf(async function () {}),
    Object.getPrototypeOf(function* () {}),
    Object.getPrototypeOf(async function* () {}),
  ] as object[];
  makeConstructorsInert(functionPrototypes);
  return freezeReachable(intrinsicRoots(functionPrototypes));
}

/** `f.constructor` of every kind of function throws instead of compiling code in this realm. */
function makeConstructorsInert(functionPrototypes: readonly object[]): void {
  const inert = function () {
    throw new TypeError("code cannot be evaluated from here");
  };
  for (const prototype of functionPrototypes) {
    Object.defineProperty(prototype, "constructor", {
      value: inert,
      writable: false,
      enumerable: false,
      configurable: false,
    });
  }
}

/** The globals another realm may be handed, by name (those this runtime has). */
const INTRINSIC_NAMES = [
  "Object",
  "Function",
  "Array",
  "ArrayBuffer",
  "SharedArrayBuffer",
  "DataView",
  "Int8Array",
  "Uint8Array",
  "Uint8ClampedArray",
  "Int16Array",
  "Uint16Array",
  "Int32Array",
  "Uint32Array",
  "Float16Array",
  "Float32Array",
  "Float64Array",
  "BigInt64Array",
  "BigUint64Array",
  "Error",
  "TypeError",
  "RangeError",
  "SyntaxError",
  "ReferenceError",
  "EvalError",
  "URIError",
  "AggregateError",
  "Promise",
  "Map",
  "Set",
  "WeakMap",
  "WeakSet",
  "WeakRef",
  "FinalizationRegistry",
  "RegExp",
  "Date",
  "Symbol",
  "JSON",
  "Math",
  "Reflect",
  "Proxy",
  "Iterator",
  "BigInt",
  "Number",
  "String",
  "Boolean",
  "Atomics",
  "TextEncoder",
  "TextDecoder",
  "URL",
  "URLSearchParams",
];

/** Where the walk starts: the function prototypes, Buffer, the iterator prototypes a Buffer hands out, and the intrinsics. */
function intrinsicRoots(functionPrototypes: readonly object[]): unknown[] {
  const g = globalThis as unknown as Record<string, unknown>;
  const roots: unknown[] = [
    ...functionPrototypes,
    g.Buffer,
    // What a Buffer's own methods hand out: iterators, slices, its ArrayBuffer.
    Object.getPrototypeOf([][Symbol.iterator]()),
    Object.getPrototypeOf(new Map().entries()),
    Object.getPrototypeOf(new Set().values()),
    Object.getPrototypeOf(""[Symbol.iterator]()),
    Object.getPrototypeOf("a".matchAll(/a/g)),
    Object.getPrototypeOf(Object.getPrototypeOf((function* () {})())),
    Object.getPrototypeOf(Object.getPrototypeOf((async function* () {})())),
  ];
  for (const name of INTRINSIC_NAMES) if (g[name] !== undefined) roots.push(g[name]);
  return roots;
}

/** Freezes every object reachable from `roots` (properties, accessors, prototypes); returns how many. */
function freezeReachable(roots: unknown[]): number {
  const seen = new Set<object>();
  const queue: unknown[] = roots;
  while (queue.length > 0) {
    const value = queue.pop();
    if (value === null || (typeof value !== "object" && typeof value !== "function")) continue;
    const object = value as object;
    if (seen.has(object) || object === globalThis) continue;
    seen.add(object);
    queue.push(Object.getPrototypeOf(object));
    for (const key of Reflect.ownKeys(object)) {
      const descriptor = Reflect.getOwnPropertyDescriptor(object, key);
      if (!descriptor) continue;
      if ("value" in descriptor) {
        queue.push(descriptor.value);
        if (descriptor.writable && descriptor.configurable) keepAssignable(object, key, descriptor);
      } else {
        queue.push(descriptor.get, descriptor.set);
      }
    }
    Object.freeze(object);
  }
  return seen.size;
}

/** See freezeIntrinsics: the property reads as before, and assigning it on an heir defines it there. */
function keepAssignable(owner: object, key: PropertyKey, descriptor: PropertyDescriptor): void {
  const value: unknown = descriptor.value;
  Object.defineProperty(owner, key, {
    get() {
      return value;
    },
    set(this: object, next: unknown) {
      if (this === owner) throw new TypeError(`cannot assign to ${String(key)}: it is frozen`);
      Object.defineProperty(this, key, { value: next, writable: true, enumerable: true, configurable: true });
    },
    enumerable: descriptor.enumerable ?? false,
    configurable: false,
  });
}
