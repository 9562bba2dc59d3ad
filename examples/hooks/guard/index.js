// ~/.rienda/hooks/guard/index.js
// The guard of the hooks page. Before the shell tool runs a command with
// `rm -rf`, it asks the user; a refusal stops the call and the model reads
// the reason. In a non-interactive run the answer comes from -y: without
// it, the command is refused. When the run ends, it shows a notice.
module.exports = {
  beforeToolExecute(ctx, call) {
    const cmd = (call.arguments && call.arguments.command) || "";
    if (call.name === "shell" && /\brm\s+-rf\b/.test(cmd)) {
      const ok = ctx.confirm({ title: "Dangerous command", body: cmd });
      if (!ok) return { allow: false, reason: "refused by the user" };
    }
  },
  afterRun(ctx, event) {
    ctx.notify({ title: "rienda", body: "run finished: " + event.reason });
  },
};
