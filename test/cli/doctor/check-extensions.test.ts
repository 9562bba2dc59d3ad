import { describe, expect, test } from "bun:test";
import { checkExtensions, extensionHint } from "../../../src/cli/doctor/index.ts";
import type { ExtensionDiagnostic } from "../../../src/extensions/index.ts";

function diagnostic(kind: "tool" | "hook", name: string, problem: string): ExtensionDiagnostic {
  const file = `/h/.rienda/${kind}s/${name}/index.js`;
  return { kind, name, file, problem, message: `${kind} "${name}": ${problem}` };
}

describe("checkExtensions", () => {
  test("a broken tool is a problem with its file, the discovery message and a fix", () => {
    const [finding] = checkExtensions([diagnostic("tool", "wc", 'missing "execute" (a function)')]);
    expect(finding).toEqual({
      severity: "problem",
      check: "tool",
      file: "/h/.rienda/tools/wc/index.js",
      name: "wc",
      message: 'tool "wc": missing "execute" (a function)',
      hint: 'add execute to module.exports: execute(ctx, args) { return "..."; }',
    });
  });

  test("a user tool replacing a built-in is a warning", () => {
    const [finding] = checkExtensions([diagnostic("tool", "shell", "replaces a built-in tool")]);
    expect(finding!.severity).toBe("warning");
    expect(finding!.message).toBe('tool "shell" replaces a built-in tool');
  });

  test("several shape problems get one fix each, once", () => {
    const [finding] = checkExtensions([
      diagnostic("tool", "t", 'missing "description" (a non-empty string); missing "execute" (a function)'),
    ]);
    expect(finding!.hint).toBe(
      'add description: "what the tool does, for the model" to module.exports; add execute to module.exports: execute(ctx, args) { return "..."; }',
    );
  });

  test("a load error is kept whole even when it contains a semicolon", () => {
    const [finding] = checkExtensions([diagnostic("hook", "h", "cannot load index.js: Unexpected ; here")]);
    expect(finding!.check).toBe("hook");
    expect(finding!.hint).toStartWith("fix the error so the module loads");
    expect(finding!.hint).not.toContain("tool list");
  });
});

describe("extensionHint", () => {
  test("hooks", () => {
    expect(extensionHint("hook", 'unknown point "beforeTool" (points: ...)')).toStartWith(
      'rename "beforeTool" to one of beforeRun,',
    );
    expect(extensionHint("hook", '"afterRun" must be a function (it is a number)')).toBe(
      'make "afterRun" a function: afterRun(ctx, ...) { ... }',
    );
    expect(
      extensionHint("hook", "module.exports must be an object of functions named after hook points (it is a string)"),
    ).toContain("docs/hooks.md");
  });
  test("tools", () => {
    expect(
      extensionHint(
        "tool",
        "module.exports must be an object with description, parameters and execute (it is a number)",
      ),
    ).toContain("docs/tools.md");
    expect(extensionHint("tool", '"parameters" is not a valid JSON Schema: /type must be ...')).toBe(
      "fix the JSON Schema in parameters (the message says where)",
    );
    expect(extensionHint("tool", 'missing "parameters" (a JSON Schema object)')).toStartWith("add parameters:");
    expect(extensionHint("tool", 'invalid name (use 1 to 64 letters, digits, "_" or "-")')).toStartWith(
      "rename the directory",
    );
  });
  test("a missing package: npm install it in the extension's folder, or copy the folder from a machine that did", () => {
    const direct =
      'cannot load index.js: require("left-pad") in index.js found no package "left-pad" in /t/pad/node_modules (nor in a node_modules folder above it)';
    expect(extensionHint("tool", direct, "/t/pad")).toBe(
      'where the npm registry is reachable, run "npm install left-pad" in /t/pad; for a machine without one, do that elsewhere and copy the folder, node_modules included (docs/tools.md, "Packages from npm")',
    );
    const nested =
      'cannot load index.js: require("inner") in node_modules/wrap/index.js found no package "inner" in /t/pad/node_modules/wrap/node_modules (nor in a node_modules folder above it)';
    expect(extensionHint("hook", nested, "/t/pad")).toStartWith(
      'where the npm registry is reachable, run "npm install" in /t/pad (/t/pad/node_modules is incomplete);',
    );
  });
});
