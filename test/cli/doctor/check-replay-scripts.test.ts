import { describe, expect, test } from "bun:test";
import { checkReplayScripts, type ModelUser } from "../../../src/cli/doctor/index.ts";

const CONFIG = "/h/.rienda/config.yaml";
const user: ModelUser = { label: 'agent "starter"', ref: "replay/starter", provider: "replay", alias: "starter" };

describe("checkReplayScripts", () => {
  test("a script that parses gives no finding", () => {
    expect(checkReplayScripts(CONFIG, [{ provider: "replay", file: "/h/.rienda/replay/demo.yaml" }], [user])).toEqual(
      [],
    );
  });

  test("a missing script an agent uses is a problem; the starter's fix mentions rienda init", () => {
    const [finding] = checkReplayScripts(
      CONFIG,
      [{ provider: "replay", file: "/h/.rienda/replay/starter.yaml", problem: "does not exist", missing: true }],
      [user],
    );
    expect(finding!.severity).toBe("problem");
    expect(finding!.message).toBe(
      'replay script of provider "replay" does not exist; agent "starter" (replay/starter) uses it',
    );
    expect(finding!.hint).toContain(`correct providers.replay.script in ${CONFIG}`);
    expect(finding!.hint).toContain("rienda init");
  });

  test("an invalid script nobody uses is a warning", () => {
    const [finding] = checkReplayScripts(
      CONFIG,
      [{ provider: "replay", file: "/h/s.yaml", problem: "is invalid: turn 1: is empty" }],
      [],
    );
    expect(finding!.severity).toBe("warning");
    expect(finding!.hint).toContain('"Replay" describes the format');
    expect(finding!.hint).not.toContain("rienda init");
  });
});
