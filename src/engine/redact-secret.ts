/**
 * `text` with every occurrence of `secret` replaced, for provider errors that quote the key they
 * were sent: such a message goes to clients, logs and transcripts.
 */
export function redactSecret(text: string, secret: string | null | undefined): string {
  // A very short "key" (a local server's placeholder) would blank out ordinary words.
  return secret && secret.length >= 8 ? text.split(secret).join("[redacted]") : text;
}
