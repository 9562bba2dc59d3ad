/**
 * credentials.json, the keys `rienda auth` stores by provider name
 * (go-current.md §4; docs/providers.md "Keys").
 *
 * Invariants: a key is never printed, logged or put in an error message;
 * the file is only ever replaced whole (atomic rename, mode 0600) and every
 * field this version does not know survives a write. No network, no work at
 * import time; env and home are parameters.
 */
export {
  credentialsPath,
  readCredentials,
  removeCredential,
  setCredential,
  type Credentials,
} from "./credentials-file.ts";
