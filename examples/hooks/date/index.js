// ~/.rienda/hooks/date/index.js
// Tells the model today's date, which it cannot know. The changed system
// prompt holds for one request only and is never stored in the session, so
// the hook adds the date again on every turn (and a session continued
// tomorrow gets tomorrow's date). The date is the machine's local date.
module.exports = {
  beforeModelRequest(ctx, request) {
    const now = new Date();
    const pad = (n) => String(n).padStart(2, "0");
    const today = now.getFullYear() + "-" + pad(now.getMonth() + 1) + "-" + pad(now.getDate());
    const line = "Today's date is " + today + ".";
    return { system: request.system ? request.system + "\n\n" + line : line };
  },
};
