import { test } from "bun:test";
import { scenario, toolResultsOf } from "../support/scenario.ts";
test("x", async () => {
  const s = await scenario({ agentFrontmatter: "tools: [shell]" });
  const deep = "[".repeat(60000) + "]".repeat(60000);
  s.server.script({ toolCalls: [{ id: "d", name: "shell", rawArguments: `{"command":"echo hi","x":${deep}}` }] }, { text: "done" });
  const r = await s.inst.run(["run", "-a", "coder", "-p", "go"]);
  console.log(r.code, r.stderr.slice(0, 2000), s.server.requests.length);
  if (s.server.requests[1]) console.log(toolResultsOf(s.server.requests[1]).join("").slice(0, 500));
  await s.dispose();
});
