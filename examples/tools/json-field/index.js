// ~/.rienda/tools/json-field/index.js
// Reads one top-level field of a JSON file in the workspace and returns it as
// JSON text (a string comes back quoted). A file that is not JSON makes
// JSON.parse throw: the model receives that error, the run goes on.
module.exports = {
  description: "Reads a field from a JSON file in the workspace.",
  parameters: {
    type: "object",
    properties: { path: { type: "string" }, field: { type: "string" } },
    required: ["path", "field"],
    additionalProperties: false,
  },
  execute: function(ctx, args) {
    const data = JSON.parse(ctx.file.read(args.path));
    return JSON.stringify(data[args.field]);
  },
};
