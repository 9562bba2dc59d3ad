import { expect, test } from "bun:test";
import { cacheEntryText, expiryText, livePayload } from "../src/cache-entry.ts";

test("the Go envelope: sorted, two-space indent, expiry in whole UTC seconds", () => {
  expect(expiryText(Date.UTC(2026, 0, 1, 0, 10, 0, 999))).toBe("2026-01-01T00:10:00Z");
  expect(cacheEntryText("2026-01-01T00:10:00Z", "x")).toBe(
    '{\n  "expires_at": "2026-01-01T00:10:00Z",\n  "payload": "x"\n}\n',
  );
});

test("an entry lives until its expiry; an expired one, a store entry or anything else is no live payload", () => {
  const at = Date.UTC(2026, 0, 1);
  expect(livePayload({ expires_at: "2026-01-01T00:00:01Z", payload: "p" }, at)).toBe("p");
  expect(livePayload({ expires_at: "2026-01-01T00:00:01.5+00:00", payload: "p" }, at)).toBe("p");
  expect(livePayload({ expires_at: "2025-12-31T23:59:59Z", payload: "p" }, at)).toBeNull();
  for (const damaged of [
    null,
    [],
    { expires_at: "", payload: "p" },
    { expires_at: "tomorrow", payload: "p" },
    { expires_at: "2027-01-01T00:00:00Z", payload: 1 },
  ]) {
    expect(livePayload(damaged, at)).toBeNull();
  }
});
