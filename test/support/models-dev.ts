/**
 * A scripted models.dev on 127.0.0.1 for e2e tests that list the built-in
 * provider modules (opencode-go, zai-coding-plan): run the binary with
 * `RIENDA_MODELS_DEV_URL: catalogue.url` and the built-ins read this
 * catalogue instead of the network, so what they declare does not depend on
 * the machine or on the snapshot shipped in the binary. Never imports src/.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** opencode-go with 3 models, zai-coding-plan with 2, in the shape of models.dev's api.json. */
export const SMALL_CATALOGUE = {
  "opencode-go": {
    npm: "@ai-sdk/openai-compatible",
    models: {
      "go-large": { name: "Go Large", limit: { context: 200000, output: 32000 } },
      "go-medium": { name: "Go Medium", limit: { context: 128000, output: 16000 } },
      "go-small": { name: "Go Small", limit: { context: 64000, output: 8000 } },
    },
  },
  "zai-coding-plan": {
    api: "http://127.0.0.1:9/v1",
    npm: "@ai-sdk/openai-compatible",
    models: { "glm-4.6": { limit: { context: 200000 } }, "glm-4.5-air": { limit: { context: 128000 } } },
  },
};

/** A running catalogue. */
export interface Catalogue {
  /** What RIENDA_MODELS_DEV_URL is set to. */
  url: string;
  close(): Promise<void>;
}

export async function startCatalogue(catalogue: unknown = SMALL_CATALOGUE): Promise<Catalogue> {
  const server: Server = createServer((_, response) => {
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify(catalogue));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api.json`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
