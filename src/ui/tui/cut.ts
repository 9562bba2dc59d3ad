/** Text cut to `width` columns with `…`, as the line chat cuts it (pi-tui's default is `...`). */
import { truncateToWidth } from "@mariozechner/pi-tui";

export function cut(text: string, width: number): string {
  return truncateToWidth(text, Math.max(1, width), "…");
}
