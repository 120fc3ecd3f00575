/** A server's URL as a message may show it: without any user name or password in it. */
export function shownUrl(url: string): string {
  if (!URL.canParse(url)) return url;
  const parsed = new URL(url);
  parsed.username = "";
  parsed.password = "";
  return parsed.href.replace(/\/$/, "");
}
