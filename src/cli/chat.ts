import { defineCommand } from "citty";
import { RiendaError } from "../errors.ts";

/** `rienda`: interactive chat in a terminal. */
export default defineCommand({
  meta: { name: "rienda", description: "Chat with an agent in the terminal." },
  run() {
    throw new RiendaError("usage", "interactive chat is not available yet; use rienda run -a AGENT -p PROMPT");
  },
});
