import { describe, expect, test } from "bun:test";
import { AuthView, type AuthActions } from "../../../src/cli/auth/auth-view.ts";
import { MaskedField } from "../../../src/cli/auth/masked-field.ts";
import type { ProviderRow } from "../../../src/cli/shared/provider-rows.ts";
import { plainStyle } from "../../../src/ui/chat/index.ts";

const ENTER = "\r";
const ESC = "\u001b";
const DOWN = "\u001b[B";

function row(name: string, extra: Partial<ProviderRow>): ProviderRow {
  return { name, origin: "module", source: `/p/${name}/index.js`, ready: false, needsNoKey: false, ...extra };
}

const ROWS: ProviderRow[] = [
  row("acme", { key: "missing", models: 3 }),
  row("local", { key: "not needed", ready: true, models: 1, needsNoKey: true }),
  row("broken", { problem: 'provider "broken": base_url is required' }),
  row("slow", {}),
];

function screen(rows = ROWS, configKey?: string) {
  const stored = new Map<string, string>();
  const events: string[] = [];
  const actions: AuthActions = {
    store(provider, key) {
      stored.set(provider, key);
      return `stored the key of ${provider}`;
    },
    remove(provider) {
      stored.delete(provider);
      return `removed the key of ${provider}`;
    },
    stored: (provider) => stored.has(provider),
    configKey: () => configKey,
    quit: () => events.push("quit"),
    render: () => events.push("render"),
  };
  const view = new AuthView(plainStyle, "rienda auth · keys are stored in /c.json", rows, () => 24, actions);
  const text = () => view.render(100).join("\n");
  return { view, stored, events, text };
}

describe("the key screen", () => {
  test("every provider with its mark, model count and key state; a failed module shows its problem", () => {
    const { text } = screen();
    expect(text()).toBe(
      [
        "rienda auth · keys are stored in /c.json",
        "",
        "❯ — acme    3 models    no key",
        "  ✓ local   1 model     needs no key",
        '  ! broken  -           provider "broken": base_url is required',
        "  … slow    -           …",
        "",
        "↑/↓ choose · Enter type its key · Del remove its stored key · Esc quits",
      ].join("\n"),
    );
  });

  test("Enter asks the key masked; Enter stores it; the key is never drawn", () => {
    const { view, stored, text } = screen();
    view.handleInput(ENTER);
    for (const char of "sk-secret") view.handleInput(char);
    expect(text()).toContain("Key for acme: •••••••••▏");
    expect(text()).not.toContain("secret");
    view.handleInput(ENTER);
    expect(stored.get("acme")).toBe("sk-secret");
    expect(text()).toContain("stored the key of acme");
    expect(text()).not.toContain("secret");
    expect(text()).toContain("Enter type its key");
  });

  test("an empty key or one with a line break is refused and the field stays; Esc leaves it, storing nothing", () => {
    const { view, stored, text } = screen();
    view.handleInput(ENTER);
    view.handleInput(ENTER);
    expect(text()).toContain("the key is empty; type it again, or Esc");
    expect(text()).toContain("Key for acme: ");
    view.handleInput("\u001b[200~one\ntwo\n\u001b[201~");
    expect(text()).toContain("Key for acme: •••••••▏");
    view.handleInput(ENTER);
    expect(text()).toContain("the key holds a line break at character 4 of 7");
    view.handleInput(ESC);
    expect(text()).toContain("nothing stored");
    expect(stored.size).toBe(0);
  });

  test("a provider with auth none needs no key: said instead of asked; a module still evaluating is waited for", () => {
    const { view, text } = screen();
    view.handleInput(DOWN);
    view.handleInput(ENTER);
    expect(text()).toContain("local needs no key (its module declares auth: none)");
    expect(text()).not.toContain("Key for");
    view.handleInput(DOWN);
    view.handleInput(DOWN);
    view.handleInput(ENTER);
    expect(text()).toContain("slow: its module is still being evaluated");
  });

  test("a key config.yaml writes is named when the field opens", () => {
    const { view, text } = screen(ROWS, "providers.acme.api_key");
    view.handleInput(ENTER);
    expect(text()).toContain("config.yaml writes providers.acme.api_key, which is used before a stored key");
  });

  test("Del asks before removing a stored key; anything but y keeps it", () => {
    const { view, stored, text } = screen();
    view.handleInput("d");
    expect(text()).toContain("no key of acme is stored");
    stored.set("acme", "k");
    view.handleInput("\u001b[3~");
    expect(text()).toContain("? Remove the stored key of acme? [y/N]");
    view.handleInput("n");
    expect(stored.has("acme")).toBe(true);
    view.handleInput("d");
    view.handleInput("y");
    expect(stored.has("acme")).toBe(false);
    expect(text()).toContain("removed the key of acme");
  });

  test("Esc, q or Ctrl-C at the list leaves the screen", () => {
    for (const key of [ESC, "q", "\u0003"]) {
      const { view, events } = screen();
      view.handleInput(key);
      expect(events).toContain("quit");
    }
  });
});

describe("the masked field", () => {
  test("a paste arriving in pieces, its trailing line break dropped; Backspace and Ctrl-U", () => {
    let submitted: string | undefined;
    const field = new MaskedField(
      "Key: ",
      (value) => (submitted = value),
      () => undefined,
    );
    field.handleInput("\u001b[200~sk-");
    field.handleInput("abc\r\n\u001b[201~");
    expect(field.length).toBe(6);
    field.handleInput("\u007f");
    field.handleInput("\r");
    expect(submitted).toBe("sk-ab");
    field.handleInput("\u0015");
    expect(field.length).toBe(0);
    expect(field.render(40)).toEqual(["Key: ▏"]);
  });

  test("a key longer than the line is counted, not drawn", () => {
    const field = new MaskedField(
      "Key: ",
      () => undefined,
      () => undefined,
    );
    for (let i = 0; i < 60; i++) field.handleInput("x");
    expect(field.render(40)[0]).toBe(`Key: ${"•".repeat(21)} (60 chars)▏`);
  });
});
