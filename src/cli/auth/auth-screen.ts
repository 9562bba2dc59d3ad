/**
 * `rienda auth` on a terminal: the key screen, drawn by pi-tui like the
 * full-screen chat. Providers appear at once from the roster's listing;
 * each module's model count and key state fill in as it is evaluated (a
 * slow module never holds the screen). Loaded with a dynamic import, so
 * `auth set`, `auth list` and `auth rm` never load the library.
 */
import { ProcessTerminal, TUI } from "@mariozechner/pi-tui";
import { removeCredential, setCredential } from "../../credentials/index.ts";
import { messageOf } from "../../errors.ts";
import type { ProviderListing, ProviderState } from "../../roster/index.ts";
import { createChatStyle } from "../../ui/chat/index.ts";
import { AuthView, type AuthActions } from "./auth-view.ts";
import { pendingRow, providerRow, type ProviderRow } from "../shared/provider-rows.ts";
import { storedKeys } from "../shared/stored-keys.ts";
import type { KeyCommandContext } from "./key-context.ts";
import type { ModuleLines } from "./module-lines.ts";

/** Exit status when a signal ended the screen: 130 as an interrupted run, 129 when the terminal hung up (as the chat). */
const SIGNAL_EXIT: Partial<Record<NodeJS.Signals, number>> = { SIGINT: 130, SIGTERM: 130, SIGHUP: 129 };

/** Shows the screen until it is left; resolves with the exit status. */
export function runAuthScreen(context: KeyCommandContext, moduleLines: ModuleLines): Promise<number> {
  const { roster, credentialsPath } = context;
  const listings = roster.listings();
  const settled = new Map<string, ProviderState | { failed: string }>();
  const rows = (): ProviderRow[] => {
    const stored = storedKeys(credentialsPath);
    return listings.map((listing) => rowOf(listing, settled.get(listing.name), stored));
  };
  const tui = new TUI(new ProcessTerminal());
  return new Promise<number>((resolve) => {
    const signals = Object.keys(SIGNAL_EXIT) as NodeJS.Signals[];
    let done = false;
    const finish = (code: number): void => {
      if (done) return;
      done = true;
      for (const signal of signals) process.removeListener(signal, onSignal);
      // The last frame stays on the terminal; the cursor goes below it.
      tui.requestRender(true);
      setTimeout(() => {
        tui.stop();
        resolve(code);
      }, 20);
    };
    const onSignal = (signal: NodeJS.Signals): void => {
      // The terminal is gone: nothing can be drawn or restored on it, and waiting on it spins (as the chat, end at once).
      if (signal === "SIGHUP") process.exit(SIGNAL_EXIT.SIGHUP);
      finish(SIGNAL_EXIT[signal] ?? 130);
    };
    const actions: AuthActions = {
      store(provider, key) {
        setCredential(credentialsPath, provider, key);
        view.setRows(rows());
        return `✓ stored the key of ${provider} in ${credentialsPath}`;
      },
      remove(provider) {
        removeCredential(credentialsPath, provider);
        view.setRows(rows());
        return `removed the key of ${provider} from ${credentialsPath}`;
      },
      stored: (provider) => storedKeys(credentialsPath)(provider),
      configKey: context.configKey,
      quit: () => finish(0),
      render: () => tui.requestRender(),
    };
    const view = new AuthView(
      createChatStyle(true),
      `rienda auth · keys are stored in ${credentialsPath}`,
      rows(),
      () => tui.terminal.rows,
      actions,
      moduleLines,
    );
    moduleLines.onLine(() => tui.requestRender());
    for (const signal of signals) process.on(signal, onSignal);
    tui.addChild(view);
    tui.setFocus(view);
    tui.start();
    for (const listing of listings) {
      roster
        .provider(listing.name)
        .then(
          (state) => settled.set(listing.name, state ?? { failed: `provider "${listing.name}": not found` }),
          (error: unknown) => settled.set(listing.name, { failed: messageOf(error) }),
        )
        .finally(() => {
          if (done) return;
          view.setRows(rows());
          tui.requestRender();
        });
    }
  });
}

function rowOf(
  listing: ProviderListing,
  state: ProviderState | { failed: string } | undefined,
  stored: (provider: string) => boolean,
): ProviderRow {
  if (state === undefined) return pendingRow(listing);
  if ("failed" in state) return { ...pendingRow(listing), problem: state.failed };
  return providerRow(state, stored);
}
