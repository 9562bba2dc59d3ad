import { afterEach, beforeEach, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { Instance } from "../support/instance.ts";

let inst: Instance;
beforeEach(() => (inst = new Instance()));
afterEach(() => inst.dispose());

test("a workspace's bunfig.toml preload and .env have no effect on the binary", async () => {
  const marker = join(inst.root, "preload-ran");
  inst.file(
    "preload.ts",
    `require("node:fs").writeFileSync(${JSON.stringify(marker)}, "x"); console.log("PRELOADED");`,
  );
  inst.file("bunfig.toml", 'preload = ["./preload.ts"]\n');
  inst.file(".env", "RIENDA_INJECTED=from-dotenv\n");
  inst.tool(
    "env-probe",
    `module.exports = { description: "d", parameters: { type: "object" }, execute(ctx) { return String(ctx.env.get("RIENDA_INJECTED")); } };`,
  );
  const r = await inst.run(["tool", "run", "env-probe"]);
  expect(r.code).toBe(0);
  expect(r.stdout).toBe("null\n");
  expect(r.stderr).not.toContain("PRELOADED");
  expect(existsSync(marker)).toBe(false);
  const version = await inst.run(["--version"]);
  expect(version.stdout).not.toContain("PRELOADED");
  expect(existsSync(marker)).toBe(false);
});
