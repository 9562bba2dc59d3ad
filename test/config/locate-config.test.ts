import { describe, expect, test } from "bun:test";
import { locateConfig } from "../../src/config/index.ts";

const home = "/home/u";

describe("locateConfig", () => {
  test("uses ~/.rienda/config.yaml when neither --config nor RIENDA_CONFIG is given", () => {
    expect(locateConfig({ env: {}, home })).toEqual({ path: "/home/u/.rienda/config.yaml", source: "home" });
  });

  test("RIENDA_CONFIG wins over the home file", () => {
    expect(locateConfig({ env: { RIENDA_CONFIG: "/etc/rienda.yaml" }, home })).toEqual({
      path: "/etc/rienda.yaml",
      source: "env",
    });
  });

  test("--config wins over RIENDA_CONFIG", () => {
    const location = locateConfig({ flag: "/tmp/a.yaml", env: { RIENDA_CONFIG: "/etc/rienda.yaml" }, home });
    expect(location).toEqual({ path: "/tmp/a.yaml", source: "flag" });
  });

  test("an empty RIENDA_CONFIG or --config counts as not given", () => {
    expect(locateConfig({ flag: "", env: { RIENDA_CONFIG: "  " }, home }).source).toBe("home");
  });

  test("relative paths resolve against cwd", () => {
    expect(locateConfig({ flag: "conf/r.yaml", env: {}, home, cwd: "/work/p" }).path).toBe("/work/p/conf/r.yaml");
    expect(locateConfig({ env: { RIENDA_CONFIG: "../r.yaml" }, home, cwd: "/work/p" }).path).toBe("/work/r.yaml");
  });

  test("a leading ~/ expands to the given home", () => {
    expect(locateConfig({ env: { RIENDA_CONFIG: "~/cfg/r.yaml" }, home }).path).toBe("/home/u/cfg/r.yaml");
    expect(locateConfig({ flag: "~/r.yaml", env: {}, home }).path).toBe("/home/u/r.yaml");
  });
});
