/**
 * What the next request sends back, through the binary: a session whose
 * last answer was empty (a hook emptied it) or only thinking (cut by
 * max_tokens), continued with -s, still alternates user and assistant on
 * every protocol; with send_thinking, a tool-using turn's reasoning goes
 * back as reasoning_content (DeepSeek, Kimi).
 */
import { afterEach, describe, expect, test } from "bun:test";
import { PROTOCOLS, scenario, type Scenario } from "../support/scenario.ts";
import type { RecordedRequest } from "../support/provider-server.ts";
import { sessionIdFrom } from "../support/session-reader.ts";

let s: Scenario | undefined;
afterEach(async () => {
  await s?.dispose();
  s = undefined;
});

const EMPTY_NOTE = "[This answer was empty.]";

/** The conversation a request carried as [role, visible text] pairs, whatever the protocol. */
function turnsOf(request: RecordedRequest): Array<[string, string]> {
  const body = request.body as Record<string, unknown>;
  if (request.protocol === "openai_responses") {
    return (body.input as Array<{ role?: string; content?: Array<{ text?: string }> }>)
      .filter((item) => item.role !== undefined)
      .map((item) => [item.role ?? "", (item.content ?? []).map((part) => part.text ?? "").join("")]);
  }
  const messages = (body.messages as Array<{ role: string; content: unknown }>).filter((m) => m.role !== "system");
  return messages.map((m) => [
    m.role,
    typeof m.content === "string"
      ? m.content
      : (m.content as Array<{ type: string; text?: string }>)
          .filter((b) => b.type === "text")
          .map((b) => b.text ?? "")
          .join(""),
  ]);
}

describe("an empty last answer, continued with -s", () => {
  for (const protocol of PROTOCOLS) {
    test(`a hook emptied it: the next prompt is a turn of its own (${protocol})`, async () => {
      s = await scenario({ protocol, agentFrontmatter: "hooks: [silence]" });
      s.inst.hook("silence", "module.exports = { afterModelResponse() { return { text: '' }; } };\n");
      s.server.script({ text: "something the hook removes" }, { text: "second answer" });
      const first = await s.inst.run(["run", "-a", "coder", "-p", "first prompt"]);
      expect(first.code).toBe(0);
      const second = await s.inst.run(["run", "-s", sessionIdFrom(first.stderr), "-p", "second prompt"]);
      expect(second.code).toBe(0);
      expect(turnsOf(s.server.requests[1]!)).toEqual([
        ["user", "first prompt"],
        ["assistant", EMPTY_NOTE],
        ["user", "second prompt"],
      ]);
      expect(JSON.stringify(s.server.requests[1]!.body)).not.toContain("something the hook removes");
    });

    test(`it was only thinking, cut by max_tokens: the request stays valid (${protocol})`, async () => {
      s = await scenario({
        protocol,
        modelExtra: protocol === "anthropic" ? "        thinking_max_tokens: 1024\n        max_tokens: 1100" : "",
      });
      s.server.script({ thinking: "Let me weigh every option", stopReason: "max_tokens" }, { text: "second answer" });
      const first = await s.inst.run(["run", "-a", "coder", "-p", "first prompt"]);
      const second = await s.inst.run(["run", "-s", sessionIdFrom(first.stderr), "-p", "second prompt"]);
      expect(second.stdout).toBe("second answer\n");
      expect(turnsOf(s.server.requests[1]!)).toEqual([
        ["user", "first prompt"],
        ["assistant", EMPTY_NOTE],
        ["user", "second prompt"],
      ]);
      if (protocol === "anthropic") {
        // The signed thinking goes back before the note, as the API wants thinking first.
        const messages = (s.server.requests[1]!.body as { messages: Array<{ content: Array<{ type: string }> }> })
          .messages;
        expect(messages[1]?.content.map((b) => b.type)).toEqual(["thinking", "text"]);
      }
    });
  }
});

describe("send_thinking (Chat Completions)", () => {
  test("a tool-using turn's reasoning goes back as reasoning_content on every request after it; a turn without calls sends none", async () => {
    s = await scenario({ modelExtra: "        send_thinking: true", agentFrontmatter: "tools: [shell]" });
    s.server.script(
      {
        thinking: "I should list the files",
        toolCalls: [{ id: "c1", name: "shell", arguments: { command: "echo listed" } }],
      },
      { thinking: "Now I can answer", text: "Listed." },
      { thinking: "Just greet", text: "Hello." },
      { text: "Bye." },
    );
    const first = await s.inst.run(["run", "-a", "coder", "-p", "list files", "-y"]);
    expect(first.code).toBe(0);
    const id = sessionIdFrom(first.stderr);
    await s.inst.run(["run", "-s", id, "-p", "say hello"]);
    await s.inst.run(["run", "-s", id, "-p", "bye"]);
    const assistants = (n: number) =>
      ((s!.server.requests[n]!.body as { messages: Array<Record<string, unknown>> }).messages ?? []).filter(
        (m) => m.role === "assistant",
      );
    expect(assistants(1).map((m) => m.reasoning_content)).toEqual(["I should list the files"]);
    expect(assistants(2).map((m) => m.reasoning_content)).toEqual(["I should list the files", "Now I can answer"]);
    expect(assistants(3).map((m) => ("reasoning_content" in m ? m.reasoning_content : "(none)"))).toEqual([
      "I should list the files",
      "Now I can answer",
      "(none)",
    ]);
  });

  test("off by default on a server of no known service: no reasoning_content at all", async () => {
    s = await scenario({ agentFrontmatter: "tools: [shell]" });
    s.server.script(
      { thinking: "list them", toolCalls: [{ id: "c1", name: "shell", arguments: { command: "echo x" } }] },
      { text: "done" },
    );
    await s.inst.run(["run", "-a", "coder", "-p", "list files", "-y"]);
    expect(JSON.stringify(s.server.requests[1]!.body)).not.toContain("reasoning_content");
  });
});
