#!/usr/bin/env node
// A complete rienda rpc client: sends each prompt in turn, prints the
// answers as they stream, answers every confirmation yes, then asks for the
// conversation's token count and shuts down.
// Usage: node rpc-client.mjs AGENT "first prompt" ["next prompt" ...]
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";

const [agent, ...prompts] = process.argv.slice(2);
const rienda = spawn(process.env.RIENDA ?? "rienda", ["rpc", "-a", agent], { stdio: ["pipe", "pipe", "inherit"] });
const send = (command) => rienda.stdin.write(`${JSON.stringify(command)}\n`);
let next = 0;
const promptOrQuit = () =>
  next < prompts.length ? send({ id: `p${next}`, type: "prompt", text: prompts[next++] }) : send({ id: "stats", type: "get_stats" });

createInterface({ input: rienda.stdout }).on("line", (line) => {
  const message = JSON.parse(line);
  switch (message.type) {
    case "ready": // the first line: rpc_version, agent, model
      promptOrQuit();
      break;
    case "text_delta":
      process.stdout.write(message.text);
      break;
    case "tool_call":
      console.error(`[tool ${message.name}]`);
      break;
    case "confirm_request":
      console.error(`[${message.title}? yes]`);
      send({ id: `yes-${message.confirm_id}`, type: "confirm_answer", confirm_id: message.confirm_id, answer: true });
      break;
    case "run_end": // the last event of a prompt's run
      process.stdout.write("\n");
      if (message.reason !== "end_turn") console.error(`[run ended: ${message.reason}]`);
      promptOrQuit();
      break;
    case "response":
      if (!message.ok) console.error(`[${message.command} refused: ${message.error.code}: ${message.error.message}]`);
      if (message.command === "get_stats") {
        const { answers, tokens } = message.data;
        console.error(`[${answers} answers, ${tokens.input} tokens in, ${tokens.output} out]`);
        send({ id: "bye", type: "shutdown" });
      }
      break;
    case "fatal": // the agent could not be set up
      console.error(message.message);
      break;
  }
});
rienda.on("exit", (code) => process.exit(code ?? 1));
