/**
 * A URL as Rienda shows it in messages: a password or token written into
 * `base_url` (`https://user:secret@host`, `?key=secret`) must never reach
 * stderr, `--json` or a log. The user name stays when a password follows
 * it (it says which account); a lone user name is often the token itself.
 * Query parameter names stay, their values do not. A URL with nothing to
 * hide comes back exactly as written.
 */
export function shownUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  let hidden = false;
  if (parsed.password !== "") {
    parsed.password = "***";
    hidden = true;
  } else if (parsed.username !== "") {
    parsed.username = "***";
    hidden = true;
  }
  if (parsed.search !== "") {
    const names = [...parsed.searchParams.keys()];
    parsed.search = names.map((name) => `${encodeURIComponent(name)}=***`).join("&");
    hidden = true;
  }
  return hidden ? parsed.toString() : url;
}

/**
 * The secrets a URL carries, as shownUrl hides them: the password (or a
 * lone user name) and every query value, decoded as a server would echo
 * them. Values shorter than 8 characters are left out (they would hide
 * ordinary words in a message).
 */
export function urlSecrets(url: string): string[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [];
  }
  const found = new Set<string>();
  const add = (value: string) => {
    if (value.length < 8) return;
    found.add(value);
    try {
      found.add(decodeURIComponent(value));
    } catch {
      // kept as written
    }
  };
  add(parsed.password !== "" ? parsed.password : parsed.username);
  for (const [, value] of parsed.searchParams) {
    add(value);
    add(encodeURIComponent(value));
  }
  return [...found];
}
