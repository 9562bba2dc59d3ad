/**
 * `--tools a,b` and `--no-tools` (docs/cli.md "Which tools"): a run offered
 * only some of its agent's tools. The agent's tools are still loaded and
 * checked as for any run; the model is offered, and may call, only the
 * chosen ones. Hooks are never switched off from the command line.
 */
import type { ToolPort } from "../engine/index.ts";
import { RiendaError } from "../errors.ts";
import { closestName } from "../values.ts";

/** `tools` narrowed to `names` (in the agent's order); throws RiendaError naming a name the agent does not have. */
export function selectTools(tools: ToolPort, names: readonly string[], agentFile: string): ToolPort {
  const offered = tools.specs().map((spec) => spec.name);
  const unknown = names.filter((name) => !offered.includes(name));
  if (unknown.length > 0) {
    const lines = unknown.map((name) => {
      const near = closestName(name, offered);
      return `--tools: the agent has no tool "${name}"${near ? ` (did you mean ${near}?)` : ""}; its tools: ${offered.length > 0 ? offered.join(", ") : "none"} (${agentFile})`;
    });
    throw new RiendaError("usage", lines.join("\n"));
  }
  const chosen = new Set(names);
  return {
    specs: () => tools.specs().filter((spec) => chosen.has(spec.name)),
    has: (name) => chosen.has(name) && tools.has(name),
    run: (call, observer, signal, finalSignal) => tools.run(call, observer, signal, finalSignal),
  };
}

/** The names of `--tools a,b` (spaces around names allowed); empty names are refused. */
export function parseToolList(written: string): string[] {
  const names = written.split(",").map((name) => name.trim());
  if (names.some((name) => name === ""))
    throw new RiendaError(
      "usage",
      `--tools: "${written}" has an empty name; write the tool names separated by commas (--tools shell,read), or --no-tools for none`,
    );
  return [...new Set(names)];
}
