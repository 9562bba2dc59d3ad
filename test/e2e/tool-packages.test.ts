/**
 * Tools that `require` npm packages from their own node_modules, on a
 * machine without the registry: a folder copied with its node_modules works
 * from the compiled binary with the network unreachable (a user and network
 * namespace with only loopback, `unshare -rn`, where the machine allows
 * one); a package that is not there is reported by `rienda doctor`, naming
 * the package and the folder the lookup started in, with how to fix it.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { BINARY, Instance } from "../support/instance.ts";

const CAN_ISOLATE = spawnSync("unshare", ["-rn", "true"]).status === 0;
const CONFIG = "providers:\n  local:\n    preset: ollama\n    models:\n      llama: {}\n";

let inst: Instance;
beforeEach(() => {
  inst = new Instance();
  inst.config(CONFIG);
});
afterEach(() => inst.dispose());

/** Runs the binary with only loopback for a network where the machine allows it. */
function offline(args: string[]) {
  const argv = CAN_ISOLATE ? ["unshare", "-rn", BINARY, ...args] : [BINARY, ...args];
  const r = spawnSync(argv[0]!, argv.slice(1), {
    cwd: inst.workspace,
    env: inst.env({ RIENDA_CONFIG: undefined }),
    encoding: "utf8",
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A tool folder as `npm install` leaves it: a main file, a scoped package with "exports", a nested dependency. */
function vendoredTool(): string {
  const folder = inst.riendaPath("tools", "slug");
  inst.tool(
    "slug",
    `const slugify = require("slugify-lite");
const { upper } = require("@acme/case/upper");
module.exports = {
  description: "Makes a slug of a title.",
  parameters: { type: "object", properties: { title: { type: "string" } }, required: ["title"] },
  execute(ctx, args) { return slugify(args.title) + " " + upper("ok"); },
};
`,
  );
  const modules = join(folder, "node_modules");
  inst.write(
    join(modules, "slugify-lite/package.json"),
    '{ "name": "slugify-lite", "version": "2.0.0", "main": "lib/main.js" }\n',
  );
  inst.write(
    join(modules, "slugify-lite/lib/main.js"),
    'const dash = require("dash-join");\nmodule.exports = (s) => dash(s.toLowerCase().split(/[^a-z0-9]+/).filter(Boolean));\n',
  );
  // npm puts a dependency's own dependency under its node_modules when versions clash.
  inst.write(
    join(modules, "slugify-lite/node_modules/dash-join/package.json"),
    '{ "name": "dash-join", "version": "1.0.0" }\n',
  );
  inst.write(
    join(modules, "slugify-lite/node_modules/dash-join/index.js"),
    'module.exports = (parts) => parts.join("-");\n',
  );
  inst.write(
    join(modules, "@acme/case/package.json"),
    '{ "name": "@acme/case", "version": "1.0.0", "exports": { "./upper": "./src/upper.js" } }\n',
  );
  inst.write(join(modules, "@acme/case/src/upper.js"), "exports.upper = (s) => s.toUpperCase();\n");
  return folder;
}

describe("tools with npm packages, offline", () => {
  test.skipIf(!CAN_ISOLATE)("the tests run where the network is unreachable: only loopback", () => {
    const r = spawnSync("unshare", ["-rn", "cat", "/proc/net/dev"], { encoding: "utf8" });
    expect(
      r.stdout
        .split("\n")
        .slice(2)
        .map((line) => line.split(":")[0]!.trim())
        .filter(Boolean),
    ).toEqual(["lo"]);
  });

  test("a tool folder copied with its node_modules runs from the binary", () => {
    vendoredTool();
    const r = offline(["tool", "run", "slug", "--args", '{"title":"Hello, Offline World"}']);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("hello-offline-world OK\n");
    expect(r.code).toBe(0);
    const doctor = offline(["doctor"]);
    expect(doctor.stdout).toContain("tools         shell, slug\n");
    expect(doctor.stdout).toEndWith("healthy\n");
    expect(doctor.code).toBe(0);
  });

  test("doctor names a package a tool requires that is not installed, and the folder it looked in", () => {
    const file = inst.tool(
      "pad",
      'const pad = require("left-pad");\nmodule.exports = { description: "Pads.", parameters: { type: "object" }, execute() { return pad("x", 3); } };\n',
    );
    const folder = inst.riendaPath("tools", "pad");
    const r = offline(["doctor"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      `problem: ${file}: tool "pad": cannot load index.js: require("left-pad") in index.js found no package "left-pad" in ${folder}/node_modules (nor in a node_modules folder above it)\n` +
        `  fix: where the npm registry is reachable, run "npm install left-pad" in ${folder}; for a machine without one, do that elsewhere and copy the folder, node_modules included (docs/tools.md, "Packages from npm")\n`,
    );
    const json = JSON.parse(offline(["doctor", "--json"]).stdout) as {
      problems: Array<{ name: string; message: string; hint: string }>;
    };
    const finding = json.problems.find((p) => p.name === "pad")!;
    expect(finding.message).toContain(`found no package "left-pad" in ${folder}/node_modules`);
    expect(finding.hint).toContain(`"npm install left-pad" in ${folder}`);
    // The run that needs it says the same, with the file.
    const run = offline(["tool", "run", "pad"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toEndWith(
      `rienda: tool "pad": cannot load index.js: require("left-pad") in index.js found no package "left-pad" in ${folder}/node_modules (nor in a node_modules folder above it) (${file})\n`,
    );
  });

  test("a vendored package missing its own dependency is named with the package folder the lookup started in", () => {
    const folder = vendoredTool();
    spawnSync("rm", ["-rf", join(folder, "node_modules/slugify-lite/node_modules")]);
    const r = offline(["doctor"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      `tool "slug": cannot load index.js: require("dash-join") in node_modules/slugify-lite/lib/main.js found no package "dash-join" in ${folder}/node_modules/slugify-lite/lib/node_modules (nor in a node_modules folder above it)\n`,
    );
    expect(r.stdout).toContain(
      `  fix: where the npm registry is reachable, run "npm install" in ${folder} (${folder}/node_modules is incomplete);`,
    );
  });

  test("a scoped package's subpath and a hook's require are reported by package name", () => {
    const hookFile = inst.hook("audit", 'require("@acme/logger/sink");\nmodule.exports = { beforeRun() {} };\n');
    const folder = inst.riendaPath("hooks", "audit");
    const r = offline(["doctor"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      `problem: ${hookFile}: hook "audit": cannot load index.js: require("@acme/logger/sink") in index.js found no package "@acme/logger" in ${folder}/node_modules (nor in a node_modules folder above it)\n` +
        `  fix: where the npm registry is reachable, run "npm install @acme/logger" in ${folder};`,
    );
  });

  test("a relative require of a file that is not there names the file", () => {
    const file = inst.tool("helper", 'require("./lib/helper.js");\nmodule.exports = {};\n');
    const r = offline(["doctor"]);
    expect(r.stdout).toContain(
      `problem: ${file}: tool "helper": cannot load index.js: require("./lib/helper.js") in index.js: no such file or folder: ${inst.riendaPath("tools", "helper", "lib/helper.js")}\n`,
    );
  });
});
