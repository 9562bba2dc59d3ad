/**
 * Layout of the request buffer of the ShadowRealm helper (prototype, issue 16):
 * Int32 words DOORBELL (1 while a request waits) and LENGTH (its UTF-8 JSON
 * bytes), the request from CONTROL_HEADER_BYTES on. Apart from
 * shadow-realm-worker.ts, whose top level freezes the realm that imports it.
 */
export const CONTROL_DOORBELL = 0;
export const CONTROL_LENGTH = 1;
export const CONTROL_HEADER_BYTES = 64;
