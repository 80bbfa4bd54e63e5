/**
 * Opens a URL in the user's browser: an OAuth login page (browser-login.ts) or a server's
 * URL-mode elicitation (MCP 2025-11-25 client/elicitation), never anything but http(s) from there.
 */

/** Spawns `$BROWSER <url>` (`%s` replaced when present) or the platform opener; false when there is neither. */
export function openBrowser(url: string, env: Record<string, string | undefined>): boolean {
  const browser = env.BROWSER?.split(":").find(Boolean);
  let argv: string[];
  if (browser) {
    const quoted = `'${url.replace(/'/g, "'\\''")}'`;
    argv = ["sh", "-c", browser.includes("%s") ? browser.replaceAll("%s", quoted) : `${browser} ${quoted}`];
  } else {
    const opener = process.platform === "darwin" ? "open" : process.platform === "win32" ? undefined : "xdg-open";
    if (process.platform === "win32") argv = ["cmd", "/c", "start", "", url];
    else if (opener && Bun.which(opener)) argv = [opener, url];
    else return false;
  }
  try {
    // stdout stays ours (print mode's answer); the browser's chatter goes to stderr.
    const child = Bun.spawn(argv, { stdin: "ignore", stdout: "ignore", stderr: "inherit" });
    child.unref();
    return true;
  } catch {
    return false;
  }
}
