/** Whether credentials.json holds a key of a provider, read now, never failing (for views that show a damaged file elsewhere). */
import { readCredentials } from "../../credentials/index.ts";

/** A file that cannot be read holds no key here; the caller names its problem (doctor's finding, the screen's refusal to open). */
export function storedKeys(path: string): (provider: string) => boolean {
  try {
    const credentials = readCredentials(path);
    return (provider) => credentials.keyOf(provider) !== undefined;
  } catch {
    return () => false;
  }
}
