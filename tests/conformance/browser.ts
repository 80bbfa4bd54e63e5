/**
 * A `$BROWSER` stand-in: "opens" the URL by following its redirects, the way a browser whose user
 * approves at once would. The suite's authorization endpoints redirect straight to the
 * redirect_uri with a code, so this completes the login through our loopback callback.
 */
const url = process.argv[2];
if (!url) process.exit(2);
const res = await fetch(url, { redirect: "follow" });
await res.arrayBuffer();

export {};
