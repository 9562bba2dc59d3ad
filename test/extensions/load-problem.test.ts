import { describe, expect, test } from "bun:test";
import { loadProblem } from "../../src/extensions/load-problem.ts";

const TOOL = "/home/ana/.rienda/tools/pad/index.js";

describe("loadProblem", () => {
  test("a package the tool's index.js requires: the package and the tool's node_modules", () => {
    expect(loadProblem(TOOL, `Cannot find module 'left-pad' (required by ${TOOL})`)).toBe(
      'cannot load index.js: require("left-pad") in index.js found no package "left-pad" in /home/ana/.rienda/tools/pad/node_modules (nor in a node_modules folder above it)',
    );
  });

  test("a package another package requires: the lookup starts in that package's folder", () => {
    const requirer = "/home/ana/.rienda/tools/pad/node_modules/wrap/lib/index.js";
    expect(loadProblem(TOOL, `Cannot find module 'inner' (required by ${requirer})`)).toBe(
      'cannot load index.js: require("inner") in node_modules/wrap/lib/index.js found no package "inner" in /home/ana/.rienda/tools/pad/node_modules/wrap/lib/node_modules (nor in a node_modules folder above it)',
    );
  });

  test("subpaths name their package; scoped packages keep their scope", () => {
    expect(loadProblem(TOOL, "Cannot find module 'lodash/fp'")).toContain('found no package "lodash" in');
    expect(loadProblem(TOOL, "Cannot find module '@scope/pkg/deep/file.js'")).toContain(
      'found no package "@scope/pkg" in',
    );
  });

  test("without the requiring file, the tool's own index.js is taken", () => {
    expect(loadProblem(TOOL, "Cannot find module 'chalk'")).toContain(
      'require("chalk") in index.js found no package "chalk" in /home/ana/.rienda/tools/pad/node_modules',
    );
  });

  test("a relative or absolute path names the file it resolved to; a node: module is not a package", () => {
    expect(loadProblem(TOOL, `Cannot find module '../shared/util' (required by ${TOOL})`)).toBe(
      'cannot load index.js: require("../shared/util") in index.js: no such file or folder: /home/ana/.rienda/tools/shared/util',
    );
    expect(loadProblem(TOOL, "Cannot find module 'node:nothing'")).toBe(
      'cannot load index.js: require("node:nothing") in index.js: no such built-in module',
    );
  });

  test("any other load error is passed on as it is", () => {
    expect(loadProblem(TOOL, "SyntaxError: Unexpected token (line 1, column 3)")).toBe(
      "cannot load index.js: SyntaxError: Unexpected token (line 1, column 3)",
    );
    expect(loadProblem(TOOL, "Cannot find module 'x' in a strange way")).toBe(
      "cannot load index.js: Cannot find module 'x' in a strange way",
    );
  });
});
