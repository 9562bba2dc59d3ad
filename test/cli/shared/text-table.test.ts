import { expect, test } from "bun:test";
import { textTable } from "../../../src/cli/shared/text-table.ts";

test("columns two spaces apart, padded by display width, the last cell unpadded and trailing spaces trimmed", () => {
  expect(
    textTable([
      ["ID", "AGENT", "TITLE"],
      ["a", "日本", "long title"],
      ["bbbb", "x", ""],
    ]),
  ).toBe("ID    AGENT  TITLE\na     日本   long title\nbbbb  x\n");
  expect(textTable([])).toBe("");
});
