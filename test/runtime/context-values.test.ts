import { describe, expect, test } from "bun:test";
import { createValueCodec } from "../../src/runtime/context/context-values.ts";

const codec = createValueCodec();
const roundTrip = (value: unknown) => codec.decode(codec.encode(value));

describe("values across a realm's edge", () => {
  test("what JSON carries reads back the same", () => {
    const value = { text: "ok", n: 1.5, list: [1, "two", null, true, { deep: ["x"] }], empty: {} };
    expect(roundTrip(value)).toEqual(value);
  });

  test("what structured cloning keeps and JSON loses is kept", () => {
    const back = roundTrip({ u: undefined, nan: NaN, inf: -Infinity, zero: -0, big: 12345678901234567890n }) as Record<
      string,
      unknown
    >;
    expect("u" in back).toBe(true);
    expect(back.u).toBeUndefined();
    expect(back.nan).toBeNaN();
    expect(back.inf).toBe(-Infinity);
    expect(Object.is(back.zero, -0)).toBe(true);
    expect(back.big).toBe(12345678901234567890n);
    expect(roundTrip(undefined)).toBeUndefined();
  });

  test("built-in kinds come back as those kinds", () => {
    const date = roundTrip(new Date(1234)) as Date;
    expect(date).toBeInstanceOf(Date);
    expect(date.getTime()).toBe(1234);
    const re = roundTrip(/a+b/gi) as RegExp;
    expect(re).toBeInstanceOf(RegExp);
    expect(re.flags).toBe("gi");
    const map = roundTrip(new Map<unknown, unknown>([["k", new Set([1])]])) as Map<unknown, Set<number>>;
    expect(map).toBeInstanceOf(Map);
    expect([...map.get("k")!]).toEqual([1]);
    const error = roundTrip(new TypeError("bad")) as Error;
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toBe("bad");
    const bytes = roundTrip(new TextEncoder().encode("hi")) as Uint8Array;
    expect(bytes).toBeInstanceOf(Uint8Array);
    expect(new TextDecoder().decode(bytes)).toBe("hi");
    expect(roundTrip(new Float64Array([0.5]))).toEqual(new Float64Array([0.5]));
  });

  test("an instance of a class is copied as its fields, a plain object", () => {
    class Point {
      constructor(public x: number) {}
    }
    const back = roundTrip(new Point(3));
    expect(Object.getPrototypeOf(back)).toBe(Object.prototype);
    expect(back).toEqual({ x: 3 });
  });

  test("arrays that look like the tag and a __proto__ field stay what they were", () => {
    const tricky = ["\u0000rienda", "Date", "5"];
    expect(roundTrip(tricky)).toEqual(tricky);
    const withProto = JSON.parse('{"__proto__": {"polluted": true}}');
    const back = roundTrip(withProto) as Record<string, unknown>;
    expect(Object.getPrototypeOf(back)).toBe(Object.prototype);
    expect(Object.keys(back)).toEqual(["__proto__"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test("what cloning refuses is refused", () => {
    expect(() => codec.encode({ f() {} })).toThrow("a function cannot be copied");
    expect(() => codec.encode(Symbol("s"))).toThrow("a symbol cannot be copied");
    expect(() => codec.encode(Promise.resolve(1))).toThrow("a Promise cannot be copied");
    expect(() => codec.encode(new WeakMap())).toThrow("a WeakMap cannot be copied");
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(() => codec.encode(cycle)).toThrow("contains itself");
  });

  test("refers to nothing outside itself: it works evaluated from its source in a realm of its own", () => {
    const realm = new (
      globalThis as unknown as { ShadowRealm: new () => { evaluate(s: string): unknown } }
    ).ShadowRealm();
    const encodeThere = realm.evaluate(
      `(() => { const c = (${createValueCodec.toString()})(); return (t) => c.encode(c.decode(t)); })()`,
    ) as (text: string) => string;
    const back = codec.decode(encodeThere(codec.encode({ when: new Date(7), list: [undefined, 1n] }))) as {
      when: Date;
      list: unknown[];
    };
    expect(back.when.getTime()).toBe(7);
    expect(back.list).toEqual([undefined, 1n]);
  });
});
