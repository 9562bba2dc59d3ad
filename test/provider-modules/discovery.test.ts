/** Discovery of provider modules (go-current.md §2): which folders count, RIENDA_PROVIDERS, built-ins and user modules of their name. */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { listProviderModules } from "../../src/provider-modules/index.ts";
import type { Runtime } from "../../src/runtime/index.ts";
import { ProvidersHome } from "./support.ts";

let home: ProvidersHome;
// Listing evaluates nothing: no runtime at all.
beforeEach(() => (home = new ProvidersHome(undefined as unknown as Runtime)));
afterEach(() => home.dispose());

const summary = (listing: ReturnType<ProvidersHome["list"]>) => listing.modules.map((m) => `${m.name} ${m.origin}`);

describe("listProviderModules", () => {
  test("without a providers folder: the built-ins alone, in the folder they would have", () => {
    const listing = home.list();
    expect(listing).toEqual({
      folder: home.folder,
      modules: [
        {
          origin: "built-in",
          name: "opencode-go",
          path: "built-in:opencode-go",
          folder: join(home.folder, "opencode-go"),
        },
        {
          origin: "built-in",
          name: "zai-coding-plan",
          path: "built-in:zai-coding-plan",
          folder: join(home.folder, "zai-coding-plan"),
        },
      ],
      problems: [],
    });
  });

  test("a folder with index.js is a module named after the folder; dot folders, folders without index.js and loose files are skipped", () => {
    const acme = home.write("acme", "module.exports = () => ({});");
    home.write(".hidden", "module.exports = () => ({});");
    home.write("notes", "nothing here", "README.md");
    home.write("dir-index", "", "index.js/keep");
    writeFileSync(join(home.folder, "loose.js"), "module.exports = () => ({});");
    const listing = home.list();
    expect(summary(listing)).toEqual(["acme module", "opencode-go built-in", "zai-coding-plan built-in"]);
    expect(listing.modules[0]).toEqual({
      origin: "module",
      name: "acme",
      path: acme,
      folder: join(home.folder, "acme"),
    });
  });

  test("a user module replaces the built-in of its name; the list is sorted by name", () => {
    const own = home.write("opencode-go", "module.exports = () => ({});");
    home.write("Zeta", "module.exports = () => ({});");
    home.write("alpha", "module.exports = () => ({});");
    const listing = home.list();
    expect(summary(listing)).toEqual(["Zeta module", "alpha module", "opencode-go module", "zai-coding-plan built-in"]);
    expect(listing.modules.find((m) => m.name === "opencode-go")).toEqual({
      origin: "module",
      name: "opencode-go",
      path: own,
      folder: join(home.folder, "opencode-go"),
    });
  });

  test("a linked module folder counts like a real one", () => {
    const elsewhere = join(home.home, "elsewhere");
    mkdirSync(elsewhere, { recursive: true });
    writeFileSync(join(elsewhere, "index.js"), "module.exports = () => ({});");
    mkdirSync(home.folder, { recursive: true });
    symlinkSync(elsewhere, join(home.folder, "linked"));
    expect(summary(home.list())).toContain("linked module");
  });

  test("RIENDA_PROVIDERS names the folder instead (relative to cwd, trimmed); ~/.rienda/providers is then not read", () => {
    home.write("from-home", "module.exports = () => ({});");
    const other = join(home.home, "other-providers");
    mkdirSync(join(other, "from-env"), { recursive: true });
    writeFileSync(join(other, "from-env", "index.js"), "module.exports = () => ({});");
    const absolute = listProviderModules({ env: { RIENDA_PROVIDERS: ` ${other} ` }, home: home.home });
    const relative = listProviderModules({
      env: { RIENDA_PROVIDERS: "other-providers" },
      home: home.home,
      cwd: home.home,
    });
    for (const listing of [absolute, relative]) {
      expect(listing.folder).toBe(other);
      expect(summary(listing)).toEqual(["from-env module", "opencode-go built-in", "zai-coding-plan built-in"]);
      expect(listing.modules.find((m) => m.name === "opencode-go")?.folder).toBe(join(other, "opencode-go"));
    }
    expect(summary(listProviderModules({ env: { RIENDA_PROVIDERS: "  " }, home: home.home }))).toContain(
      "from-home module",
    );
  });

  test("a providers 'folder' that is a file is a problem in the listing, not a failure; the built-ins remain", () => {
    mkdirSync(join(home.home, ".rienda"), { recursive: true });
    writeFileSync(home.folder, "not a folder");
    expect(home.list().problems).toEqual([`providers folder ${home.folder}: is not a folder`]);
    expect(summary(home.list())).toEqual(["opencode-go built-in", "zai-coding-plan built-in"]);
  });
});
