import pkg from "../package.json" with { type: "json" };

/** Rienda's version, taken from package.json at build time. */
export const VERSION: string = pkg.version;
