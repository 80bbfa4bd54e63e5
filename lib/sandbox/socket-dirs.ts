/**
 * Folders where the host's services keep their Unix sockets (systemd, D-Bus, Docker, X11, tmux,
 * the SSH agent): hidden behind an empty tmpfs inside the sandbox. A read-only mount does not stop
 * a connect() to a socket, and with no seccomp filter here (Claude Code blocks Unix sockets with
 * one) this is what keeps a sandboxed command from asking such a service to act outside. A socket
 * elsewhere stays reachable.
 */
import { lstatSync } from "node:fs";
import { dirname, join } from "node:path";

/** The socket folders that exist here as real folders (not links), for `SandboxPolicy.hiddenDirs`. */
export function hostSocketDirs(env: Record<string, string | undefined> = process.env, uid = process.getuid?.() ?? 0): string[] {
  const candidates = ["/run", "/var/run", "/tmp/.X11-unix", "/tmp/.ICE-unix", `/tmp/tmux-${uid}`];
  const agent = env.SSH_AUTH_SOCK;
  if (agent?.startsWith("/") && !["/", "/tmp"].includes(dirname(agent))) candidates.push(dirname(agent));
  if (env.HOME?.startsWith("/")) candidates.push(join(env.HOME, ".docker", "run"));
  return candidates.filter((dir) => {
    try {
      return lstatSync(dir).isDirectory();
    } catch {
      return false;
    }
  });
}
